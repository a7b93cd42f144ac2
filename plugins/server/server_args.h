// Argument grammars of the server commands (Redis 7.0 rules and error texts): SHUTDOWN flags,
// CONFIG SET name checks, INFO section lists, COMMAND LIST filters, and the integer "ver" of
// MODULE LIST. Pure logic, no ABI types; main thread.
#ifndef PLINTH_SERVER_SERVER_ARGS_H
#define PLINTH_SERVER_SERVER_ARGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::server {

// SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT].
struct ShutdownArgs {
  bool nosave = false, save = false, now = false, force = false, abort = false;
};

// Parses the words after SHUTDOWN. Unknown words, NOSAVE with SAVE, and ABORT with anything
// else give errors::kSyntax.
bool ParseShutdown(const std::vector<std::string_view>& words, ShutdownArgs* out,
                   std::string* error);

// Checks CONFIG SET's parameter names before anything is set: known[i] tells whether names[i]
// exists. The first unknown name wins ("ERR Unknown option or number of arguments for CONFIG
// SET - 'x'"), then a repeated name (any case) gives "ERR CONFIG SET failed (possibly related
// to argument 'x') - duplicate parameter".
bool CheckConfigSetNames(const std::vector<std::string_view>& names, const std::vector<bool>& known,
                         std::string* error);

// The reply error when setting name failed for reason (the host's text).
std::string ConfigSetFailed(std::string_view name, std::string_view reason);

// Lower-cases and de-duplicates INFO's section arguments, keeping the first occurrence order.
std::vector<std::string> InfoSections(const std::vector<std::string_view>& words);

// COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern].
struct ListFilter {
  enum class Kind { kNone, kModule, kAclCat, kPattern };
  Kind kind = Kind::kNone;
  std::string_view arg;
};

// Parses the words after COMMAND LIST; anything but one complete FILTERBY gives a syntax error.
bool ParseListFilter(const std::vector<std::string_view>& words, ListFilter* out,
                     std::string* error);

// MODULE LIST's integer version from a plugin's version text, Redis-module style:
// "1.2.3" -> 10203, "2" -> 20000. Text that does not start with a number gives 0.
int64_t VersionNumber(std::string_view version);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_SERVER_ARGS_H
