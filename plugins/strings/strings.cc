// The GET/SET family (GET, SET, SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX)
// and the registration table of the whole string group. Replies, error texts and propagated
// forms follow Redis 7.0. Main thread only.
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/acl_keys.h"
#include "strings/commands.h"
#include "strings/errors.h"
#include "strings/set_options.h"
#include "strings/string_values.h"

namespace plinth::strings {
namespace {

// Replies with key's string value (GET), null when missing. Returns false after replying
// WRONGTYPE.
bool ReplyStringOrNull(const Call& c, std::string_view key) {
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return false;
  if (v) {
    c.ValueReply(v);
  } else {
    c.Null();
  }
  return true;
}

// Resolves an expire option to an absolute time or replies its error. command names the
// command in "invalid expire time in '<command>' command".
bool ResolveExpireOrReply(const Call& c, const SetOptions& o, const char* command,
                          int64_t* when_ms) {
  switch (ResolveExpire(o.expire, o.expire_arg, c.NowMs(), when_ms)) {
    case ExpireStatus::kOk:
      return true;
    case ExpireStatus::kNotInteger:
      c.Error(errors::kNotInteger);
      return false;
    case ExpireStatus::kInvalid:
      c.Error(std::string(errors::kInvalidExpirePrefix) + command + "' command");
      return false;
  }
  return false;
}

// How SetGeneric answers when it stores (ok) or skips because of NX/XX (abort).
enum class SetReplies { kOkOrNull, kOneOrZero };

// The shared core of SET, SETNX, SETEX and PSETEX, in Redis's order: the expire is checked,
// then GET replies the old value, then NX/XX decide. A stored key with an expire propagates
// as "SET key value PXAT <ms>" so replicas and AOF replays get the same absolute time.
// Returns true when the key was stored.
bool SetGeneric(const Call& c, const SetOptions& o, std::string_view key, std::string_view value,
                const char* command, SetReplies replies) {
  int64_t when = 0;
  if (o.expire != ExpireKind::kNone && !ResolveExpireOrReply(c, o, command, &when)) {
    return false;
  }
  if (o.get && !ReplyStringOrNull(c, key)) return false;
  // Only NX/XX need to know: a plain SET overwrites without a lookup of its own.
  bool found = (o.nx || o.xx) && c.Get(key) != nullptr;
  if ((o.nx && found) || (o.xx && !found)) {
    if (!o.get) {
      if (replies == SetReplies::kOneOrZero) {
        c.Integer(0);
      } else {
        c.Null();
      }
    }
    return false;
  }
  c.PutString(key, value, o.keepttl ? PLINTH_SET_KEEPTTL : 0);
  c.Event(PLINTH_NOTIFY_STRING, "set", key);
  if (o.expire != ExpireKind::kNone) {
    c.ExpireSet(key, when);
    c.Event(PLINTH_NOTIFY_GENERIC, "expire", key);
    std::string ms = std::to_string(when);
    Propagate(c, "set", {key, value, "PXAT", ms}, false);
  }
  if (!o.get) {
    if (replies == SetReplies::kOneOrZero) {
      c.Integer(1);
    } else {
      c.Ok();
    }
  }
  return true;
}

void GetCommand(Call& c) { ReplyStringOrNull(c, c.arg(1)); }

void SetCommand(Call& c) {
  std::vector<std::string_view> args;
  for (int i = 3; i < c.argc(); ++i) args.push_back(c.arg(i));
  SetOptions o;
  if (!ParseSetOptions(args, OptionsFor::kSet, &o)) {
    c.Error(errors::kSyntax);
    return;
  }
  bool stored = SetGeneric(c, o, c.arg(1), c.arg(2), "set", SetReplies::kOkOrNull);
  // GET changes nothing on a replica: propagate the command without it, as Redis does (with
  // an expire SetGeneric already propagated the rewritten form).
  if (stored && o.get && o.expire == ExpireKind::kNone) {
    std::vector<std::string_view> rest = {c.arg(1), c.arg(2)};
    for (std::string_view a : args) {
      if (!IsGetOption(a)) rest.push_back(a);
    }
    Propagate(c, "set", rest, false);
  }
}

void SetNxCommand(Call& c) {
  SetOptions o;
  o.nx = true;
  SetGeneric(c, o, c.arg(1), c.arg(2), "setnx", SetReplies::kOneOrZero);
}

void SetExCommand(Call& c) {
  SetOptions o;
  o.expire = ExpireKind::kEx;
  o.expire_arg = c.arg(2);
  SetGeneric(c, o, c.arg(1), c.arg(3), "setex", SetReplies::kOkOrNull);
}

void PSetExCommand(Call& c) {
  SetOptions o;
  o.expire = ExpireKind::kPx;
  o.expire_arg = c.arg(2);
  SetGeneric(c, o, c.arg(1), c.arg(3), "psetex", SetReplies::kOkOrNull);
}

void GetSetCommand(Call& c) {
  if (!ReplyStringOrNull(c, c.arg(1))) return;
  c.PutString(c.arg(1), c.arg(2));
  c.Event(PLINTH_NOTIFY_STRING, "set", c.arg(1));
}

void GetDelCommand(Call& c) {
  std::string_view key = c.arg(1);
  if (!ReplyStringOrNull(c, key)) return;
  if (!c.Delete(key)) return;
  c.Event(PLINTH_NOTIFY_GENERIC, "del", key);
  Propagate(c, "del", {key}, true);
}

void GetExCommand(Call& c) {
  std::vector<std::string_view> args;
  for (int i = 2; i < c.argc(); ++i) args.push_back(c.arg(i));
  SetOptions o;
  if (!ParseSetOptions(args, OptionsFor::kGetEx, &o)) {
    c.Error(errors::kSyntax);
    return;
  }
  std::string_view key = c.arg(1);
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  if (!v) {
    c.Null();
    return;
  }
  int64_t when = 0;
  if (o.expire != ExpireKind::kNone && !ResolveExpireOrReply(c, o, "getex", &when)) return;
  c.ValueReply(v);
  // GETEX itself is never propagated: it becomes DEL, PEXPIREAT or PERSIST. When the keys
  // plugin that provides those is absent, an equivalent deterministic GETEX stands in.
  bool absolute = o.expire == ExpireKind::kExAt || o.expire == ExpireKind::kPxAt;
  if (absolute && when <= c.NowMs()) {
    c.Delete(key);
    c.Event(PLINTH_NOTIFY_GENERIC, "del", key);
    Propagate(c, "del", {key}, true);
  } else if (o.expire != ExpireKind::kNone) {
    c.ExpireSet(key, when);
    c.Event(PLINTH_NOTIFY_GENERIC, "expire", key);
    std::string ms = std::to_string(when);
    if (!Propagate(c, "pexpireat", {key, ms}, true)) {
      Propagate(c, "getex", {key, "PXAT", ms}, false);
    }
  } else if (o.persist && c.ExpireGet(key) >= 0) {
    c.ExpireSet(key, -1);
    c.Event(PLINTH_NOTIFY_GENERIC, "persist", key);
    Propagate(c, "persist", {key}, true);
  }
}

void MGetCommand(Call& c) {
  int n = c.argc() - 1;
  c.Array(n);
  for (int i = 1; i <= n; ++i) {
    const plinth_value_t* v = c.Get(c.arg(i));
    if (v && sdk::Api().value_type(v) == PLINTH_TYPE_STRING) {
      c.ValueReply(v);
    } else {
      c.Null();
    }
  }
}

// MSET and MSETNX: pairs of key value; with nx nothing is stored when any key exists.
void MSetGeneric(Call& c, bool nx) {
  if (c.argc() % 2 == 0) {
    c.Error(nx ? "ERR wrong number of arguments for 'msetnx' command"
               : "ERR wrong number of arguments for 'mset' command");
    return;
  }
  if (nx) {
    for (int i = 1; i < c.argc(); i += 2) {
      if (c.Get(c.arg(i))) {
        c.Integer(0);
        return;
      }
    }
  }
  for (int i = 1; i < c.argc(); i += 2) {
    c.PutString(c.arg(i), c.arg(i + 1));
    c.Event(PLINTH_NOTIFY_STRING, "set", c.arg(i));
  }
  if (nx) {
    c.Integer(1);
  } else {
    c.Ok();
  }
}

void MSetCommand(Call& c) { MSetGeneric(c, false); }
void MSetNxCommand(Call& c) { MSetGeneric(c, true); }

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kM = PLINTH_CMD_DENYOOM;
#define PLINTH_STRINGS_EXPIRE_ARGS \
  "EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds"
constexpr const char* kSetArgs = "key value [NX|XX] [GET] [" PLINTH_STRINGS_EXPIRE_ARGS "|KEEPTTL]";
constexpr const char* kGetExArgs = "key [" PLINTH_STRINGS_EXPIRE_ARGS "|PERSIST]";
#undef PLINTH_STRINGS_EXPIRE_ARGS

// COMMAND DOCS's complexity of each command, as Redis documents it: O(1) but for these.
const char* ComplexityOf(std::string_view name) {
  static constexpr const char* kRange =
      "O(N) where N is the length of the returned string. The complexity is ultimately "
      "determined by the returned length, but because creating a substring from an existing "
      "string is very cheap, it can be considered O(1) for small strings.";
  static constexpr std::pair<std::string_view, const char*> kNotConstant[] = {
      {"mget", "O(N) where N is the number of keys to retrieve."},
      {"mset", "O(N) where N is the number of keys to set."},
      {"msetnx", "O(N) where N is the number of keys to set."},
      {"append",
       "O(1). The amortized time complexity is O(1) assuming the appended value is small and "
       "the already present value is of any size, since the dynamic string library used by "
       "Redis will double the free space available on every reallocation."},
      {"getrange", kRange},
      {"substr", kRange},
      {"setrange",
       "O(1), not counting the time taken to copy the new string in place. Usually, this "
       "string is very small so the amortized complexity is O(1). Otherwise, complexity is "
       "O(M) with M being the length of the value argument."},
      {"lcs", "O(N*M) where N and M are the lengths of s1 and s2, respectively"},
  };
  for (const auto& [command, text] : kNotConstant)
    if (command == name) return text;
  return "O(1)";
}

}  // namespace

bool RegisterStringCommands() {
  using sdk::CommandDef;
  const char* s = "string";
  CommandDef defs[] = {
      {"get", 2, kR | kF, 1, 1, 1, GetCommand, s, "key", "Get the value of a key", "1.0.0",
       PLINTH_ACL_STRING},
      {"set", -3, kW | kM, 1, 1, 1, SetCommand, s, kSetArgs, "Set the string value of a key",
       "1.0.0", PLINTH_ACL_STRING, 0, &common::SetKeys},
      {"setnx", 3, kW | kM | kF, 1, 1, 1, SetNxCommand, s, "key value",
       "Set the value of a key, only if the key does not exist", "1.0.0", PLINTH_ACL_STRING,
       PLINTH_KEY_WRITE},
      {"setex", 4, kW | kM, 1, 1, 1, SetExCommand, s, "key seconds value",
       "Set the value and expiration of a key", "2.0.0", PLINTH_ACL_STRING, PLINTH_KEY_WRITE},
      {"psetex", 4, kW | kM, 1, 1, 1, PSetExCommand, s, "key milliseconds value",
       "Set the value and expiration in milliseconds of a key", "2.6.0", PLINTH_ACL_STRING,
       PLINTH_KEY_WRITE},
      {"getset", 3, kW | kM | kF, 1, 1, 1, GetSetCommand, s, "key value",
       "Set the string value of a key and return its old value", "1.0.0", PLINTH_ACL_STRING},
      {"getdel", 2, kW | kF, 1, 1, 1, GetDelCommand, s, "key",
       "Get the value of a key and delete the key", "6.2.0", PLINTH_ACL_STRING},
      {"getex", -2, kW | kF, 1, 1, 1, GetExCommand, s, kGetExArgs,
       "Get the value of a key and optionally set its expiration", "6.2.0", PLINTH_ACL_STRING},
      {"mget", -2, kR | kF, 1, -1, 1, MGetCommand, s, "key [key ...]",
       "Get the values of all the given keys", "1.0.0", PLINTH_ACL_STRING},
      {"mset", -3, kW | kM, 1, -1, 2, MSetCommand, s, "key value [key value ...]",
       "Set multiple keys to multiple values", "1.0.1", PLINTH_ACL_STRING, PLINTH_KEY_WRITE},
      {"msetnx", -3, kW | kM, 1, -1, 2, MSetNxCommand, s, "key value [key value ...]",
       "Set multiple keys to multiple values, only if none of the keys exist", "1.0.1",
       PLINTH_ACL_STRING, PLINTH_KEY_WRITE},
      {"append", 3, kW | kM | kF, 1, 1, 1, AppendCommand, s, "key value", "Append a value to a key",
       "2.0.0", PLINTH_ACL_STRING, PLINTH_KEY_WRITE},
      {"strlen", 2, kR | kF, 1, 1, 1, StrlenCommand, s, "key",
       "Get the length of the value stored in a key", "2.2.0", PLINTH_ACL_STRING, 0,
       &common::OneKey<1, 0>},
      {"incr", 2, kW | kM | kF, 1, 1, 1, IncrCommand, s, "key",
       "Increment the integer value of a key by one", "1.0.0", PLINTH_ACL_STRING},
      {"decr", 2, kW | kM | kF, 1, 1, 1, DecrCommand, s, "key",
       "Decrement the integer value of a key by one", "1.0.0", PLINTH_ACL_STRING},
      {"incrby", 3, kW | kM | kF, 1, 1, 1, IncrByCommand, s, "key increment",
       "Increment the integer value of a key by the given amount", "1.0.0", PLINTH_ACL_STRING},
      {"decrby", 3, kW | kM | kF, 1, 1, 1, DecrByCommand, s, "key decrement",
       "Decrement the integer value of a key by the given number", "1.0.0", PLINTH_ACL_STRING},
      {"incrbyfloat", 3, kW | kM | kF, 1, 1, 1, IncrByFloatCommand, s, "key increment",
       "Increment the float value of a key by the given amount", "2.6.0", PLINTH_ACL_STRING},
      {"getrange", 4, kR, 1, 1, 1, GetRangeCommand, s, "key start end",
       "Get a substring of the string stored at a key", "2.4.0", PLINTH_ACL_STRING},
      {"substr", 4, kR, 1, 1, 1, GetRangeCommand, s, "key start end",
       "Get a substring of the string stored at a key", "1.0.0", PLINTH_ACL_STRING},
      {"setrange", 4, kW | kM, 1, 1, 1, SetRangeCommand, s, "key offset value",
       "Overwrite part of a string at key starting at the specified offset", "2.2.0",
       PLINTH_ACL_STRING, PLINTH_KEY_WRITE},
      {"lcs", -3, kR, 1, 2, 1, LcsCommand, s,
       "key1 key2 [LEN] [IDX] [MINMATCHLEN min-match-len] [WITHMATCHLEN]",
       "Find longest common substring", "7.0.0", PLINTH_ACL_STRING},
  };
  for (CommandDef& d : defs) d.complexity = ComplexityOf(d.name);
  return sdk::RegisterCommands(defs);
}

}  // namespace plinth::strings
