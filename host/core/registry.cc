// Registry bookkeeping and spec validation.
#include "host/core/registry.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <plinth/text.hpp>

#include "host/core/abi_compat.h"
#include "host/core/api.h"

namespace plinth::host {
namespace {

bool ValidCommandName(const char* n) {
  if (!n || !*n || std::strlen(n) > 64) return false;
  for (const char* p = n; *p; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c <= ' ' || c >= 127) return false;
  }
  return true;
}

// Command names are looked up in any case: 'A'-'Z' fold to lower case, every other byte stays.
constexpr auto kFold = [] {
  std::array<unsigned char, 256> t{};
  for (int i = 0; i < 256; ++i)
    t[i] = static_cast<unsigned char>(i >= 'A' && i <= 'Z' ? i + 32 : i);
  return t;
}();

inline unsigned char Fold(char c) { return kFold[static_cast<unsigned char>(c)]; }

// A name's key (Registry::Slot's hash, head, len), in one pass over it and with no copy: the
// first 8 bytes folded and packed into head, which settles names of up to 8 bytes exactly with
// len; hash mixes head with the folded bytes after it. "GET", "get" and "Get" key alike.
constexpr uint64_t kHashMul = 0xff51afd7ed558ccdull;
inline uint64_t HashHead(uint64_t head) {
  const uint64_t h = (head ^ 0x9e3779b97f4a7c15ull) * kHashMul;
  return h ^ (h >> 29);
}
inline uint64_t HashByte(uint64_t h, char c) { return (h ^ Fold(c)) * kHashMul; }

// Whether probe[0..len) equals name[0..len) (lower case, as registered) with probe folded. Out
// of line: only names longer than 8 bytes get here, and it keeps the lookups' registers few.
[[gnu::noinline]] bool EqualFolded(const char* name, const char* probe, size_t len) {
  for (size_t i = 0; i < len; ++i)
    if (static_cast<unsigned char>(name[i]) != Fold(probe[i])) return false;
  return true;
}

constexpr size_t kMaxCommandName = 64;  // ValidCommandName's limit

// The categories a command's flags imply (Redis's rule).
uint64_t ImpliedCategories(uint32_t flags) {
  uint64_t c = 0;
  if (flags & PLINTH_CMD_WRITE) c |= PLINTH_ACL_WRITE;
  if (flags & PLINTH_CMD_READONLY) c |= PLINTH_ACL_READ;
  if (flags & PLINTH_CMD_ADMIN) c |= PLINTH_ACL_ADMIN | PLINTH_ACL_DANGEROUS;
  if (flags & PLINTH_CMD_PUBSUB) c |= PLINTH_ACL_PUBSUB;
  c |= (flags & PLINTH_CMD_FAST) ? PLINTH_ACL_FAST : PLINTH_ACL_SLOW;
  if (flags & PLINTH_CMD_BLOCKING) c |= PLINTH_ACL_BLOCKING;
  return c;
}

// The handler of a container the host stands in for: no registered subcommand matched.
void StandInHandler(plinth_call_t* call, void*) {
  const plinth_host_api_t* api = HostApi();
  size_t nlen = 0, slen = 0;
  const char* name = api->call_arg(call, 0, &nlen);
  const char* sub = api->call_arg(call, 1, &slen);
  const std::string msg = "ERR unknown subcommand '" + std::string(sub, slen) + "'. Try " +
                          text::ToUpper(std::string_view(name, nlen)) + " HELP.";
  api->reply_error(call, msg.data(), msg.size());
}

// A container the host stands in for until a plugin registers it.
std::unique_ptr<Command> StandIn(const std::string& name) {
  auto p = std::make_unique<Command>();
  p->stand_in = true;
  p->name = name;
  p->spec.struct_size = sizeof p->spec;
  p->spec.name = p->name.c_str();
  p->spec.arity = -2;
  p->spec.handler = StandInHandler;
  p->categories = ImpliedCategories(0);
  return p;
}

}  // namespace

std::string Registry::AddCommand(const plinth_command_spec_t* spec, const std::string& owner) {
  auto c = std::make_unique<Command>();
  if (!CopySpec(&c->spec, spec)) return "command spec has a bad struct_size";
  if (!ValidCommandName(c->spec.name)) return "invalid command name";
  c->name = text::ToLower(c->spec.name);
  const size_t bar = c->name.find('|');
  const bool sub = bar != std::string::npos;
  if (sub && (bar == 0 || bar + 1 == c->name.size() || c->name.find('|', bar + 1) != c->name.npos))
    return "invalid subcommand name '" + c->name + "'";
  if (!c->spec.handler && !sub) return "command '" + c->name + "' has no handler";
  if (c->spec.arity == 0) return "command '" + c->name + "' has arity 0";
  if (c->spec.key_flags & ~uint32_t{PLINTH_KEY_READ | PLINTH_KEY_WRITE})
    return "command '" + c->name + "' has unknown key flags";
  if (c->spec.acl_categories >> PLINTH_ACL_CATEGORY_COUNT)
    return "command '" + c->name + "' has unknown ACL categories";
  c->categories = c->spec.acl_categories | ImpliedCategories(c->spec.flags);
  if (c->spec.acl_categories & PLINTH_ACL_SCRIPTING)  // Redis: a script is not @read
    c->categories &= ~uint64_t{PLINTH_ACL_READ} | c->spec.acl_categories;
  Command* stand_in = sub ? nullptr : FindCommand(c->name);
  if (stand_in && !stand_in->stand_in) return "command '" + c->name + "' already exists";
  c->text.summary = SpecString(c->spec.summary);
  c->text.since = SpecString(c->spec.since);
  c->text.group = SpecString(c->spec.group);
  c->text.args = SpecString(c->spec.args);
  // Absent texts stay NULL, as the plugin gave them.
  c->spec.name = c->name.c_str();
  if (c->spec.summary) c->spec.summary = c->text.summary.c_str();
  if (c->spec.since) c->spec.since = c->text.since.c_str();
  if (c->spec.group) c->spec.group = c->text.group.c_str();
  if (c->spec.args) c->spec.args = c->text.args.c_str();
  c->owner = owner;
  if (sub) return AddSubcommand(std::move(c));
  if (stand_in) {  // the real container takes the stand-in's place and keeps its subcommands
    c->subs = std::move(stand_in->subs);
    for (auto& s : c->subs) s->parent = c.get();
    for (auto& slot : commands)
      if (slot.get() == stand_in) slot = std::move(c);
    Rebuild();
    return "";
  }
  commands.push_back(std::move(c));
  if ((commands.size() * 2 > slots_.size())) {
    Rebuild();
  } else {
    Insert(commands.back().get());
    Renumber();
  }
  return "";
}

std::string Registry::AddSubcommand(std::unique_ptr<Command> c) {
  const size_t bar = c->name.find('|');
  const std::string container = c->name.substr(0, bar);
  if (Command* parent = FindCommand(container)) {
    if (FindSub(parent, std::string_view(c->name).substr(bar + 1)))
      return "command '" + c->name + "' already exists";
    c->parent = parent;
    parent->subs.push_back(std::move(c));
    Renumber();
    return "";
  }
  auto p = StandIn(container);
  c->parent = p.get();
  p->subs.push_back(std::move(c));
  commands.push_back(std::move(p));
  Rebuild();
  return "";
}

Command* Registry::FindSub(const Command* cmd, std::string_view sub) {
  const size_t skip = cmd->name.size() + 1;
  for (const auto& s : cmd->subs)
    if (s->name.size() - skip == sub.size() &&
        text::EqualsNoCase(std::string_view(s->name).substr(skip), sub))
      return s.get();
  return nullptr;
}

Command* Registry::FindQualified(std::string_view name) const {
  const size_t bar = name.find('|');
  Command* cmd = FindCommand(name.substr(0, bar));
  if (!cmd || bar == std::string_view::npos) return cmd;
  return FindSub(cmd, name.substr(bar + 1));
}

void Registry::Renumber() {
  by_id.clear();
  for (auto& c : commands) {
    c->id = static_cast<int32_t>(by_id.size());
    by_id.push_back(c.get());
  }
  for (auto& c : commands)
    for (auto& s : c->subs) {
      s->id = static_cast<int32_t>(by_id.size());
      by_id.push_back(s.get());
    }
}

void Registry::RemoveOwner(const std::string& owner) {
  for (auto& c : commands) {
    c->subs.erase(std::remove_if(c->subs.begin(), c->subs.end(),
                                 [&](const auto& sub) { return sub->owner == owner; }),
                  c->subs.end());
    if (c->owner == owner && !c->subs.empty()) {  // other plugins' subcommands stay: stand in
      auto p = StandIn(c->name);
      p->subs = std::move(c->subs);
      for (auto& s : p->subs) s->parent = p.get();
      c = std::move(p);
    }
  }
  for (auto it = commands.begin(); it != commands.end();) {
    if ((*it)->owner == owner || ((*it)->stand_in && (*it)->subs.empty())) {
      it = commands.erase(it);
    } else {
      ++it;
    }
  }
  Rebuild();
}

// A name's first slot: the top bits of its hash times 2^64 / phi (Fibonacci hashing), so every
// bit of the hash counts.
inline size_t FirstSlot(uint64_t hash, unsigned shift) {
  return static_cast<size_t>((hash * 0x9e3779b97f4a7c15ull) >> shift);
}

void Registry::Insert(Command* cmd) {
  Slot k{0, 0, cmd->name.size(), cmd};
  const char* p = cmd->name.data();
  for (size_t i = 0; i < k.len && i < 8; ++i) k.head = (k.head << 8) | Fold(p[i]);
  k.hash = HashHead(k.head);
  for (size_t i = 8; i < k.len; ++i) k.hash = HashByte(k.hash, p[i]);
  size_t i = FirstSlot(k.hash, shift_);
  while (slots_[i].cmd) i = (i + 1) & mask_;
  slots_[i] = k;
}

// Sizes the table for the registered commands (at most half full) and fills it again.
void Registry::Rebuild() {
  size_t n = 16;
  while (n < commands.size() * 2) n *= 2;
  slots_.assign(n, Slot{});
  mask_ = n - 1;
  shift_ = 64;
  for (size_t s = n; s > 1; s >>= 1) --shift_;
  for (const auto& c : commands) Insert(c.get());
  Renumber();
}

// The command whose name, folded, is name's (key: name's key); nullptr when none. Equal heads
// and lengths settle names of up to 8 bytes; longer ones compare their other bytes. Inlined in
// both lookups: it is most of their work.
[[gnu::always_inline]] inline Command* Registry::Probe(const char* name, const Slot& key) const {
  if (slots_.empty()) return nullptr;
  const Slot* slots = slots_.data();
  for (size_t i = FirstSlot(key.hash, shift_);; i = (i + 1) & mask_) {
    const Slot& s = slots[i];
    if (!s.cmd) return nullptr;
    if (s.hash == key.hash && s.head == key.head && s.len == key.len &&
        (key.len <= 8 || EqualFolded(s.cmd->name.data() + 8, name + 8, key.len - 8)))
      return s.cmd;
  }
}

Command* Registry::FindCommand(std::string_view name) const {
  if (name.empty() || name.size() > kMaxCommandName) return nullptr;
  Slot k{0, 0, name.size(), nullptr};
  const char* p = name.data();
  for (size_t i = 0; i < k.len && i < 8; ++i) k.head = (k.head << 8) | Fold(p[i]);
  k.hash = HashHead(k.head);
  for (size_t i = 8; i < k.len; ++i) k.hash = HashByte(k.hash, p[i]);
  return Probe(p, k);
}

Command* Registry::FindCommand(const char* name, size_t* len) const {
  if (!name || !*name) return nullptr;
  Slot k;
  size_t n = 0;
  for (; n < 8 && name[n]; ++n) k.head = (k.head << 8) | Fold(name[n]);
  k.hash = HashHead(k.head);
  for (; name[n]; ++n) k.hash = HashByte(k.hash, name[n]);
  if (n > kMaxCommandName) return nullptr;  // longer than any command's name
  k.len = n;
  Command* cmd = Probe(name, k);
  if (cmd) *len = n;
  return cmd;
}

}  // namespace plinth::host
