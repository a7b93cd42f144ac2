// Dispatch help for container commands (CLIENT, CONFIG, OBJECT, ...) registered as one flat
// command: finds the subcommand, checks its arity and builds Redis 7's error texts. Pure.
#ifndef PLINTH_COMMON_SUBCOMMAND_H
#define PLINTH_COMMON_SUBCOMMAND_H

#include <cstddef>
#include <cstdint>
#include <plinth/errors.hpp>
#include <string>
#include <string_view>

namespace plinth::common {

// One subcommand: its lower-case name and its Redis arity counted over the whole argv
// (container name included): N means exactly N, -N at least N.
struct SubcommandDef {
  std::string_view name;
  int32_t arity;
};

// Resolves argv[1] ("sub", any case) of container "container" (lower case, e.g. "client")
// against defs[0, n). Returns the index of the match, or -1 after writing the reply error text
// to *error: "ERR unknown subcommand 'x'. Try CLIENT HELP." or "ERR wrong number of arguments
// for 'client|id' command" when argc does not fit the arity.
int FindSubcommand(std::string_view container, const SubcommandDef* defs, size_t n,
                   std::string_view sub, int argc, std::string* error);

template <size_t N>
int FindSubcommand(std::string_view container, const SubcommandDef (&defs)[N], std::string_view sub,
                   int argc, std::string* error) {
  return FindSubcommand(container, defs, N, sub, argc, error);
}

// Redis's error for a subcommand given the wrong arguments when its arity alone cannot tell:
// "ERR unknown subcommand or wrong number of arguments for 'sub'. Try CONTAINER HELP."
std::string SubcommandSyntaxError(std::string_view container, std::string_view sub);

// True when argc satisfies a Redis arity (N exact, -N at least N).
bool ArityFits(int32_t arity, int argc);

// Copies s for use inside an error reply as Redis quotes an argument (a C string): it ends at
// a NUL byte, CR and LF become spaces (they would break the protocol line) and at most max
// bytes are kept.
std::string ErrorArg(std::string_view s, size_t max = 128);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_SUBCOMMAND_H
