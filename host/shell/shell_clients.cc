// The core's view of the shell's clients: CLIENT LIST lines, CLIENT KILL, their sessions,
// unblocked clients queued for the next pass, client_push.
#include "host/shell/shell_clients.h"

#include <algorithm>

#include "host/shell/client.h"

namespace plinth::host {

void ShellClients::DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) {
  if (id) {
    auto it = table_.by_id.find(id);
    if (it != table_.by_id.end()) {
      std::string line = ClientDescribe(it->second);
      emit(arg, line.data(), line.size());
    }
    return;
  }
  std::vector<Client*> all;
  for (auto& [cid, cl] : table_.by_id) all.push_back(cl);
  std::sort(all.begin(), all.end(),
            [](Client* a, Client* b) { return a->session.id < b->session.id; });
  for (Client* cl : all) {
    std::string line = ClientDescribe(cl);
    emit(arg, line.data(), line.size());
  }
}

std::string ShellClients::ClientAddr(uint64_t id) {
  auto it = table_.by_id.find(id);
  return it == table_.by_id.end() ? std::string() : it->second->conn.peer;
}

int64_t ShellClients::KillClients(Session* caller, uint32_t filter, std::string_view want) {
  std::vector<Client*> victims;
  for (auto& [id, cl] : table_.by_id) {
    bool match = false;
    if (filter == PLINTH_KILL_ID) match = std::to_string(id) == want;
    if (filter == PLINTH_KILL_ADDR) match = cl->conn.peer == want;
    if (filter == PLINTH_KILL_LADDR) match = cl->conn.local == want;
    if (match) victims.push_back(cl);
  }
  // The caller (or a script's caller: its call sessions share the id) gets its reply first, as
  // in Redis; the others close once the command has returned (ClientClose).
  for (Client* cl : victims) {
    if (caller && cl->session.id == caller->id)
      cl->session.close_after_reply = true;
    else
      ClientClose(cl);
  }
  return static_cast<int64_t>(victims.size());
}

void ShellClients::ForEachSession(const std::function<void(Session&)>& fn) {
  for (auto& [id, cl] : table_.by_id)
    if (!cl->state.closed) fn(cl->session);
}

Session* ShellClients::FindSession(uint64_t id) {
  auto it = table_.by_id.find(id);
  return it == table_.by_id.end() || it->second->state.closed ? nullptr : &it->second->session;
}

void ShellClients::ClientUnblocked(Session& s) {
  auto it = table_.by_id.find(s.id);
  if (it == table_.by_id.end() || it->second->state.in_unblocked) return;
  it->second->state.in_unblocked = true;
  table_.unblocked.push_back(it->second);
}

int32_t ShellClients::PushToClient(uint64_t id, const plinth_reply_item_t* items, size_t n) {
  auto it = table_.by_id.find(id);
  if (it == table_.by_id.end() || it->second->state.closed || it->second->state.close_asap)
    return PLINTH_ERR;
  Client* c = it->second;
  for (size_t i = 0; i < n; ++i) c->sink.Item(items[i]);
  if (ClientCheckOutputLimits(c)) ClientQueueWrite(c);
  return PLINTH_OK;
}

}  // namespace plinth::host
