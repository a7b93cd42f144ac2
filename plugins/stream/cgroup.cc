// Consumer groups (see cgroup.h).
#include "stream/cgroup.h"

namespace plinth::stream {

Group::Group(const Group& o) : last_id(o.last_id), entries_read(o.entries_read) {
  for (const auto& [name, c] : o.consumers) {
    auto copy = std::make_unique<Consumer>();
    copy->name = c->name;
    copy->seen_time = c->seen_time;
    copy->active_time = c->active_time;
    consumers.emplace(name, std::move(copy));
  }
  for (const auto& [id, n] : o.pel) {
    auto copy = std::make_unique<Nack>(*n);
    if (n->consumer) {
      Consumer* c = consumers.find(n->consumer->name)->second.get();
      copy->consumer = c;
      c->pel.emplace(id, copy.get());
    }
    pel.emplace(id, std::move(copy));
  }
}

Consumer* Group::Find(std::string_view name) const {
  auto it = consumers.find(name);
  return it == consumers.end() ? nullptr : it->second.get();
}

Consumer* Group::Create(std::string_view name, int64_t now_ms) {
  if (Find(name)) return nullptr;
  auto c = std::make_unique<Consumer>();
  c->name = std::string(name);
  c->seen_time = now_ms;
  Consumer* raw = c.get();
  consumers.emplace(std::string(name), std::move(c));
  return raw;
}

size_t Group::Delete(Consumer* c) {
  const size_t n = c->pel.size();
  for (const auto& [id, nack] : c->pel) pel.erase(id);
  consumers.erase(c->name);
  return n;
}

void Group::Assign(const StreamId& id, Nack* n, Consumer* c) {
  if (n->consumer == c) return;
  if (n->consumer) n->consumer->pel.erase(id);
  n->consumer = c;
  c->pel[id] = n;
}

Nack* Group::Deliver(const StreamId& id, Consumer* c, int64_t now_ms) {
  auto it = pel.find(id);
  if (it == pel.end()) it = pel.emplace(id, std::make_unique<Nack>()).first;
  Nack* n = it->second.get();
  Assign(id, n, c);
  n->delivery_time = now_ms;
  n->delivery_count = 1;
  return n;
}

bool Group::Ack(const StreamId& id) {
  auto it = pel.find(id);
  if (it == pel.end()) return false;
  if (it->second->consumer) it->second->consumer->pel.erase(id);
  pel.erase(it);
  return true;
}

}  // namespace plinth::stream
