// Selector rules: parsing, compiling to a bitmap over command ids, checking a call, and the
// ACL LIST / GETUSER text. Rule texts and refusals are Redis 7's.
#include "acl/selector.h"

#include <algorithm>
#include <plinth/text.hpp>

#include "common/acl_categories.h"

namespace plinth::acl {
namespace {

constexpr uint32_t kReadWrite = PLINTH_KEY_READ | PLINTH_KEY_WRITE;
constexpr const char* kKeyAfterAll =
    "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have "
    "any effect. Try 'resetkeys' to start with an empty list of patterns";
constexpr const char* kChannelAfterAll =
    "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not "
    "have any effect. Try 'resetchannels' to start with an empty list of channels";
constexpr const char* kUnknown = "Unknown command or category name in ACL";

bool Match(std::string_view pattern, std::string_view subject) {
  return pattern == "*" || text::GlobMatch(pattern, subject);
}

// Drops the rules name overrides (the same name, or a subcommand of it), then appends sign+name.
void UpdateRules(Selector& s, char sign, const std::string& name) {
  s.rules.erase(std::remove_if(s.rules.begin(), s.rules.end(),
                               [&](const std::string& r) {
                                 std::string_view n = std::string_view(r).substr(1);
                                 return n == name || (n.size() > name.size() &&
                                                      n.compare(0, name.size(), name) == 0 &&
                                                      n[name.size()] == '|');
                               }),
                s.rules.end());
  s.rules.push_back(sign + name);
}

bool KeyRule(Selector& s, std::string_view op, std::string* err) {
  uint32_t flags = kReadWrite;
  size_t at = 1;
  if (op[0] == '%') {
    flags = 0;
    for (; at < op.size() && op[at] != '~'; ++at) {
      const char c = text::ToUpper(op[at]);
      if (c == 'R')
        flags |= PLINTH_KEY_READ;
      else if (c == 'W')
        flags |= PLINTH_KEY_WRITE;
      else
        return *err = "Syntax error", false;
    }
    if (at == op.size() || flags == 0) return *err = "Syntax error", false;
    ++at;
  }
  const std::string_view pattern = op.substr(at);
  if (flags == kReadWrite && pattern == "*") {
    s.all_keys = true;
    s.keys.clear();
    return true;
  }
  if (s.all_keys) return *err = kKeyAfterAll, false;
  for (KeyPattern& k : s.keys)
    if (k.pattern == pattern) return k.flags |= flags, true;
  s.keys.push_back({std::string(pattern), flags});
  return true;
}

bool CommandRule(Selector& s, std::string_view op, const CommandTable& table, std::string* err) {
  const char sign = op[0];
  s.compiled = 0;  // compile again at the next check
  const std::string name = text::ToLower(op.substr(1));
  if (name == "@all") {
    s.commands_all = sign == '+';
    s.rules.clear();
    return true;
  }
  if (!name.empty() && name[0] == '@') {
    if (!common::AclCategoryBit(name)) return *err = kUnknown, false;
    UpdateRules(s, sign, name);
    return true;
  }
  const size_t bar = name.find('|');
  const int32_t container = table.Find(name.substr(0, bar));
  if (container < 0 || table.at(container).parent >= 0) return *err = kUnknown, false;
  if (bar != std::string::npos) {
    const bool has_subs = !table.at(container).subs.empty();
    // A command without subcommands takes first-argument rules (+select|0), allowing only.
    if (has_subs ? table.Find(name) < 0 : (sign == '-' || bar + 1 == name.size()))
      return *err = kUnknown, false;
  }
  UpdateRules(s, sign, name);
  return true;
}

}  // namespace

bool ApplySelectorRule(Selector& s, std::string_view op, const CommandTable& table,
                       std::string* err) {
  err->clear();
  if (op.empty()) return false;
  if (text::EqualsNoCase(op, "allkeys")) return KeyRule(s, "~*", err);
  if (text::EqualsNoCase(op, "resetkeys")) {
    s.all_keys = false;
    s.keys.clear();
    return true;
  }
  if (op[0] == '~' || op[0] == '%') return KeyRule(s, op, err);
  if (text::EqualsNoCase(op, "allchannels") || op == "&*") {
    s.all_channels = true;
    s.channels.clear();
    return true;
  }
  if (text::EqualsNoCase(op, "resetchannels")) {
    s.all_channels = false;
    s.channels.clear();
    return true;
  }
  if (op[0] == '&') {
    if (s.all_channels) return *err = kChannelAfterAll, false;
    const std::string pattern(op.substr(1));
    if (std::find(s.channels.begin(), s.channels.end(), pattern) == s.channels.end())
      s.channels.push_back(pattern);
    return true;
  }
  if (text::EqualsNoCase(op, "allcommands")) return CommandRule(s, "+@all", table, err);
  if (text::EqualsNoCase(op, "nocommands")) return CommandRule(s, "-@all", table, err);
  if ((op[0] == '+' || op[0] == '-') && op.size() > 1) return CommandRule(s, op, table, err);
  return false;
}

void Compile(Selector& s, const CommandTable& table) {
  if (s.compiled == table.generation() && s.allowed.size() == table.size()) return;
  s.allowed.assign(table.size(), s.commands_all ? 1 : 0);
  s.first_args.clear();
  for (const std::string& r : s.rules) {
    const uint8_t on = r[0] == '+';
    const std::string_view name = std::string_view(r).substr(1);
    if (name[0] == '@') {
      const uint64_t bit = common::AclCategoryBit(name);
      for (size_t id = 0; id < table.size(); ++id)
        if (table.at(static_cast<int32_t>(id)).categories & bit) s.allowed[id] = on;
      continue;
    }
    const int32_t id = table.Find(name);
    if (id >= 0) {
      s.allowed[static_cast<size_t>(id)] = on;
      for (int32_t sub : table.at(id).subs) s.allowed[static_cast<size_t>(sub)] = on;
      continue;
    }
    const size_t bar = name.find('|');
    const int32_t container = bar == name.npos ? -1 : table.Find(name.substr(0, bar));
    if (container >= 0 && on) s.first_args[container].emplace_back(name.substr(bar + 1));
  }
  s.compiled = table.generation();
}

bool AllowsKey(const Selector& s, std::string_view key, uint32_t flags) {
  if (flags & PLINTH_KEY_CHANNEL) {
    if (s.all_channels) return true;
    for (const std::string& c : s.channels)
      if ((flags & PLINTH_KEY_PATTERN) ? c == key : Match(c, key)) return true;
    return false;
  }
  if (s.all_keys) return true;
  const uint32_t need = flags & kReadWrite;
  for (const KeyPattern& k : s.keys)
    if ((k.flags & need) == need && Match(k.pattern, key)) return true;
  return false;
}

Denial Check(Selector& s, const CommandTable& table, const CallView& call, int32_t* arg) {
  Compile(s, table);
  const size_t id = static_cast<size_t>(call.command);
  // Commands allowed before authentication (AUTH, HELLO) are allowed to every user.
  const bool noauth = id < table.size() && (table.at(call.command).flags & PLINTH_CMD_NOAUTH);
  if (!noauth && (id >= s.allowed.size() || !s.allowed[id])) {
    auto it = s.first_args.find(call.command);
    bool ok = false;
    if (it != s.first_args.end() && call.argv.size() > 1)
      for (const std::string& a : it->second) ok = ok || text::EqualsNoCase(a, call.argv[1]);
    if (!ok) return kDeniedCommand;
  }
  for (int pass = 0; pass < 2; ++pass)  // keys first, then channels (Redis's order)
    for (const plinth_key_ref_t& r : call.refs) {
      const bool channel = (r.flags & PLINTH_KEY_CHANNEL) != 0;
      if (channel != (pass == 1) || static_cast<size_t>(r.index) >= call.argv.size()) continue;
      if (!AllowsKey(s, call.argv[static_cast<size_t>(r.index)], r.flags)) {
        *arg = r.index;
        return channel ? kDeniedChannel : kDeniedKey;
      }
    }
  return kAllowed;
}

std::string DescribeCommands(const Selector& s) {
  std::string out = s.commands_all ? "+@all" : "-@all";
  for (const std::string& r : s.rules) out += " " + r;
  return out;
}

std::string DescribeKeys(const Selector& s) {
  if (s.all_keys) return "~*";
  std::string out;
  for (const KeyPattern& k : s.keys) {
    if (!out.empty()) out += ' ';
    out += k.flags == kReadWrite ? "~" : (k.flags == PLINTH_KEY_READ ? "%R~" : "%W~");
    out += k.pattern;
  }
  return out;
}

std::string DescribeChannels(const Selector& s) {
  if (s.all_channels) return "&*";
  std::string out;
  for (const std::string& c : s.channels) out += (out.empty() ? "&" : " &") + c;
  return out;
}

std::string Describe(const Selector& s) {
  std::string out = DescribeKeys(s);
  const std::string channels = DescribeChannels(s);
  if (!out.empty()) out += ' ';
  out += s.all_channels ? channels : "resetchannels" + (channels.empty() ? "" : " " + channels);
  return out + " " + DescribeCommands(s);
}

}  // namespace plinth::acl
