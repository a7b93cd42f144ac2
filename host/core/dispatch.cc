// Command dispatch: lookup, arity and auth checks, the handler, the reply's shape, per-command
// statistics, and the propagation of the command's effects to the stream consumers.
#include <time.h>

#include <algorithm>
#include <cstring>
#include <plinth/text.hpp>
#include <string>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

// Redis prints the names as C strings: each stops at its first NUL byte.
std::string_view CText(const char* p, size_t len, size_t max) {
  return std::string_view(p, strnlen(p, std::min(len, max)));
}

std::string UnknownCommandError(int32_t argc, const char* const* argv, const size_t* len) {
  std::string args;
  for (int32_t i = 1; i < argc && args.size() < 128; ++i) {
    args += '\'';
    args += CText(argv[i], len[i], 128 - args.size() + 1);
    args += "' ";
  }
  return "ERR unknown command '" + std::string(CText(argv[0], len[0], 128)) +
         "', with args beginning with: " + args;
}

// Completes the aggregates the handler left open with null elements, so the connection stays
// in step with the client.
void CompleteReply(plinth_call_t* c) {
  plinth_reply_item_t null{};
  null.struct_size = sizeof null;
  null.type = PLINTH_REPLY_NULL;
  while (c->depth > 0 && ReplyAccept(c, 0))
    if (c->sink) c->sink->Item(null);
}

// Appends a copy of the request to the MULTI queue.
void Queue(Transaction& t, int32_t argc, const char* const* argv, const size_t* argvlen) {
  std::vector<std::string>& args = t.queue.emplace_back();
  args.reserve(static_cast<size_t>(argc));
  for (int32_t i = 0; i < argc; ++i) {
    args.emplace_back(argv[i], argvlen[i]);
    t.queued_bytes += argvlen[i];
  }
}

// The verbatim command, after the handler: a write command that changed the keyspace, or one
// that asked for it (replicate_verbatim). What it emitted through replicate() is already in.
void PropagateCall(Core& core, const plinth_call_t& call, uint64_t dirty_before) {
  if (!core.propagation.Encoding() || (call.cmd->spec.flags & PLINTH_CMD_NOPROPAGATE) ||
      call.session->no_propagate)
    return;
  const bool changed = core.keyspace.dirty != dirty_before && !call.replicated &&
                       !call.no_propagate && (call.cmd->spec.flags & PLINTH_CMD_WRITE);
  if (changed || call.verbatim)
    core.propagation.Propagate(call.db, nullptr, 0, call.argc, call.argv, call.argvlen);
}

}  // namespace

void Dispatch::CountErrorReply(std::string_view msg) {
  core_.server.stats.error_replies++;
  core_.server.stats.errors[std::string(msg.substr(0, msg.find(' ')))]++;
}

void Dispatch::SendError(ReplySink& sink, std::string_view msg) {
  CountErrorReply(msg);
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_ERROR;
  item.data = msg.data();
  item.len = msg.size();
  sink.Item(item);
}

void Dispatch::Prefetch(const Session& s, ParsedRequest* reqs, size_t n, bool bytes) {
  std::string_view keys[kPrefetchKeys];
  ParsedRequest* of[kPrefetchKeys];
  size_t nkeys = 0;
  for (size_t i = 0; i < n; ++i) {
    ParsedRequest& r = reqs[i];
    r.cmd = core_.registry.FindCommand(std::string_view(r.argv[0], r.argvlen[0]));
    r.key_hashed = false;
    const int32_t k = r.cmd ? r.cmd->spec.first_key : 0;
    if (k > 0 && k < r.argc && nkeys < kPrefetchKeys) {
      of[nkeys] = &r;
      keys[nkeys++] = std::string_view(r.argv[k], r.argvlen[k]);
    }
  }
  // One key has nothing to overlap with.
  if (nkeys <= 1 || s.db < 0 || static_cast<size_t>(s.db) >= core_.keyspace.dbs.size()) return;
  uint64_t hashes[kPrefetchKeys];
  core_.keyspace.dbs[s.db].Prefetch(keys, nkeys, bytes, hashes);
  for (size_t i = 0; i < nkeys; ++i) {
    of[i]->key_hashed = true;
    of[i]->key_hash = hashes[i];
  }
}

void Dispatch::BeginRun() {
  run_ = true;
  run_wall_us_ = core_.server.env().clock->NowUs();
  run_start_us_ = run_last_us_ = MonoUs();
  // The run's commands stamp new keys with its start (the stamps count seconds or minutes).
  SetNewEntryStamp(AccessStampAt(core_.keyspace.evictor.access(), run_wall_us_ / 1000));
}

void Dispatch::Execute(Session& s, ReplySink& sink, int32_t argc, const char* const* argv,
                       const size_t* argvlen) {
  ParsedRequest r{argc, argv, argvlen, nullptr, false, 0};
  Execute(s, sink, r);
}

bool Dispatch::RunAllowed(Session& s, ReplySink& sink, Command* cmd) {
  const uint32_t f = cmd->spec.flags;
  if ((s.run_flags & PLINTH_RUN_SCRIPT) && (f & PLINTH_CMD_NOSCRIPT)) {
    Reject(s, sink, cmd, "ERR This Redis command is not allowed from script");
    return false;
  }
  if ((s.run_flags & PLINTH_RUN_NO_WRITES) && (f & PLINTH_CMD_WRITE)) {
    Reject(s, sink, cmd, "ERR Write commands are not allowed from read-only scripts.");
    return false;
  }
  return true;
}

bool Dispatch::MemoryAllows(Session& s, ReplySink& sink, Command* cmd) {
  const uint32_t f = cmd->spec.flags;
  // A command inside another (EXEC, a script) finds what its caller found; the internal
  // clients (a replica's stream, loading) never evict.
  if (exec_depth_ == 0 && !s.internal)
    oom_ = core_.keyspace.evictor.Perform() == EvictResult::kFail;
  if (!oom_ || s.internal) return true;
  // Redis refuses what may grow memory, and anything but EXEC, DISCARD, QUIT and RESET queued
  // in MULTI; an EXEC whose queue holds a command that may grow memory.
  const bool queueing = s.tx.active && !(f & PLINTH_CMD_SKIP_MULTI);
  const bool grows = (f & PLINTH_CMD_DENYOOM) ||
                     (cmd == core_.registry.exec && (s.tx.queued_flags & PLINTH_CMD_DENYOOM));
  if (!grows && !queueing) return true;
  Reject(s, sink, cmd, kOomError);
  return false;
}

void Dispatch::ServeBusy(const Session& caller, std::string_view error) {
  if (busy_) return;
  busy_ = true;
  busy_error_.assign(error);
  core_.server.env().process->ServeWhileBusy(caller.id);
  busy_ = false;
}

void Dispatch::Reject(Session& s, ReplySink& sink, Command* cmd, const std::string& msg) {
  cmd->stats.rejected++;
  if (cmd ==
      core_.registry.exec) {  // a refused EXEC discards the transaction, in MULTI or not (Redis)
    s.tx.EndMulti();
    s.tx.Unwatch();
    const size_t code = msg.find(' ');
    return SendError(sink, "EXECABORT Transaction discarded because of: " +
                               msg.substr(msg.compare(0, code, "ERR") == 0 ? code + 1 : 0));
  }
  s.tx.aborted |= s.tx.active;
  SendError(sink, msg);
}

void Dispatch::Execute(Session& s, ReplySink& sink, ParsedRequest& r) {
  const int32_t argc = r.argc;
  const char* const* argv = r.argv;
  const size_t* argvlen = r.argvlen;
  const bool in_run = run_;
  const uint64_t t0 = in_run ? run_last_us_ : MonoUs();
  s.last_interaction_ms = in_run ? (run_wall_us_ + static_cast<int64_t>(t0 - run_start_us_)) / 1000
                                 : core_.server.NowMs();
  Command* cmd = r.cmd ? r.cmd : core_.registry.FindCommand(std::string_view(argv[0], argvlen[0]));
  if (!cmd) {
    core_.server.stats.unknown_commands++;
    s.tx.aborted |= s.tx.active;
    SendError(sink, UnknownCommandError(argc, argv, argvlen));
    return;
  }
  s.last_command = cmd;
  // A container command (its hint lists subcommands: "<GET ...|SET ...>") is named with its
  // subcommand, as Redis does: cmd=client|list.
  if (!cmd->text.args.empty() && cmd->text.args[0] == '<' && argc > 1) {
    s.last_subcommand = text::ToLower(std::string_view(argv[1], std::min<size_t>(argvlen[1], 32)));
  } else if (!s.last_subcommand.empty()) {
    s.last_subcommand.clear();
  }
  if (!cmd->ArityAllows(argc))
    return Reject(s, sink, cmd, "ERR wrong number of arguments for '" + cmd->name + "' command");
  if (!core_.auth.Authenticated(s) && !(cmd->spec.flags & PLINTH_CMD_NOAUTH))
    return Reject(s, sink, cmd, "NOAUTH Authentication required.");
  Command* run = cmd->subs.empty() ? cmd : Registry::Resolve(cmd, argc, argv, argvlen);
  if (((cmd->spec.flags | run->spec.flags) & PLINTH_CMD_PROTECTED) && !s.internal &&
      !core_.auth.DebugAllowed(s))
    return Reject(s, sink, cmd,
                  "ERR " + text::ToUpper(cmd->name) +
                      " command not allowed. If the enable-debug-command option is set to "
                      "\"local\", you can run it from a local connection, otherwise you need to "
                      "set this option in the configuration file, and then restart the server.");
  if (core_.auth.Restricted(s)) {
    const std::string denied = core_.auth.Check(&core_, s, cmd, run, argc, argv, argvlen);
    if (!denied.empty()) return Reject(s, sink, cmd, denied);
  }
  if (busy_ && !(cmd->spec.flags & PLINTH_CMD_ALLOW_BUSY)) return Reject(s, sink, cmd, busy_error_);
  if (s.run_flags && !RunAllowed(s, sink, cmd)) return;
  if (core_.server.state.loaders > 0 && !s.internal && !(cmd->spec.flags & PLINTH_CMD_LOADING))
    return Reject(s, sink, cmd, "LOADING Plinth is loading the dataset in memory");
  if (!refusals.empty() && !s.internal)
    for (const Refusal& r : refusals)
      if (r.what == PLINTH_REFUSE_WRITES ? (cmd->spec.flags & PLINTH_CMD_WRITE) != 0
                                         : (cmd->spec.flags & PLINTH_CMD_STALE) == 0)
        return Reject(s, sink, cmd, r.error);
  if (s.sub_channels + s.sub_patterns > 0 && s.proto == 2 && !s.tx.executing &&
      !(cmd->spec.flags & PLINTH_CMD_SUBSCRIBER)) {
    const std::string name =
        s.last_subcommand.empty() ? cmd->name : cmd->name + "|" + s.last_subcommand;
    return Reject(s, sink, cmd,
                  "ERR Can't execute '" + name +
                      "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
                      "allowed in this context");
  }
  if (core_.sessions.HoldIfPaused(s, sink, r, cmd)) return;
  if (core_.keyspace.evictor.limit() > 0 && !MemoryAllows(s, sink, cmd)) return;
  if (s.tx.active && (cmd->spec.flags & PLINTH_CMD_NO_MULTI))
    return Reject(s, sink, cmd, "ERR Command not allowed inside a transaction");
  if (s.tx.active && !(cmd->spec.flags & PLINTH_CMD_SKIP_MULTI)) {
    Queue(s.tx, argc, argv, argvlen);
    s.tx.queued_flags |= cmd->spec.flags;
    plinth_reply_item_t queued{};
    queued.struct_size = sizeof queued;
    queued.type = PLINTH_REPLY_SIMPLE;
    queued.data = "QUEUED";
    queued.len = 6;
    sink.Item(queued);
    return;
  }
  plinth_call call;
  call.core = &core_;
  call.session = &s;
  call.sink = &sink;
  call.cmd = cmd;
  call.argc = argc;
  call.argv = argv;
  call.argvlen = argvlen;
  call.db = s.db;
  call.now_ms = s.last_interaction_ms;
  if (r.key_hashed) {
    call.hashed_key = argv[cmd->spec.first_key];
    call.hashed_len = argvlen[cmd->spec.first_key];
    call.key_hash = r.key_hash;
  }
  if (!in_run) SetNewEntryStamp(AccessStampAt(core_.keyspace.evictor.access(), call.now_ms));
  call.block_state = core_.sessions.TakeRerunState();
  uint64_t dirty_before = core_.keyspace.dirty;
  run_ = false;  // a command its handler runs reads the clock itself
  exec_depth_++;
  const bool top_unit =
      core_.propagation.OpenUnit();  // a command run by another (EXEC) joins its unit
  const Command* handler = run->spec.handler ? run : cmd;  // a subcommand's own, or its container's
  // A nested command's (EXEC's, a script's) caller is running_client again after it.
  const uint64_t outer_client = running_client_;
  running_client_ = s.id;
  handler->spec.handler(&call, handler->spec.ctx);
  running_client_ = outer_client;
  exec_depth_--;
  run_ = in_run;
  uint64_t t1 = MonoUs();
  if (run_) run_last_us_ = t1;
  cmd->stats.calls++;
  cmd->stats.usec += t1 - t0;
  core_.events.Observe(s, call, static_cast<int64_t>(t1 - t0));
  core_.server.stats.commands++;
  s.commands++;
  if (call.replies == 0 && (call.blocked || call.no_reply)) {
    // blocked: the reply comes from a later run; no_reply: none on purpose
  } else if (call.replies == 0) {
    SendError(sink, "ERR command '" + cmd->name + "' produced no reply");
  } else if (call.depth > 0) {
    CompleteReply(&call);
    core_.server.Log(LogLevel::kWarning,
                     "command '%s' returned an incomplete reply: completed with nulls",
                     cmd->name.c_str());
  }
  if (call.dropped)
    core_.server.Log(LogLevel::kWarning,
                     "command '%s' replied more than once: extra replies dropped",
                     cmd->name.c_str());
  if (call.error_reply) cmd->stats.failed++;
  PropagateCall(core_, call, dirty_before);
  if (top_unit) core_.propagation.CloseUnit();
  if (exec_depth_ == 0 && core_.sessions.blocking.HasReady()) core_.sessions.ServeBlocked();
}

}  // namespace plinth::host
