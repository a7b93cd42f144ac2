// hello: a third-party style Plinth plugin, built out of tree against the installed SDK.
//
//   HELLO.GREET [name]  -> "<greeting>, <name>!"  (name defaults to "world")
//   HELLO.COUNT key     -> increments the integer stored in a string key (a write: it is
//                          propagated verbatim to replicas and the AOF)
//   option hello.greeting (string, mutable, default "Hello")
//
// Everything runs on the main thread: handlers, init and the option's apply callback.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <plinth/plugin.hpp>
#include <string>
#include <string_view>

namespace plinth::hello {
namespace {

// The current greeting; set by the option's apply callback (at init and on CONFIG SET).
std::string greeting = "Hello";

// "<greeting>, <name>!"
std::string Greet(std::string_view name) {
  return greeting + ", " + std::string(name.empty() ? "world" : name) + "!";
}

// Parses a whole decimal int64 as Redis does for INCR ("12", "-3"; no spaces, no "+").
bool ParseInt64(std::string_view s, long long* out) {
  if (s.empty() || s.size() > 20 || s[0] == '+' || s[0] == ' ') return false;
  std::string text(s);
  char* end = nullptr;
  errno = 0;
  *out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && end == text.c_str() + text.size();
}

void GreetCommand(sdk::Call& c) {
  if (c.argc() > 2) return c.Error("ERR wrong number of arguments for 'hello.greet' command");
  c.Bulk(Greet(c.argc() == 2 ? c.arg(1) : std::string_view()));
}

void CountCommand(sdk::Call& c) {
  std::string_view key = c.arg(1);
  long long n = 0;
  if (const plinth_value_t* v = c.Get(key)) {
    if (sdk::Api().value_type(v) != PLINTH_TYPE_STRING)
      return c.Error("WRONGTYPE Operation against a key holding the wrong kind of value");
    if (!ParseInt64(sdk::StringOf(v), &n))
      return c.Error("ERR value is not an integer or out of range");
  }
  if (n == INT64_MAX) return c.Error("ERR increment or decrement would overflow");
  ++n;
  // Like INCR, the key keeps its time to live. The host propagates "HELLO.COUNT key" verbatim
  // because the keyspace changed.
  c.Put(key, sdk::Value::String(std::to_string(n)), PLINTH_SET_KEEPTTL);
  c.Integer(n);
}

int32_t ApplyGreeting(void*, const char*, const char* value, size_t len, int64_t, char* err,
                      size_t errlen) {
  if (len == 0) {
    std::snprintf(err, errlen, "the greeting must not be empty");
    return PLINTH_ERR;
  }
  greeting.assign(value, len);
  return PLINTH_OK;
}

const sdk::CommandDef kCommands[] = {
    {"hello.greet", -1, PLINTH_CMD_READONLY | PLINTH_CMD_FAST, 0, 0, 0, GreetCommand, "hello",
     "[name]", "Returns a greeting."},
    {"hello.count", 2, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM | PLINTH_CMD_FAST, 1, 1, 1,
     CountCommand, "hello", "key", "Increments the counter stored at key."},
};

bool Init() {
  plinth_option_spec_t opt{};
  opt.struct_size = sizeof opt;
  opt.name = "greeting";  // registered as "hello.greeting"
  opt.type = PLINTH_OPT_STRING;
  opt.flags = PLINTH_OPT_MUTABLE;
  opt.default_value = "Hello";
  opt.description = "the word HELLO.GREET greets with";
  opt.apply = ApplyGreeting;
  if (!sdk::Api().option_register(sdk::Host::self, &opt)) return false;
  return sdk::RegisterCommands(kCommands);
}

}  // namespace
}  // namespace plinth::hello

PLINTH_PLUGIN("hello", "1.0.0", "example plugin: HELLO.GREET and HELLO.COUNT", plinth::hello::Init,
              nullptr)
