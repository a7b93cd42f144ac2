// The transports' listening sockets (listener_add): each polled by the loop, its connections
// accepted (or refused: maxclients, protected mode) into clients. Main thread only.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plinth::host {

class Shell;

struct Listener {
  Shell* shell;
  int32_t transport_id;
  int32_t fd;
  std::string description;
  uv_poll_t poll;
};

class ListenerSet {
 public:
  explicit ListenerSet(Shell& shell) : shell_(shell) {}
  ListenerSet(const ListenerSet&) = delete;
  ListenerSet& operator=(const ListenerSet&) = delete;

  // Polls fd, a listening socket of transport transport_id, and accepts what comes. Returns
  // PLINTH_ERR when fd cannot be polled.
  int32_t Add(int32_t transport_id, int32_t fd, const char* description);
  // Stops polling every listener and frees them once the loop has closed their handles
  // (shutdown). The transports close the sockets.
  void CloseAll();
  // The port of the first TCP listener (INFO tcp_port), 0 when none.
  int64_t TcpPort() const;
  // The listeners, in the order they were added.
  const std::vector<Listener*>& all() const { return listeners_; }

 private:
  Shell& shell_;
  std::vector<Listener*> listeners_;
};

// Accepts the connections waiting on l (at most 64, so other work gets its turn).
void AcceptConnections(Listener* l);

}  // namespace plinth::host
