// The rdma_cm listeners of the RDMA transport: one event channel and one listening id
// (RDMA_PS_TCP, AFONLY) per bind address. The channel's fd is what the host polls as the
// listener; every event of the connections accepted from it arrives on the same channel.
// THREAD: main.
#pragma once

#include <rdma/rdma_cma.h>

#include <memory>
#include <string>

namespace plinth::rdma {

class CmListener {
 public:
  // Binds host:port and listens. nullptr with a reason in *error (for example "no RDMA device:
  // ..." when the channel cannot be created).
  static std::unique_ptr<CmListener> Open(const std::string& host, int port, int backlog,
                                          std::string* error);
  // Destroys the listening id and the channel. Every connection accepted from it must be
  // gone: their events arrive on its channel.
  ~CmListener();
  // Stops listening (new connection requests are refused by rdma_cm); the channel stays for
  // the connections already accepted.
  void StopListening();
  CmListener(const CmListener&) = delete;
  CmListener& operator=(const CmListener&) = delete;

  int fd() const { return channel_->fd; }
  rdma_event_channel* channel() const { return channel_; }
  // "127.0.0.1:6380", "[::1]:6380".
  const std::string& description() const { return description_; }
  const std::string& host() const { return host_; }

 private:
  CmListener() = default;
  rdma_event_channel* channel_ = nullptr;
  rdma_cm_id* id_ = nullptr;
  std::string host_, description_;
};

// Why the machine cannot do RDMA, or "" when it has a device: the text after "no RDMA
// device: " in the log line.
std::string MissingDeviceReason();

}  // namespace plinth::rdma
