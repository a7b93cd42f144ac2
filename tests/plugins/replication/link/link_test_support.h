// Test helpers for the replication link: a fake host whose loop_post queues tasks for the test
// thread (the "main thread"), a recorder of LinkEvents, a real redis-server child process, and a
// scripted fake primary on 127.0.0.1 with a thread of its own.
#pragma once

#include <plinth/plugin.h>

#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "replication/link/link.h"

namespace plinth::replication::test {

// The host's event loop for a Link: loop_post of the table it installs as sdk::Host::api (only
// loop_post set, shared by every FakeLoop) queues tasks on the loop named by "self". THREAD:
// loop_post any; the rest the test thread.
class FakeLoop {
 public:
  FakeLoop();
  plinth_plugin_t* self() { return reinterpret_cast<plinth_plugin_t*>(this); }
  // Makes loop_post refuse (PLINTH_ERR), as a host shutting down does.
  void set_refuse(bool refuse);
  size_t Queued();
  // Runs the queued tasks on the calling thread; returns how many ran.
  size_t RunPending();
  // Runs tasks until done() holds or timeout_ms passes; returns done().
  bool RunUntil(const std::function<bool()>& done, int timeout_ms = 5000);

 private:
  static int32_t Post(plinth_plugin_t* self, plinth_task_fn fn, void* arg);
  std::mutex mu_;
  bool refuse_ = false;
  std::vector<std::pair<plinth_task_fn, void*>> tasks_;
};

// Records every event; "log" names them in order.
struct Recorder {
  LinkEvents Events();
  std::vector<std::string> log;
  std::vector<std::string> downs;
  std::vector<StreamCommand> commands;
  size_t batches = 0;
  std::string replid;
  uint64_t offset = 0;
  std::vector<std::pair<uint64_t, int64_t>> progress;
};

// Contents of a file ("" when missing), and whether it exists.
std::string ReadFile(const std::string& path);
bool FileExists(const std::string& path);
std::string MakeTempDir();
// A loopback port nothing listens on (it was free a moment ago).
int FreePort();
// The RESP encoding size of argv.
uint64_t EncodedSize(const std::vector<std::string>& argv);

// A redis-server child on a free loopback port, killed by the destructor.
class RedisServer {
 public:
  static constexpr const char* kBinary = "/usr/bin/redis-server";
  static bool Available();
  explicit RedisServer(const std::vector<std::string>& extra_args);
  ~RedisServer();
  bool ok() const { return pid_ > 0; }
  int port() const { return port_; }
  const std::string& dir() const { return dir_; }
  // Sends argv on a fresh connection and returns the reply's line or bulk payload.
  std::string Call(const std::vector<std::string>& argv);
  // A field of INFO replication ("master_repl_offset"), "" when absent.
  std::string Info(const std::string& field);

 private:
  int pid_ = -1;
  int port_ = 0;
  std::string dir_;
};

// A fake primary: accepts one connection, answers PING (+PONG, or -NOAUTH when a password is
// expected), AUTH and REPLCONF with +OK, records each command, then hands the socket to
// on_psync with PSYNC's argv. When answer is false it answers nothing at all (silent primary).
class FakePrimary {
 public:
  using Script = std::function<void(FakePrimary& p, const std::vector<std::string>& psync)>;
  FakePrimary(Script on_psync, bool answer = true, bool want_auth = false);
  ~FakePrimary();  // waits for the thread: destroy the Link first
  int port() const { return port_; }
  void Send(const std::string& bytes);
  // Reads the next command the replica sends (empty on EOF or after 5 s).
  std::vector<std::string> ReadCommand();
  void Close();  // closes the connection now
  // The handshake commands received, in order. THREAD: any.
  std::vector<std::vector<std::string>> Received();

 private:
  void Serve(Script on_psync, bool answer, bool want_auth);
  int listen_fd_ = -1;
  int fd_ = -1;
  int port_ = 0;
  std::string in_;
  std::mutex mu_;
  std::vector<std::vector<std::string>> received_;
  std::thread thread_;
};

}  // namespace plinth::replication::test
