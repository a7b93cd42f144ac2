// Command dispatch: lookup, arity and auth checks, the handler, per-command statistics, and the
// propagation of the command's effects to the stream consumers.
#include <time.h>

#include <cstring>
#include <string>

#include "host/call.h"
#include "host/client.h"
#include "host/log.h"
#include "host/server.h"

namespace plinth::host {
namespace {

inline uint64_t MonoUs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

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

bool ArityOk(const Command* cmd, int32_t argc) {
  int32_t a = cmd->spec.arity;
  return a > 0 ? argc == a : argc >= -a;
}

}  // namespace

void Propagate(int32_t db, int32_t argc, const char* const* argv, const size_t* argvlen) {
  for (const StreamConsumer& sc : Srv().registry.consumers)
    sc.spec.on_command(sc.spec.ctx, db, argc, argv, argvlen);
}

void ExpireKey(int32_t db, std::string_view key) {
  Server& s = Srv();
  s.dbs[db].Delete(key);
  s.stats.expired_keys++;
  s.dirty++;
  if (s.registry.consumers.empty()) return;
  const char* argv[2] = {"DEL", key.data()};
  size_t lens[2] = {3, key.size()};
  Propagate(db, 2, argv, lens);
}

void Execute(Client* c, int32_t argc, const char* const* argv, const size_t* argvlen) {
  Server& s = Srv();
  c->last_interaction_ms = NowMs();
  Command* cmd = s.registry.FindCommand(std::string_view(argv[0], argvlen[0]));
  if (!cmd) {
    s.stats.unknown_commands++;
    ClientReplyError(c, UnknownCommandError(argc, argv, argvlen));
    return;
  }
  c->last_command = cmd;
  // A container command (its hint lists subcommands: "<GET ...|SET ...>") is named with its
  // subcommand, as Redis does: cmd=client|list.
  if (!cmd->args.empty() && cmd->args[0] == '<' && argc > 1) {
    c->last_subcommand.assign(argv[1], std::min<size_t>(argvlen[1], 32));
    for (char& ch : c->last_subcommand)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  } else if (!c->last_subcommand.empty()) {
    c->last_subcommand.clear();
  }
  if (!ArityOk(cmd, argc)) {
    cmd->stats.rejected++;
    ClientReplyError(c, "ERR wrong number of arguments for '" + cmd->name + "' command");
    return;
  }
  if (!ClientAuthenticated(c) && !(cmd->spec.flags & PLINTH_CMD_NOAUTH)) {
    cmd->stats.rejected++;
    ClientReplyError(c, "NOAUTH Authentication required.");
    return;
  }
  plinth_call call;
  call.client = c;
  call.cmd = cmd;
  call.argc = argc;
  call.argv = argv;
  call.argvlen = argvlen;
  call.db = c->db;
  call.now_ms = c->last_interaction_ms;
  uint64_t dirty = s.dirty;
  uint64_t t0 = MonoUs();
  cmd->spec.handler(&call, cmd->spec.ctx);
  uint64_t t1 = MonoUs();
  cmd->stats.calls++;
  cmd->stats.usec += t1 - t0;
  s.stats.commands++;
  c->commands++;
  if (call.replies == 0) ClientReplyError(c, "ERR command '" + cmd->name + "' produced no reply");
  if (call.error_reply) cmd->stats.failed++;

  if (!s.registry.consumers.empty() && !(cmd->spec.flags & PLINTH_CMD_NOPROPAGATE)) {
    if (call.replicated) {
      for (const auto& p : call.propagate) {
        std::vector<const char*> av;
        std::vector<size_t> al;
        for (const std::string& a : p) {
          av.push_back(a.data());
          al.push_back(a.size());
        }
        Propagate(call.db, static_cast<int32_t>(av.size()), av.data(), al.data());
      }
    } else if (s.dirty != dirty && !call.no_propagate && (cmd->spec.flags & PLINTH_CMD_WRITE)) {
      Propagate(call.db, argc, argv, argvlen);
    }
  }
  if (!c->closed && !c->out.empty()) ClientCheckOutputLimits(c);
}

}  // namespace plinth::host
