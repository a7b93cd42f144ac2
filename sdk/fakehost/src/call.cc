// Running one command in the fake host: lookup, arity and auth checks with Redis's error
// texts, the handler, reply checks and propagation of the call's effects. Main thread.
#include <string>

#include "internal.h"

namespace plinth::fakehost {
namespace {

Reply ErrorReply(std::string text) {
  // Redis turns newlines in error texts into spaces so the reply stays one line.
  for (char& c : text)
    if (c == '\r' || c == '\n') c = ' ';
  Reply r;
  r.type = ReplyType::kError;
  r.str = std::move(text);
  return r;
}

// Redis 7's text: the name cut at 128 bytes, then quoted arguments while under 128 bytes.
std::string UnknownCommand(const std::vector<std::string>& argv) {
  std::string args;
  for (size_t i = 1; i < argv.size() && args.size() < 128; ++i)
    args += "'" + argv[i].substr(0, 128 - args.size()) + "' ";
  return "ERR unknown command '" + argv[0].substr(0, 128) + "', with args beginning with: " + args;
}

bool ArityFits(int32_t arity, size_t argc) {
  return arity > 0 ? argc == static_cast<size_t>(arity)
                   : argc >= static_cast<size_t>(-static_cast<int64_t>(arity));
}

}  // namespace

Reply FakeHost::Impl::Execute(const std::vector<std::string>& argv) {
  if (argv.empty()) return ErrorReply("ERR fakehost: Call needs at least the command name");
  const CommandRec* cmd = FindCommand(argv[0]);
  if (!cmd) return ErrorReply(UnknownCommand(argv));
  if (!ArityFits(cmd->spec.arity, argv.size()))
    return ErrorReply("ERR wrong number of arguments for '" + cmd->name + "' command");
  if (!authenticated && !(cmd->spec.flags & PLINTH_CMD_NOAUTH))
    return ErrorReply("NOAUTH Authentication required.");

  CallRec call;
  call.host = this;
  call.cmd = cmd;
  call.argv = argv;
  call.db = client_db;
  call.time_ms = now_ms;
  const uint64_t dirty_before = dirty;
  CallRec* outer = current_call;
  current_call = &call;
  cmd->spec.handler(reinterpret_cast<plinth_call_t*>(&call), cmd->spec.ctx);
  current_call = outer;

  Reply reply;
  std::string problem;
  if (!call.replies.Finish(&reply, &problem)) {
    Log(cmd->owner, PLINTH_LOG_WARNING, "command '" + cmd->name + "' produced " + problem);
    reply = ErrorReply("ERR fakehost: '" + cmd->name + "' produced " + problem);
  }

  const bool changed = dirty != dirty_before;
  if (changed && !(cmd->spec.flags & PLINTH_CMD_WRITE))
    Log(cmd->owner, PLINTH_LOG_WARNING,
        "command '" + cmd->name + "' changed the keyspace but is not flagged PLINTH_CMD_WRITE");
  for (const PropagatedCommand& effect : call.pending) Emit(effect);
  if (changed && !call.replicated && !call.no_propagate &&
      !(cmd->spec.flags & PLINTH_CMD_NOPROPAGATE))
    Emit(PropagatedCommand{call.db, argv});
  return reply;
}

}  // namespace plinth::fakehost
