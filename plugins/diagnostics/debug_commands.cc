// DEBUG, the container: HELP, SLEEP, OBJECT and SET-ACTIVE-EXPIRE here, and Redis's error for
// any other subcommand. Subcommands other plugins register ("debug|reload" in rdb,
// "debug|change-repl-id" in replication) reach their own handlers through the host. The host
// refuses DEBUG unless enable-debug-command allows it (PLINTH_CMD_PROTECTED). Main thread.
#include <chrono>
#include <plinth/text.hpp>
#include <string>
#include <thread>

#include "common/subcommand.h"
#include "diagnostics/debug_text.h"
#include "diagnostics/diagnostics.h"

namespace plinth::diagnostics {
namespace {

using sdk::Api;

bool Registered(std::string_view name) {
  return Api().command_find(sdk::Host::self, name.data(), name.size()) >= 0;
}

void Help(const Call& c) {
  const auto lines = DebugHelpLines(Registered("debug|change-repl-id"), Registered("debug|reload"));
  c.Array(static_cast<int64_t>(lines.size()));
  for (std::string_view l : lines) c.Simple(l);
}

// Like Redis, the whole server stops: the main thread sleeps inside the command.
void Sleep(const Call& c) {
  const double seconds = SleepSeconds(c.arg(2));
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  c.Ok();
}

void SetActiveExpire(const Call& c) {
  if (!PLINTH_HAS(&Api(), server_active_expire))
    return c.Error("ERR this host cannot switch its active expiry");
  Api().server_active_expire(sdk::Host::self, ActiveExpireOn(c.arg(2)) ? 1 : 0);
  c.Ok();
}

// Adds up the bytes a value's RDB form would take (no compression).
struct SizeCounter {
  size_t bytes = 0;
  static SizeCounter& Of(plinth_rdb_io_t* io) { return *static_cast<SizeCounter*>(io->ctx); }
  static int32_t Len(plinth_rdb_io_t* io, uint64_t n) {
    Of(io).bytes += RdbLengthBytes(n);
    return PLINTH_OK;
  }
  static int32_t String(plinth_rdb_io_t* io, const char* s, size_t len) {
    Of(io).bytes += RdbStringBytes(std::string_view(s, len));
    return PLINTH_OK;
  }
  static int32_t Double(plinth_rdb_io_t* io, double) {
    Of(io).bytes += 8;
    return PLINTH_OK;
  }
  static int32_t Raw(plinth_rdb_io_t* io, const void*, size_t len) {
    Of(io).bytes += len;
    return PLINTH_OK;
  }
};

// serializedlength: the RDB payload's size without LZF compression; a type with no RDB form
// counts its memory.
size_t SerializedLength(const plinth_value_t* v) {
  if (Api().value_type(v) == PLINTH_TYPE_STRING) {
    size_t len = 0;
    const char* s = Api().value_string(v, &len);
    return RdbStringBytes(std::string_view(s ? s : "", len));
  }
  SizeCounter counter;
  plinth_rdb_io_t io{};
  io.struct_size = sizeof io;
  io.ctx = &counter;
  io.write_len = SizeCounter::Len;
  io.write_string = SizeCounter::String;
  io.write_double = SizeCounter::Double;
  io.write_raw = SizeCounter::Raw;
  uint32_t rdb_type = 0;
  if (Api().value_rdb_save(v, &io, &rdb_type) != PLINTH_OK) return Api().value_memory(v);
  return counter.bytes;
}

void Object(const Call& c) {
  const std::string_view key = c.arg(2);
  // The idle time first: reading the value stamps the key as used.
  int64_t idle_ms = 0;
  if (Api().key_access(c.raw(), key.data(), key.size(), PLINTH_KEY_IDLE_MS, &idle_ms) != 1)
    idle_ms = 0;  // no such key (answered below), or an LFU policy that keeps no idle time
  const plinth_value_t* v = c.Get(key);
  if (!v) return c.Error(errors::kNoSuchKey);
  c.Simple(
      DebugObjectLine(v, Api().value_encoding_name(v), SerializedLength(v), c.NowMs(), idle_ms));
}

}  // namespace

void DebugCommand(Call& c) {
  const std::string_view sub = c.arg(1);
  const int argc = c.argc();
  if (argc == 2 && text::EqualsNoCase(sub, "help")) return Help(c);
  if (argc == 3 && text::EqualsNoCase(sub, "sleep")) return Sleep(c);
  if (argc == 3 && text::EqualsNoCase(sub, "object")) return Object(c);
  if (argc == 3 && text::EqualsNoCase(sub, "set-active-expire")) return SetActiveExpire(c);
  // Redis's own wording for DEBUG (lower-case "unknown", the argument as it was sent).
  c.Error(common::SubcommandSyntaxError("debug", sub));
}

}  // namespace plinth::diagnostics
