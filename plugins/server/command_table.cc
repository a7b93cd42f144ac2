// COMMAND INFO entries from the host's command table: flags, categories and subcommands come
// from command_info, key positions from a command's spec or, for a subcommand, from the keys
// the host finds in a placeholder call (command_keys). Main thread.
#include "server/command_table.h"

#include <plinth/text.hpp>

#include "server/command_meta.h"

namespace plinth::server {

using sdk::Api;
using sdk::Call;
using sdk::Host;

CommandTable::CommandTable(const Call& c) : call_(c) {
  const int32_t n = Api().command_ids(Host::self);
  infos_.resize(n > 0 ? n : 0);
  subs_.resize(infos_.size());
  for (int32_t id = 0; id < n; ++id) {
    plinth_command_info_t& info = infos_[id];
    info.struct_size = sizeof info;
    if (Api().command_info(Host::self, id, &info) != PLINTH_OK) {
      info = plinth_command_info_t{};
      info.id = -1;
      info.name = "";
      info.parent = -2;
      continue;
    }
    if (info.parent >= 0 && info.parent < n) subs_[info.parent].push_back(id);
  }
  const int32_t count = Api().command_count(c.raw());
  for (int32_t i = 0; i < count; ++i)
    if (const plinth_command_spec_t* s = Api().command_at(c.raw(), i)) {
      const int32_t id = Find(s->name ? s->name : "");
      if (id >= 0) top_.push_back(id);
    }
}

int32_t CommandTable::Find(std::string_view name) const {
  return Api().command_find(Host::self, name.data(), name.size());
}

const plinth_command_spec_t* CommandTable::Spec(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= infos_.size() || infos_[id].parent != -1) return nullptr;
  const std::string_view name = infos_[id].name;
  return Api().command_lookup(call_.raw(), name.data(), name.size());
}

KeyRange CommandTable::Keys(int32_t id) const {
  KeyRange r;
  if (const plinth_command_spec_t* s = Spec(id)) {
    if (s->first_key <= 0) return r;
    r.first = s->first_key;
    r.last = s->last_key;
    r.step = s->key_step > 0 ? s->key_step : 1;
    r.flags = s->key_flags
                  ? s->key_flags
                  : PLINTH_KEY_READ | ((s->flags & PLINTH_CMD_WRITE) ? PLINTH_KEY_WRITE : 0);
    return r;
  }
  // A subcommand: the keys of "container sub x x ..." as long as its arity asks.
  const std::string_view name = infos_[id].name;
  const size_t bar = name.find('|');
  if (bar == std::string_view::npos) return r;
  std::vector<std::string_view> argv = {name.substr(0, bar), name.substr(bar + 1)};
  const int32_t arity = infos_[id].arity < 0 ? -infos_[id].arity : infos_[id].arity;
  while (static_cast<int32_t>(argv.size()) < arity) argv.push_back("x");
  std::vector<plinth_key_ref_t> keys;
  if (!CallKeys(argv, &keys) || keys.empty()) return r;
  r.first = keys.front().index;
  r.last = keys.back().index;
  r.step = keys.size() > 1 ? keys[1].index - keys[0].index : 1;
  r.flags = keys.front().flags;
  return r;
}

bool CommandTable::HasKeys(int32_t id) const {
  const plinth_command_spec_t* s = Spec(id);
  // A keys function of a pub/sub command finds channels (PUBLISH), never keys.
  if (s && s->keys) return !(s->flags & PLINTH_CMD_PUBSUB);
  return Keys(id).first > 0;
}

bool CallKeys(const std::vector<std::string_view>& argv, std::vector<plinth_key_ref_t>* keys) {
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (std::string_view a : argv) {
    ptrs.push_back(a.data());
    lens.push_back(a.size());
  }
  std::vector<plinth_key_ref_t> refs(argv.size());
  int32_t id = -1;
  const int32_t n = Api().command_keys(Host::self, static_cast<int32_t>(argv.size()), ptrs.data(),
                                       lens.data(), refs.data(), &id);
  keys->clear();
  if (n < 0) return false;
  for (int32_t i = 0; i < n; ++i)
    if (!(refs[i].flags & (PLINTH_KEY_CHANNEL | PLINTH_KEY_PATTERN))) keys->push_back(refs[i]);
  return true;
}

namespace {

// One Redis 7 key spec for the keys at r's positions.
void ReplyKeySpec(const Call& c, const KeyRange& r) {
  c.Map(3);
  c.Bulk("flags");
  std::vector<std::string_view> flags = KeySpecFlags(r.flags);
  c.Set(static_cast<int64_t>(flags.size()));
  for (std::string_view f : flags) c.Simple(f);
  c.Bulk("begin_search");
  c.Map(2);
  c.Bulk("type");
  c.Bulk("index");
  c.Bulk("spec");
  c.Map(1);
  c.Bulk("index");
  c.Integer(r.first);
  c.Bulk("find_keys");
  c.Map(2);
  c.Bulk("type");
  c.Bulk("range");
  c.Bulk("spec");
  c.Map(3);
  c.Bulk("lastkey");
  c.Integer(r.last < 0 ? r.last : r.last - r.first);
  c.Bulk("keystep");
  c.Integer(r.step);
  c.Bulk("limit");
  c.Integer(0);
}

}  // namespace

void ReplyCommandInfo(const Call& c, const CommandTable& t, int32_t id) {
  if (id < 0) return c.Null();
  const plinth_command_info_t& info = t.Info(id);
  const KeyRange keys = t.Keys(id);
  c.Array(10);
  c.Bulk(info.name);
  c.Integer(info.arity);
  std::vector<std::string_view> flags = FlagNames(info.flags);
  c.Set(static_cast<int64_t>(flags.size()));
  for (std::string_view f : flags) c.Simple(f);
  c.Integer(keys.first);
  c.Integer(keys.last);
  c.Integer(keys.step);
  std::vector<std::string> cats = AclCategories(info.acl_categories);
  c.Set(static_cast<int64_t>(cats.size()));
  for (const std::string& cat : cats) c.Simple(cat);
  c.Set(0);  // tips
  c.Set(keys.first > 0 ? 1 : 0);
  if (keys.first > 0) ReplyKeySpec(c, keys);
  const std::vector<int32_t>& subs = t.Subcommands(id);
  c.Array(static_cast<int64_t>(subs.size()));
  for (int32_t sub : subs) ReplyCommandInfo(c, t, sub);
}

}  // namespace plinth::server
