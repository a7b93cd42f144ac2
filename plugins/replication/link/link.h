// The replica's side of the link to its primary. A thread of its own connects (loopback or any
// address the operator names), runs the handshake (PING, AUTH when a password is set, REPLCONF
// listening-port, REPLCONF capa eof capa psync2, PSYNC <replid> <offset>), receives a full
// sync's snapshot into a file (both "$<len>" and "$EOF:<40-byte mark>" payloads, skipping the
// primary's "\n" keepalives), then reads the primary's stream and cuts it into whole commands,
// each with the stream offset just past it. The thread never touches the keyspace: everything
// it learns reaches the main thread through loop_post, in order. Redis 7.0 primaries and Plinth
// primaries speak the same wire.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plinth::replication {

struct LinkConfig {
  std::string host;            // the primary's address
  int port = 0;                // and port
  std::string user, password;  // AUTH [user] password when password is non-empty
  int listening_port = 0;      // REPLCONF listening-port (this server's port)
  std::string rdb_path;        // where a full sync's snapshot is written (then fsynced)
  int timeout_ms = 60000;      // repl-timeout: connect, handshake and silence on the link
  std::string replid = "?";    // PSYNC arguments: "?" and -1 ask for a full sync
  int64_t offset = -1;         // the next offset this replica needs (its offset + 1 in PSYNC)
  bool failover = false;       // PSYNC <replid> <offset> FAILOVER: FAILOVER's old primary
                               // asks its target to take over (it promotes, then continues us)
};

// One command of the primary's stream: its arguments and the stream offset just past it.
struct StreamCommand {
  std::vector<std::string> argv;
  uint64_t end_offset = 0;
};

// What the link tells the main thread. Each callback runs on the main thread (posted with
// loop_post), in the order the link learned things; none runs after Stop returns.
struct LinkEvents {
  // The handshake reached PSYNC (INFO: master_link_status still down, sync in progress).
  std::function<void()> syncing;
  // +FULLRESYNC <replid> <offset>: the snapshot is complete in config.rdb_path (fsynced); load
  // it, then the stream follows from offset.
  std::function<void(const std::string& replid, uint64_t offset)> full_sync;
  // +CONTINUE [<new replid>]: the stream goes on from the offset PSYNC asked for. replid is the
  // primary's (possibly new) id.
  std::function<void(const std::string& replid)> partial_sync;
  // Whole commands of the stream, in order.
  std::function<void(std::vector<StreamCommand>)> commands;
  // Bytes of the full sync's snapshot received so far (INFO master_sync_read_bytes); a first
  // (0, -1) right after +FULLRESYNC.
  std::function<void(uint64_t read, int64_t total)> progress;
  // The link failed or closed: reason for the log. The plugin reconnects (a new Link) later.
  std::function<void(const std::string& reason)> down;
};

class Link {
 public:
  // Starts the link thread. OWNERSHIP: self is the plugin's handle, for loop_post (through
  // sdk::Api(), which the plugin's entry point or a test sets) and logs.
  Link(plinth_plugin_t* self, LinkConfig config, LinkEvents events);
  // Stops the thread (closing the socket) and waits for it; drops events not yet run.
  ~Link();
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  // Sends "REPLCONF ACK <offset>" to the primary (the applied offset). Any thread; never
  // blocks (an ack the socket has no room for is dropped); a no-op before the stream phase or
  // after the link went down. The link itself sends one ack, of the stream's start offset, when
  // the stream phase begins (a Redis 7 primary streams nothing after a diskless snapshot until
  // it hears one); the rest is the caller's: once a second and on REPLCONF GETACK. A Redis 7
  // primary may ignore that first ack if it arrives before it saw the transfer end, so the
  // caller's periodic acks are what guarantee the stream starts.
  void Ack(uint64_t offset);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace plinth::replication
