// Turns a command's argument hint text ("key value [NX|XX] [EX seconds|PX milliseconds]",
// Redis's documentation syntax) into the argument tree COMMAND DOCS reports, and renders a tree
// back the way redis-cli 7.0 builds its hints. Pure logic, no ABI types; main thread.
#ifndef PLINTH_SERVER_ARGS_HINT_H
#define PLINTH_SERVER_ARGS_HINT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::server {

// One argument of COMMAND DOCS: name, type ("key", "string", "integer", "double", "pattern",
// "unix-time", "pure-token", "oneof", "block"), optional token, flags and, for oneof and block,
// the nested arguments.
struct DocArg {
  std::string name;
  std::string type;
  std::string token;
  bool optional = false;
  bool multiple = false;
  bool multiple_token = false;
  std::vector<DocArg> args;
};

// Where a command's keys are (from its spec), used to type positional arguments as "key".
struct KeyPositions {
  int32_t first = 0;  // 0: no keys
  int32_t last = 0;   // -1: up to the last argument
  int32_t step = 1;
};

// Parses hint syntax:
//   word            an argument; lower-case words are values, UPPER-CASE words are tokens
//   TOKEN value     a value introduced by a token (TOKEN v1 v2 makes a block)
//   [ ... ]         optional; alternatives inside are separated by '|'
//   < ... >, ( ... ) a required group of alternatives
//   a|b|c           outside any bracket: a one-of of single words (AND|OR|XOR|NOT)
//   x [x ...]       repetition, also for groups of words ("field value [field value ...]")
//   x ...           repetition of x
// Returns false on unbalanced brackets or an empty group; *out is then unspecified.
bool ParseArgsHint(std::string_view hint, KeyPositions keys, std::vector<DocArg>* out);

// Renders arguments exactly as redis-cli 7.0 does from COMMAND DOCS (cliAddArgument): tokens,
// "[...]" for optional, " [x ...]" for multiple, '|' between one-of members, ' ' in blocks.
std::string RenderArgs(const std::vector<DocArg>& args);

// A subcommand derived from a container's hint: "<ID|INFO|KILL ip:port|...>" gives "id",
// "info", "kill" with the arguments after the subcommand word.
struct DocSubcommand {
  std::string name;  // lower case, without the container name
  std::vector<DocArg> args;
};

// When args is exactly one required one-of whose members each start with a token, returns the
// members as subcommands (members sharing a token merge into a one-of of their arguments).
// Otherwise returns an empty vector.
std::vector<DocSubcommand> SplitSubcommands(const std::vector<DocArg>& args);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_ARGS_HINT_H
