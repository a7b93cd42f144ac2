// The endpoints' and listeners' bookkeeping and spec validation.
#include "host/core/hooks.h"

#include <algorithm>
#include <plinth/text.hpp>

#include "host/core/abi_compat.h"

namespace plinth::host {

std::string Endpoints::SetProtocol(const plinth_protocol_spec_t* spec, const std::string& owner,
                                   uint32_t abi_minor) {
  if (protocol) return "a protocol is already registered by '" + protocol->owner + "'";
  auto p = std::make_unique<Protocol>();
  if (!CopySpec(&p->spec, spec)) return "protocol spec has a bad struct_size";
  if (!p->spec.session_create || !p->spec.session_destroy || !p->spec.parse || !p->spec.encode ||
      !p->spec.frame_bulk)
    return "protocol spec lacks a function";
  p->name = SpecString(p->spec.name);
  p->spec.name = p->name.c_str();
  p->owner = owner;
  p->abi_minor = abi_minor;
  p->map_reply_types = ReplyTypesNewerThan(abi_minor);
  protocol = std::move(p);
  return "";
}

int32_t Endpoints::AddTransport(const plinth_transport_spec_t* spec, const std::string& owner,
                                std::string* err) {
  auto t = std::make_unique<Transport>();
  if (!CopySpec(&t->spec, spec)) {
    *err = "transport spec has a bad struct_size";
    return -1;
  }
  if (!t->spec.start || !t->spec.accept || !t->spec.read || !t->spec.writev || !t->spec.close) {
    *err = "transport spec lacks a function";
    return -1;
  }
  t->name = SpecString(t->spec.name);
  t->spec.name = t->name.c_str();
  t->owner = owner;
  transports.push_back(std::move(t));
  return static_cast<int32_t>(transports.size() - 1);
}

std::string Endpoints::SetReplyPath(const plinth_reply_path_spec_t* spec,
                                    const std::string& owner) {
  if (reply_path) return "a reply path is already registered by '" + reply_path->owner + "'";
  auto r = std::make_unique<ReplyPath>();
  if (!CopySpec(&r->spec, spec) || !r->spec.by_reference) return "bad reply path spec";
  r->name = SpecString(r->spec.name);
  r->spec.name = r->name.c_str();
  r->owner = owner;
  reply_path = std::move(r);
  return "";
}

std::string Listeners::AddConsumer(const plinth_stream_consumer_spec_t* spec,
                                   const std::string& owner) {
  StreamConsumer c;
  if (!CopySpec(&c.spec, spec) || !c.spec.on_batch) return "bad stream consumer spec";
  c.name = SpecString(c.spec.name);
  c.spec.name = nullptr;
  c.owner = owner;
  consumers.push_back(std::move(c));
  return "";
}

std::string Listeners::AddInfoSection(const char* name, plinth_info_fn fn, void* ctx,
                                      const std::string& owner) {
  if (!name || !*name || !fn) return "bad info section";
  std::string n = text::ToLower(name);
  for (const InfoSection& s : info_sections)
    if (s.name == n && s.owner == owner) return "info section '" + n + "' already exists";
  info_sections.push_back({n, owner, fn, ctx});
  return "";
}

void Endpoints::RemoveOwner(const std::string& owner) {
  if (protocol && protocol->owner == owner) protocol.reset();
  if (reply_path && reply_path->owner == owner) reply_path.reset();
  // Transport ids are indexes: keep the slot, drop its functions.
  for (auto& t : transports)
    if (t && t->owner == owner) t.reset();
}

void Listeners::RemoveOwner(const std::string& owner) {
  EraseOwned(consumers, owner);
  EraseOwned(before_sleep, owner);
  EraseOwned(info_sections, owner);
}

}  // namespace plinth::host
