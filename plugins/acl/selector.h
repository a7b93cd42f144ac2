// A selector: one set of permissions (commands, key patterns, channel patterns). A user has a
// root selector and may have more; a call is allowed when any selector allows it. Command
// rules are kept as written ("+get", "-@hash", "+config|get", "+select|0") after the base
// (+@all or -@all), each new rule dropping the earlier ones it overrides, and are compiled to
// a bitmap over the host's command ids when the table changes. Main thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "acl/command_table.h"

namespace plinth::acl {

struct KeyPattern {
  std::string pattern;
  uint32_t flags = 0;  // PLINTH_KEY_READ | PLINTH_KEY_WRITE
};

struct Selector {
  bool commands_all = false;       // the base: +@all (future commands too) or -@all
  std::vector<std::string> rules;  // after the base, lowercase, in order
  bool all_keys = false;
  std::vector<KeyPattern> keys;
  bool all_channels = false;
  std::vector<std::string> channels;

  // The compiled rules: allowed[id], and first arguments allowed of commands without
  // subcommands ("+select|0"). Valid for table generation `compiled` (0: compile again).
  uint64_t compiled = 0;
  std::vector<uint8_t> allowed;
  std::map<int32_t, std::vector<std::string>> first_args;
};

// Why a call was refused (Redis's ACL_DENIED_*: a higher one is the more relevant).
enum Denial { kAllowed = 0, kDeniedCommand = 1, kDeniedKey = 2, kDeniedChannel = 4 };

// Applies one rule that belongs to a selector (commands, keys, channels). Returns false when op
// is not such a rule (err empty) or is refused (err: Redis's reason).
bool ApplySelectorRule(Selector& s, std::string_view op, const CommandTable& table,
                       std::string* err);
// Compiles s's command rules against table when it changed since.
void Compile(Selector& s, const CommandTable& table);

// One call to check: its command id, arguments, and key/channel refs (command_keys).
struct CallView {
  int32_t command = -1;
  std::vector<std::string_view> argv;
  std::vector<plinth_key_ref_t> refs;
};
// Whether s allows the call; on a key or channel denial *arg is the refused argument's index.
Denial Check(Selector& s, const CommandTable& table, const CallView& call, int32_t* arg);
// Whether s allows touching key (flags PLINTH_KEY_*; a channel with PLINTH_KEY_CHANNEL).
bool AllowsKey(const Selector& s, std::string_view key, uint32_t flags);

// ACL LIST's text of s: keys, channels, then commands ("~* &* +@all").
std::string Describe(const Selector& s);
// Its parts as ACL GETUSER shows them.
std::string DescribeCommands(const Selector& s);
std::string DescribeKeys(const Selector& s);
std::string DescribeChannels(const Selector& s);

}  // namespace plinth::acl
