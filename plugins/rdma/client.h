// A blocking RDMA client of the same wire protocol, on the connection adapter the server uses:
// connects with rdma_cm, then sends and receives byte streams. For tests (including ones
// that misbehave on purpose) and the bench tools; not part of the plugin. One thread.
#pragma once

#include <rdma/rdma_cma.h>

#include <memory>
#include <string>
#include <string_view>

#include "rdma/verbs_conn.h"

namespace plinth::rdma {

struct ClientOptions {
  uint32_t rx_size = 1 << 20;
  // The server's RNR retry count (rdma_cm gives each side the one its peer asks for); 7:
  // retry for ever, as real clients ask.
  uint8_t rnr_retry = 7;
  Fault fault = Fault::kNone;   // a deliberate protocol mistake
  bool repost_receives = true;  // false: the server's writes overrun the receive queue
  int timeout_ms = 5000;        // for connecting
};

class RdmaClient {
 public:
  RdmaClient() = default;
  // Disconnects and frees everything.
  ~RdmaClient();
  RdmaClient(const RdmaClient&) = delete;
  RdmaClient& operator=(const RdmaClient&) = delete;

  // Connects to host:port (numeric) and waits until established. false with *error.
  bool Connect(const std::string& host, int port, const ClientOptions& options, std::string* error);
  // Sends every byte, waiting for room in the server's buffer up to timeout_ms without
  // progress. false: the connection broke, closed or stalled.
  bool SendAll(std::string_view data, int timeout_ms = 5000);
  // Appends what arrives to *out, waiting up to timeout_ms for the first bytes. Returns the
  // bytes appended (0: nothing in time), or -1 once the connection is closed or broken.
  int64_t Recv(std::string* out, int timeout_ms = 5000);
  // Sends raw bytes as one control message (malformed-message tests).
  bool SendRaw(std::string_view bytes);

  // Non-blocking use (load generators that multiplex many connections): the completion
  // channel's fd, readable when completions arrived; TryWrite returns bytes taken (0: no room
  // now, retry soon) and TryRead bytes read (0: none now), both -1 once the connection broke or
  // closed. After a TryWrite, call TryRead too: a write may consume receive completions that
  // the fd will not signal again.
  int channel_fd() const { return conn_ != nullptr ? conn_->channel_fd() : -1; }
  int64_t TryWrite(const char* data, size_t len);
  int64_t TryRead(char* buf, size_t len);
  // Why the connection failed ("" while it works).
  std::string error() const;
  bool disconnected() const { return disconnected_; }

 private:
  // Waits up to timeout_ms for a completion event or an rdma_cm event and handles them.
  // false: nothing happened in time.
  bool Wait(int timeout_ms);
  bool WaitCmEvent(rdma_cm_event_type want, int timeout_ms, std::string* error);

  rdma_event_channel* cm_ = nullptr;
  rdma_cm_id* id_ = nullptr;  // until conn_ owns it
  std::unique_ptr<VerbsConn> conn_;
  Counters counters_;
  bool disconnected_ = false;
};

}  // namespace plinth::rdma
