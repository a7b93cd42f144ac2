// A client connection: its query buffer and protocol session, its output queue, and its state
// (database, protocol version, auth). Reading, parsing and writing happen on the main thread in
// this version; the shape keeps bytes-in/bytes-out apart from execution for the IO threads.
#pragma once

#include <plinth/plugin.h>
#include <uv.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

namespace plinth::host {

struct Transport;
struct Command;

// One piece of pending output: bytes the host owns, or a reference released after writing.
struct OutSeg {
  char* data = nullptr;
  size_t len = 0;
  size_t cap = 0;  // 0 for a reference
  size_t sent = 0;
  plinth_release_fn release = nullptr;
  void* release_arg = nullptr;
};

struct Client {
  uint64_t id = 0;
  int32_t transport_id = -1;
  Transport* transport = nullptr;
  void* conn = nullptr;
  int fd = -1;
  uv_poll_t poll;
  int poll_events = 0;
  std::string peer, local;
  uint32_t conn_flags = 0;
  void* session = nullptr;

  char* qbuf = nullptr;
  size_t qlen = 0, qcap = 0, qpos = 0;
  size_t need = 0;  // total bytes the request being parsed needs, 0 if unknown

  std::deque<OutSeg> out;
  size_t out_bytes = 0;
  int64_t soft_limit_since = 0;
  bool in_pending_writes = false;

  int32_t db = 0;
  int32_t proto = 2;
  bool authenticated = false;
  bool close_after_reply = false;
  bool closed = false;  // being torn down; no more IO
  std::string name, lib_name, lib_ver;
  const Command* last_command = nullptr;  // for CLIENT LIST's cmd=
  std::string last_subcommand;            // set for container commands (CLIENT LIST)
  int64_t ctime_ms = 0;
  int64_t last_interaction_ms = 0;
  uint64_t commands = 0;
};

// Creates a client for an accepted connection and starts reading. Returns nullptr (the
// connection closed) when its protocol state cannot be allocated. Main thread.
Client* ClientCreate(int32_t transport_id, void* conn, int fd, const char* peer, const char* local,
                     uint32_t flags);
// Tears the client down now (stops polling, closes the connection, frees output). Safe to call
// while one of its commands runs: then it happens after the command. Main thread.
void ClientClose(Client* c);
// Makes sure c's output gets written before the loop next polls.
void ClientQueueWrite(Client* c);
// Writes as much pending output as the connection takes. Returns false when c was closed.
bool ClientWrite(Client* c);
// Appends one reply item in c's protocol. Main thread.
void ClientEncode(Client* c, const plinth_reply_item_t& item);
// Counts one error reply ("CODE message") in INFO's stats and errorstats.
void CountErrorReply(std::string_view msg);
// Appends an error reply ("CODE message") to c and counts it. Main thread.
void ClientReplyError(Client* c, std::string_view msg);
// Appends a bulk that references memory; release(arg) runs once it is written or dropped.
void ClientAppendRef(Client* c, const char* data, size_t len, plinth_release_fn release, void* arg);
// Formats the CLIENT LIST line of c (no trailing newline).
std::string ClientDescribe(const Client* c);
// Whether a client may run commands without AUTH.
bool ClientAuthenticated(const Client* c);
// Enforces the output buffer limits after new output. Returns false when c was closed.
bool ClientCheckOutputLimits(Client* c);

}  // namespace plinth::host
