// One command execution (plinth_call_t): the arguments, the client, the reply bookkeeping and
// what the command asks to propagate. Lives on the stack of Execute(). Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <string>
#include <vector>

namespace plinth::host {
struct Client;
struct Command;
}  // namespace plinth::host

struct plinth_call {
  plinth::host::Client* client = nullptr;
  plinth::host::Command* cmd = nullptr;
  int32_t argc = 0;
  const char* const* argv = nullptr;
  const size_t* argvlen = nullptr;
  int32_t db = 0;
  int64_t now_ms = 0;
  uint64_t replies = 0;  // reply items emitted
  bool error_reply = false;
  bool replicated = false;
  bool no_propagate = false;
  std::vector<std::vector<std::string>> propagate;  // replicate() emissions, if consumers exist
};

namespace plinth::host {

// Runs one request of client c: lookup, arity, auth, the handler, stats and propagation.
void Execute(Client* c, int32_t argc, const char* const* argv, const size_t* argvlen);
// Appends one effect to the propagation stream (no-op without consumers).
void Propagate(int32_t db, int32_t argc, const char* const* argv, const size_t* argvlen);
// Deletes key in db because it expired, counting and propagating it as DEL.
void ExpireKey(int32_t db, std::string_view key);

}  // namespace plinth::host
