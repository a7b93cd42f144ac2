// BGREWRITEAOF, the consumer and hook registrations, INFO (see commands.h).
#include "aof/commands.h"

#include <plinth/plugin.hpp>

namespace plinth::aof {
namespace {

Aof* instance = nullptr;

void BgRewriteAofCommand(sdk::Call& c) {
  switch (instance->RequestRewrite()) {
    case Aof::Request::kStarted:
      return c.Simple("Background append only file rewriting started");
    case Aof::Request::kScheduled:
      return c.Simple("Background append only file rewriting scheduled");
    case Aof::Request::kInProgress:
      return c.Error("ERR Background append only file rewriting already in progress");
    case Aof::Request::kOff:
      return c.Error("ERR Background append only file rewriting is not possible while loading");
  }
}

}  // namespace

bool RegisterHooks(Aof* aof) {
  instance = aof;
  const sdk::CommandDef defs[] = {
      {"bgrewriteaof", 1, PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT, 0, 0, 0, BgRewriteAofCommand,
       "server", "", "Asynchronously rewrite the append-only file", "1.0.0"},
  };
  if (!sdk::RegisterCommands(defs)) return false;
  const plinth_host_api_t& api = sdk::Api();
  plinth_stream_consumer_spec_t c{};
  c.struct_size = sizeof c;
  c.name = "aof";
  c.ctx = aof;
  c.on_batch = [](void* ctx, const plinth_stream_batch_t* b) {
    static_cast<Aof*>(ctx)->OnBatch(b);
  };
  if (api.stream_consumer_register(sdk::Host::self, &c) != PLINTH_OK) return false;
  if (api.before_sleep_register(
          sdk::Host::self, [](void* ctx) { static_cast<Aof*>(ctx)->BeforeSleep(); }, aof) !=
      PLINTH_OK)
    return false;
  return api.info_register(
             sdk::Host::self, "persistence",
             [](void* ctx, plinth_info_t* info) { static_cast<Aof*>(ctx)->FillInfo(info); },
             aof) == PLINTH_OK;
}

}  // namespace plinth::aof
