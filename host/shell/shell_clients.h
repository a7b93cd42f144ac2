// The shell's connected clients: the table of them, with the queues of those waiting for the
// next pass between polls, and the ClientDirectory port the core sees them through (sessions,
// CLIENT LIST and KILL, pushes). Main thread only.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/core/env.h"

namespace plinth::host {

class Shell;
struct Client;

// The connected clients by id and the clients queued for the shell's pass (WritePass). A
// queued entry is nullptr once its client closed.
struct ClientTable {
  std::unordered_map<uint64_t, Client*> by_id;
  uint64_t next_id = 1;
  std::vector<Client*> pending_writes;  // output to write before the next poll
  // Clients whose write turn ended with the connection still taking bytes: they write again
  // after the next poll, without polling for writability.
  std::vector<Client*> yielded_writes;
  // Blocked clients that got their reply: resumed in the next Flush.
  std::vector<Client*> unblocked;
  // Clients to close once no command runs (ClientCloseAsync).
  std::vector<Client*> to_close;
  // What the clients' buffers hold, all and replicas', as the cron last counted (maxmemory
  // does not count replicas' output, as in Redis).
  int64_t buffers = 0;
  int64_t replica_buffers = 0;
};

class ShellClients final : public ClientDirectory {
 public:
  explicit ShellClients(ClientTable& table) : table_(table) {}

  void DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) override;
  std::string ClientAddr(uint64_t id) override;
  int64_t KillClients(Session* caller, uint32_t filter, std::string_view value) override;
  void ForEachSession(const std::function<void(Session&)>& fn) override;
  Session* FindSession(uint64_t id) override;
  void ClientUnblocked(Session& s) override;
  int32_t PushToClient(uint64_t id, const plinth_reply_item_t* items, size_t n) override;

 private:
  ClientTable& table_;
};

}  // namespace plinth::host
