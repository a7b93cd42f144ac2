// Integration-test support: runs the real plinth-server as a child process on a free loopback
// port, and a small RESP client over a real socket that returns replies as raw protocol text.
#pragma once

#include <sys/types.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plinth::testing {

// A loopback TCP port that was free a moment ago.
int FreePort();

class TestServer {
 public:
  // Starts plinth-server with --port <free> plus extra arguments and waits until it accepts
  // connections (or fails the test if it exits or does not within 10 s). With
  // PLINTH_TEST_MAXMEMORY=BYTES (--plinth-maxmemory) it runs under that maxmemory with
  // allkeys-lru, filled to the limit with older keys in database 15 (FillToLimit).
  // nofile > 0 caps the server's open files (RLIMIT_NOFILE) to test fd exhaustion.
  explicit TestServer(std::vector<std::string> extra = {}, int nofile = 0);
  ~TestServer();
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // Sends SIGTERM and returns the exit status (or -signal). Idempotent.
  int Stop();
  // Waits up to timeout_ms for the server to exit by itself (SHUTDOWN), killing it after that.
  // Returns the exit status (or -signal).
  int WaitForExit(int timeout_ms);
  // What the server wrote to stderr so far.
  std::string Log() const;
  // INFO memory's used_memory and values_alive less what the PLINTH_TEST_MAXMEMORY ballast
  // still holds, so that a test's bounds mean the same whether or not eviction runs (without
  // the ballast: the plain figures).
  long long UsedMemory();
  long long ValuesAlive();
  // Waits up to 3 s for ValuesAlive() to be want (values are released asynchronously) and
  // returns its last reading.
  long long ValuesAliveBecomes(long long want);

 private:
  int port_ = 0;
  pid_t pid_ = -1;
  int status_ = 0;
  std::string log_path_;
  bool ballast_ = false;
  long long ballast_key_bytes_ = 0;  // used_memory per ballast key, measured by FillToLimit
  long long evicted_by_fill_ = 0;
  void FillToLimit(int64_t limit);
  // INFO memory's field name and the ballast keys left, read together.
  std::pair<long long, long long> FieldAndBallast(const std::string& name);
};

// Runs plinth-server with args to completion (for refused starts). Returns the exit status and
// fills *output with stdout+stderr.
int RunServerToExit(const std::vector<std::string>& args, std::string* output, int timeout_s = 10);

class RespConn {
 public:
  explicit RespConn(int port);
  ~RespConn();
  RespConn(const RespConn&) = delete;
  RespConn& operator=(const RespConn&) = delete;

  // Writes raw bytes.
  void Send(std::string_view bytes);
  // Reads one complete reply (any RESP2/RESP3 type, aggregates whole) as raw text. Returns ""
  // when the server closed the connection or nothing complete arrived within timeout_ms.
  std::string Read(int timeout_ms = 5000);
  // Sends args as a multibulk request and reads the reply.
  std::string Cmd(const std::vector<std::string>& args);
  std::string Cmd(std::initializer_list<std::string_view> args);
  // True when the server closes the connection within timeout_ms (pending replies discarded).
  bool WaitClosed(int timeout_ms = 3000);
  // Makes the coming close send RST instead of FIN (SO_LINGER 0), as a crashed peer would.
  void ResetOnClose();
  int fd() const { return fd_; }

 private:
  bool Fill(int timeout_ms);
  int fd_ = -1;
  std::string buf_;
  bool eof_ = false;
};

// The integer field "name" of INFO "section", or -1 when absent.
long long InfoField(RespConn& c, const std::string& section, const std::string& name);

// Encodes args as a RESP multibulk request.
std::string Multibulk(const std::vector<std::string>& args);
// Length of the first complete RESP reply in data, or 0 if incomplete.
size_t CompleteReplyLength(std::string_view data);

}  // namespace plinth::testing
