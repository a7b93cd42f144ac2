// Subscription bookkeeping for the pub/sub plugin. Main thread only.
#include "pubsub/registry.h"

#include <algorithm>

namespace plinth::pubsub {

bool Registry::Subscribe(Kind kind, uint64_t client, std::string_view name) {
  const size_t k = Index(kind);
  NameMap& map = names_[k];
  auto it = map.find(name);
  if (it == map.end()) it = map.emplace(std::string(name), Ids{}).first;
  if (!clients_[client].names[k].insert(&it->first).second) return false;
  it->second.push_back(client);
  return true;
}

bool Registry::Unsubscribe(Kind kind, uint64_t client, std::string_view name) {
  const size_t k = Index(kind);
  auto it = names_[k].find(name);
  if (it == names_[k].end()) return false;
  auto c = clients_.find(client);
  if (c == clients_.end() || c->second.names[k].erase(&it->first) == 0) return false;
  if (c->second.Empty()) clients_.erase(c);
  RemoveSubscriber(k, it, client);
  return true;
}

void Registry::RemoveSubscriber(size_t kind, NameMap::iterator it, uint64_t client) {
  Ids& ids = it->second;
  auto pos = std::find(ids.begin(), ids.end(), client);
  if (pos != ids.end()) ids.erase(pos);
  if (ids.empty()) names_[kind].erase(it);
}

std::vector<std::string> Registry::Names(Kind kind, uint64_t client) const {
  std::vector<std::string> out;
  auto c = clients_.find(client);
  if (c == clients_.end()) return out;
  out.reserve(c->second.names[Index(kind)].size());
  for (const std::string* name : c->second.names[Index(kind)]) out.push_back(*name);
  return out;
}

size_t Registry::Count(Kind kind, uint64_t client) const {
  auto c = clients_.find(client);
  return c == clients_.end() ? 0 : c->second.names[Index(kind)].size();
}

void Registry::DropClient(uint64_t client) {
  auto c = clients_.find(client);
  if (c == clients_.end()) return;
  ClientSubs subs = std::move(c->second);
  clients_.erase(c);
  for (size_t k = 0; k < kKinds; ++k)
    for (const std::string* name : subs.names[k]) {
      auto it = names_[k].find(*name);
      if (it != names_[k].end()) RemoveSubscriber(k, it, client);
    }
}

const Registry::Ids* Registry::Subscribers(Kind kind, std::string_view name) const {
  const NameMap& map = names_[Index(kind)];
  if (map.empty()) return nullptr;
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}

void Registry::ForEach(Kind kind,
                       const std::function<void(const std::string&, const Ids&)>& fn) const {
  for (const auto& [name, ids] : names_[Index(kind)]) fn(name, ids);
}

}  // namespace plinth::pubsub
