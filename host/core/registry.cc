// Registry bookkeeping and spec validation.
#include "host/core/registry.h"

#include <algorithm>
#include <cstring>
#include <plinth/text.hpp>

namespace plinth::host {
namespace {

std::string Str(const char* s) { return s ? s : ""; }

bool ValidCommandName(const char* n) {
  if (!n || !*n || std::strlen(n) > 64) return false;
  for (const char* p = n; *p; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c <= ' ' || c >= 127) return false;
  }
  return true;
}

template <typename T>
void EraseOwned(std::vector<T>& v, const std::string& owner) {
  v.erase(std::remove_if(v.begin(), v.end(), [&](const T& e) { return e.owner == owner; }),
          v.end());
}

}  // namespace

bool CopySizedStruct(void* dst, size_t dst_size, const void* src, size_t min_size) {
  if (!src) return false;
  uint32_t size;
  std::memcpy(&size, src, sizeof size);
  if (size < min_size) return false;
  if (size > dst_size) {
    const auto* tail = static_cast<const unsigned char*>(src);
    for (size_t i = dst_size; i < size; ++i)
      if (tail[i]) return false;
  }
  std::memset(dst, 0, dst_size);
  std::memcpy(dst, src, std::min<size_t>(size, dst_size));
  std::memcpy(dst, &dst_size, sizeof(uint32_t));
  return true;
}

std::string Registry::AddCommand(const plinth_command_spec_t* spec, const std::string& owner) {
  auto c = std::make_unique<Command>();
  if (!CopySizedStruct(&c->spec, sizeof c->spec, spec, offsetof(plinth_command_spec_t, ctx)))
    return "command spec has a bad struct_size";
  if (!ValidCommandName(c->spec.name)) return "invalid command name";
  if (!c->spec.handler) return "command '" + Str(c->spec.name) + "' has no handler";
  if (c->spec.arity == 0) return "command '" + Str(c->spec.name) + "' has arity 0";
  c->name = text::ToLower(c->spec.name);
  if (by_name_.count(c->name)) return "command '" + c->name + "' already exists";
  c->summary = Str(c->spec.summary);
  c->since = Str(c->spec.since);
  c->group = Str(c->spec.group);
  c->args = Str(c->spec.args);
  // Absent texts stay NULL, as the plugin gave them.
  c->spec.name = c->name.c_str();
  if (c->spec.summary) c->spec.summary = c->summary.c_str();
  if (c->spec.since) c->spec.since = c->since.c_str();
  if (c->spec.group) c->spec.group = c->group.c_str();
  if (c->spec.args) c->spec.args = c->args.c_str();
  c->owner = owner;
  by_name_.emplace(c->name, c.get());
  commands.push_back(std::move(c));
  return "";
}

std::string Registry::SetProtocol(const plinth_protocol_spec_t* spec, const std::string& owner) {
  if (protocol) return "a protocol is already registered by '" + protocol->owner + "'";
  auto p = std::make_unique<Protocol>();
  if (!CopySizedStruct(&p->spec, sizeof p->spec, spec, sizeof p->spec))
    return "protocol spec has a bad struct_size";
  if (!p->spec.session_create || !p->spec.session_destroy || !p->spec.parse || !p->spec.encode ||
      !p->spec.frame_bulk)
    return "protocol spec lacks a function";
  p->name = Str(p->spec.name);
  p->spec.name = p->name.c_str();
  p->owner = owner;
  protocol = std::move(p);
  return "";
}

int32_t Registry::AddTransport(const plinth_transport_spec_t* spec, const std::string& owner,
                               std::string* err) {
  auto t = std::make_unique<Transport>();
  if (!CopySizedStruct(&t->spec, sizeof t->spec, spec, sizeof t->spec)) {
    *err = "transport spec has a bad struct_size";
    return -1;
  }
  if (!t->spec.start || !t->spec.accept || !t->spec.read || !t->spec.writev || !t->spec.close) {
    *err = "transport spec lacks a function";
    return -1;
  }
  t->name = Str(t->spec.name);
  t->spec.name = t->name.c_str();
  t->owner = owner;
  transports.push_back(std::move(t));
  return static_cast<int32_t>(transports.size() - 1);
}

std::string Registry::SetReplyPath(const plinth_reply_path_spec_t* spec, const std::string& owner) {
  if (reply_path) return "a reply path is already registered by '" + reply_path->owner + "'";
  auto r = std::make_unique<ReplyPath>();
  if (!CopySizedStruct(&r->spec, sizeof r->spec, spec, sizeof r->spec) || !r->spec.by_reference)
    return "bad reply path spec";
  r->name = Str(r->spec.name);
  r->spec.name = r->name.c_str();
  r->owner = owner;
  reply_path = std::move(r);
  return "";
}

std::string Registry::AddConsumer(const plinth_stream_consumer_spec_t* spec,
                                  const std::string& owner) {
  StreamConsumer c;
  if (!CopySizedStruct(&c.spec, sizeof c.spec, spec, sizeof c.spec) || !c.spec.on_batch)
    return "bad stream consumer spec";
  c.name = Str(c.spec.name);
  c.spec.name = nullptr;
  c.owner = owner;
  consumers.push_back(std::move(c));
  return "";
}

std::string Registry::AddInfoSection(const char* name, plinth_info_fn fn, void* ctx,
                                     const std::string& owner) {
  if (!name || !*name || !fn) return "bad info section";
  std::string n = text::ToLower(name);
  for (const InfoSection& s : info_sections)
    if (s.name == n && s.owner == owner) return "info section '" + n + "' already exists";
  info_sections.push_back({n, owner, fn, ctx});
  return "";
}

void Registry::RemoveOwner(const std::string& owner) {
  for (auto it = commands.begin(); it != commands.end();) {
    if ((*it)->owner == owner) {
      by_name_.erase((*it)->name);
      it = commands.erase(it);
    } else {
      ++it;
    }
  }
  if (protocol && protocol->owner == owner) protocol.reset();
  if (reply_path && reply_path->owner == owner) reply_path.reset();
  // Transport ids are indexes: keep the slot, drop its functions.
  for (auto& t : transports)
    if (t && t->owner == owner) t.reset();
  EraseOwned(consumers, owner);
  EraseOwned(before_sleep, owner);
  EraseOwned(info_sections, owner);
  EraseOwned(keyspace_listeners, owner);
  EraseOwned(client_listeners, owner);
}

Command* Registry::FindCommand(std::string_view name) const {
  char buf[64];
  if (name.empty() || name.size() > sizeof buf) return nullptr;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    buf[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  auto it = by_name_.find(std::string_view(buf, name.size()));
  return it == by_name_.end() ? nullptr : it->second;
}

}  // namespace plinth::host
