// The option registry: typed options registered by the host and by plugins, their values from
// the config file and command line (held as "pending" until the option is registered), CONFIG
// GET/SET and --help. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// One registered option; plinth_option_t* (the handle plugins read values through) points to
// one. Its address is stable while the option is registered.
struct plinth_option {
  std::string name;   // full name: "port", "tcp.backlog"
  std::string owner;  // "host" or the plugin's name
  uint32_t type = PLINTH_OPT_STRING;
  uint32_t flags = 0;
  std::string default_value;
  int64_t min = 0, max = 0;
  std::string enum_values;
  std::string description;
  plinth_option_apply_fn apply = nullptr;
  void* ctx = nullptr;
  std::string value;      // normalised text ("yes"/"no", bytes for MEMORY)
  int64_t int_value = 0;  // INT, MEMORY, BOOL 0/1, ENUM index
};

namespace plinth::host {

using Option = ::plinth_option;

// The option flags a plugin may give (ABI 1.2); Register ignores every other bit of a plugin's
// spec, so a bit no minor defines (or a host-only one) changes nothing.
inline constexpr uint32_t kOptPluginFlags =
    PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_SECRET | PLINTH_OPT_PROTECTED;

// Host-only flag (not in the ABI): an option the host registers until a plugin provides it
// (plugins/placeholder_options.txt: what clients read even when that plugin is not loaded). A
// plugin registering the same name replaces it.
inline constexpr uint32_t kOptPlaceholder = 0x80000000u;

class Options {
 public:
  // Records a configured value for name (full or, with scope, as given inside that plugin's
  // config object). Later values replace earlier ones.
  void SetPending(const std::string& name, const std::string& value, const std::string& scope = "");
  // Registers an option owned by owner and applies its configured (or default) value. Returns
  // the option, or nullptr with a reason in *err when the spec is bad, the name is taken or the
  // value invalid.
  Option* Register(const plinth_option_spec_t* spec, const std::string& owner, std::string* err);
  // The option named name, or nullptr.
  const Option* Find(std::string_view name) const;
  // Validates and sets a value. runtime (CONFIG SET): refuse immutable options, and
  // PLINTH_OPT_PROTECTED ones unless protected_ok (enable-protected-configs allows the client).
  // Returns false with *err (Redis's reason text).
  bool Set(std::string_view name, std::string_view value, bool runtime, std::string* err,
           bool protected_ok = false);
  // Removes every option owned by owner (rollback of a failed init).
  void UnregisterOwner(const std::string& owner);
  // Gives placeholders the configured values no plugin took. Returns false with *err when one
  // is refused (the feature needs its plugin).
  bool SettlePlaceholders(std::string* err);
  // Configured names that no registered option consumed.
  std::vector<std::string> UnusedPending() const;
  // Into *norm, the text o would hold for value text ("1mb" -> "1048576", "true" -> "yes").
  // Returns false when o's type refuses text.
  bool Normalize(const Option& o, std::string_view text, std::string* norm) const {
    int64_t iv = 0;
    std::string ignored;
    return Parse(o, text, norm, &iv, &ignored);
  }
  // Options in name order.
  const std::map<std::string, Option, std::less<>>& All() const { return options_; }

 private:
  bool Parse(const Option& o, std::string_view text, std::string* norm, int64_t* iv,
             std::string* err) const;

  std::map<std::string, Option, std::less<>> options_;
  struct Pending {
    std::string value;
    bool used = false;
  };
  std::map<std::string, Pending> pending_;  // key: name or "scope/name"
};

}  // namespace plinth::host
