// ctr: a third-party style Plinth plugin showing the three ways to put effects on the
// propagation stream (replicas, the AOF) yourself, instead of letting the host send the command
// verbatim. Counters are plain string values, so a replica needs only the strings plugin.
//
//   CTR.INCRBY key n        -> the counter after adding n. Emits SET key <value> KEEPTTL with
//                              PLINTH_REPLICATE_NO_VALIDATE: the hot path, whose argv the plugin
//                              builds itself (a fixed name, a fixed arity, every argument set).
//   CTR.SET key n           -> OK. Emits SET key n KEEPTTL, validated: when the server has no
//                              SET that takes those arguments, the client gets an error and
//                              nothing changes.
//   CTR.TRANSFER src dst n  -> the new [src, dst]. Emits DECRBY src n, INCRBY dst n and
//                              INCR ctr:transfers: three effects of one command, which reach
//                              replicas as one MULTI ... EXEC unit.
//   CTR.HALVE key           -> the counter after halving it (towards zero); emits SET ... KEEPTTL.
//   option ctr.decay-ms (int, mutable, default 0 = off): every decay-ms, the counters that
//   CTR.INCRBY touched since the last sweep are halved from a timer, outside any command: the
//   sweep applies CTR.HALVE through an internal client that does not propagate and emits each
//   result itself with replicate_db, one unit per counter, skipping counters already at 0.
//
// Everything runs on the main thread. A plugin thread would hand its work to the loop with
// loop_post and call replicate_db from the posted task, exactly as the timer does here.
#include <charconv>
#include <cstdint>
#include <cstring>
#include <plinth/plugin.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace plinth::ctr {
namespace {

constexpr char kTransfersKey[] = "ctr:transfers";
constexpr size_t kMaxTracked = 100000;  // counters the decay sweep remembers at most

// State of the decay sweep (main thread only).
struct Decay {
  int64_t period_ms = 0;
  plinth_timer_t* timer = nullptr;
  plinth_client_t* client = nullptr;                  // internal, PLINTH_INTERNAL_NO_PROPAGATE
  int32_t client_db = 0;                              // the database it is in
  std::set<std::pair<int32_t, std::string>> touched;  // (db, key) since the last sweep
  bool halved = false;                                // what the last CTR.HALVE left:
  int64_t halved_value = 0;                           //   whether it changed the key, and its value
};
Decay decay;

// Parses a whole decimal int64 as Redis does for INCRBY ("12", "-3"; no spaces, no "+").
bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty() || s[0] == '+') return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Reads the counter at key: false (with the error replied) when it is not an integer string.
bool ReadCounter(const sdk::Call& c, std::string_view key, int64_t* n) {
  *n = 0;
  const plinth_value_t* v = c.Get(key);
  if (!v) return true;
  if (sdk::Api().value_type(v) != PLINTH_TYPE_STRING) {
    c.Error("WRONGTYPE Operation against a key holding the wrong kind of value");
    return false;
  }
  if (!ParseInt64(sdk::StringOf(v), n)) {
    c.Error("ERR value is not an integer or out of range");
    return false;
  }
  return true;
}

// The decimal text of n in buf (at least 21 bytes).
std::string_view Text(int64_t n, char* buf) {
  return std::string_view(buf, static_cast<size_t>(std::to_chars(buf, buf + 21, n).ptr - buf));
}

// Emits SET key value KEEPTTL for the current call, with no allocation: stack arrays straight
// into replicate() (sdk::Call::Replicate copies into vectors, fine off the hot path).
int32_t ReplicateSet(const sdk::Call& c, uint32_t flags, std::string_view key,
                     std::string_view value) {
  const char* argv[3] = {key.data(), value.data(), "KEEPTTL"};
  const size_t len[3] = {key.size(), value.size(), 7};
  return sdk::Api().replicate(c.raw(), flags, "SET", 3, argv, len);
}

void IncrByCommand(sdk::Call& c) {
  const std::string_view key = c.arg(1);
  int64_t by = 0, n = 0;
  if (!ParseInt64(c.arg(2), &by)) return c.Error("ERR value is not an integer or out of range");
  if (!ReadCounter(c, key, &n)) return;
  if (__builtin_add_overflow(n, by, &n))
    return c.Error("ERR increment or decrement would overflow");
  char buf[24];
  const std::string_view text = Text(n, buf);
  c.PutString(key, text, PLINTH_SET_KEEPTTL);
  // Every argument is built here and SET's shape never changes: nothing to check, so the
  // command-table lookup is skipped. A server without SET would still get SET in its stream;
  // the README says this plugin needs the strings plugin.
  ReplicateSet(c, PLINTH_REPLICATE_NO_VALIDATE, key, text);
  if (decay.period_ms > 0 && decay.touched.size() < kMaxTracked)
    decay.touched.emplace(sdk::Api().db_current(c.raw()), key);
  c.Integer(n);
}

void SetCommand(sdk::Call& c) {
  const std::string_view key = c.arg(1), value = c.arg(2);
  int64_t n = 0;
  if (!ParseInt64(value, &n)) return c.Error("ERR value is not an integer or out of range");
  // Validated, before anything changes: the effect goes into the stream only if this server
  // has a SET that takes key value KEEPTTL. Appended now, it is delivered only after the
  // command returns, so emitting before the change is safe.
  if (ReplicateSet(c, 0, key, value) != PLINTH_OK)
    return c.Error("ERR ctr: this server cannot replicate SET key value KEEPTTL");
  c.PutString(key, value, PLINTH_SET_KEEPTTL);
  c.Ok();
}

void TransferCommand(sdk::Call& c) {
  const std::string_view src = c.arg(1), dst = c.arg(2), amount = c.arg(3);
  int64_t n = 0, a = 0, b = 0, transfers = 0;
  if (!ParseInt64(amount, &n) || n <= 0)
    return c.Error("ERR the amount must be a positive integer");
  if (src == dst) return c.Error("ERR source and destination are the same counter");
  if (!ReadCounter(c, src, &a) || !ReadCounter(c, dst, &b) ||
      !ReadCounter(c, kTransfersKey, &transfers))
    return;
  if (a < n) return c.Error("ERR insufficient balance");
  if (__builtin_add_overflow(b, n, &b) || transfers == INT64_MAX)
    return c.Error("ERR increment or decrement would overflow");
  a -= n;
  // The first effect is validated: if this server has no DECRBY the client gets an error and
  // nothing was emitted or changed. INCRBY and INCR come from the same strings plugin as DECRBY
  // and their arguments are built here, so they skip the lookup. The second effect makes the
  // host insert MULTI before the first; EXEC follows when the command returns.
  const char* dec_argv[2] = {src.data(), amount.data()};
  const size_t dec_len[2] = {src.size(), amount.size()};
  if (sdk::Api().replicate(c.raw(), 0, "DECRBY", 2, dec_argv, dec_len) != PLINTH_OK)
    return c.Error("ERR ctr: this server cannot replicate DECRBY");
  const char* inc_argv[2] = {dst.data(), amount.data()};
  const size_t inc_len[2] = {dst.size(), amount.size()};
  sdk::Api().replicate(c.raw(), PLINTH_REPLICATE_NO_VALIDATE, "INCRBY", 2, inc_argv, inc_len);
  const char* log_argv[1] = {kTransfersKey};
  const size_t log_len[1] = {sizeof kTransfersKey - 1};
  sdk::Api().replicate(c.raw(), PLINTH_REPLICATE_NO_VALIDATE, "INCR", 1, log_argv, log_len);
  char buf[24];
  c.PutString(src, Text(a, buf), PLINTH_SET_KEEPTTL);
  c.PutString(dst, Text(b, buf), PLINTH_SET_KEEPTTL);
  c.PutString(kTransfersKey, Text(transfers + 1, buf), PLINTH_SET_KEEPTTL);
  c.Array(2);
  c.Integer(a);
  c.Integer(b);
}

void HalveCommand(sdk::Call& c) {
  const std::string_view key = c.arg(1);
  int64_t n = 0;
  decay.halved = false;
  if (!ReadCounter(c, key, &n)) return;
  if (n != 0) {
    n /= 2;
    char buf[24];
    const std::string_view text = Text(n, buf);
    c.PutString(key, text, PLINTH_SET_KEEPTTL);
    // A client's CTR.HALVE emits here; the sweep's internal client does not propagate, so for
    // it this appends nothing and the sweep emits the result with replicate_db.
    ReplicateSet(c, PLINTH_REPLICATE_NO_VALIDATE, key, text);
    decay.halved = true;
    decay.halved_value = n;
  }
  c.Integer(n);
}

// The decay sweep, from a timer (main thread, outside any command). Each counter is halved by
// CTR.HALVE run through the plugin's internal client, then emitted with replicate_db as a unit
// of its own in its database. Validated: not a hot path, and the stream must not get SET from
// a server that cannot run it.
void Sweep(void*) {
  auto touched = std::move(decay.touched);
  decay.touched.clear();
  for (const auto& [db, key] : touched) {
    if (db != decay.client_db) {  // SELECT is the server plugin's; without it, skip other databases
      char num[12];
      const std::string_view dbtext = Text(db, num);
      const char* argv[2] = {"SELECT", dbtext.data()};
      const size_t len[2] = {6, dbtext.size()};
      if (sdk::Api().client_exec(decay.client, 2, argv, len, nullptr, 0) != PLINTH_OK) continue;
      decay.client_db = db;
    }
    const char* argv[2] = {"CTR.HALVE", key.c_str()};
    const size_t len[2] = {9, key.size()};
    decay.halved = false;
    if (sdk::Api().client_exec(decay.client, 2, argv, len, nullptr, 0) != PLINTH_OK ||
        !decay.halved)
      continue;
    char buf[24];
    const std::string_view text = Text(decay.halved_value, buf);
    const char* set_argv[3] = {key.c_str(), text.data(), "KEEPTTL"};
    const size_t set_len[3] = {key.size(), text.size(), 7};
    if (sdk::Api().replicate_db(sdk::Host::self, db, 0, "SET", 3, set_argv, set_len) != PLINTH_OK)
      sdk::Log(PLINTH_LOG_WARNING, "ctr: decay of '%s' not replicated: the server has no SET",
               key.c_str());
  }
}

int32_t ApplyDecay(void*, const char*, const char*, size_t, int64_t ms, char*, size_t) {
  decay.period_ms = ms;
  if (decay.timer) sdk::Api().timer_stop(decay.timer);
  decay.timer = nullptr;
  decay.touched.clear();
  if (ms > 0) {
    const auto period = static_cast<uint64_t>(ms);
    decay.timer = sdk::Api().timer_start(sdk::Host::self, period, period, Sweep, nullptr);
  }
  return PLINTH_OK;
}

const sdk::CommandDef kCommands[] = {
    {"ctr.incrby", 3, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_FAST, 1, 1, 1,
     IncrByCommand, "ctr", "key increment", "Adds increment to the counter at key."},
    {"ctr.set", 3, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_FAST, 1, 1, 1, SetCommand,
     "ctr", "key value", "Sets the counter at key, keeping its TTL."},
    {"ctr.transfer", 4, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_FAST, 1, 2, 1,
     TransferCommand, "ctr", "source destination amount",
     "Moves amount from one counter to another, atomically on replicas too."},
    {"ctr.halve", 2, PLINTH_CMD_WRITE | PLINTH_CMD_FAST, 1, 1, 1, HalveCommand, "ctr", "key",
     "Halves the counter at key (towards zero)."},
};

bool Init() {
  decay.client = sdk::Api().client_create_internal(sdk::Host::self, PLINTH_INTERNAL_NO_PROPAGATE);
  if (!decay.client || !sdk::RegisterCommands(kCommands)) return false;
  plinth_option_spec_t opt{};
  opt.struct_size = sizeof opt;
  opt.name = "decay-ms";  // registered as "ctr.decay-ms"
  opt.type = PLINTH_OPT_INT;
  opt.flags = PLINTH_OPT_MUTABLE;
  opt.default_value = "0";
  opt.min = 0;
  opt.max = 86400000;
  opt.description = "halve the counters CTR.INCRBY touched every this many ms (0: never)";
  opt.apply = ApplyDecay;
  return sdk::Api().option_register(sdk::Host::self, &opt) != nullptr;
}

void Shutdown() {
  if (decay.timer) sdk::Api().timer_stop(decay.timer);
  if (decay.client) sdk::Api().client_destroy_internal(decay.client);
  decay = Decay{};
}

}  // namespace
}  // namespace plinth::ctr

PLINTH_PLUGIN("ctr", "1.0.0", "example plugin: counters that replicate their own effects",
              plinth::ctr::Init, plinth::ctr::Shutdown)
