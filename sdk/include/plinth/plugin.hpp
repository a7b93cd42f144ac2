// plinth/plugin.hpp - header-only C++17 wrapper over the C ABI in plugin.h.
//
// Gives RAII value references, std::string_view arguments, command registration with noexcept
// trampolines (an escaping exception becomes an "ERR ..." reply or a failed init), and the
// PLINTH_PLUGIN macro that emits the entry symbol and descriptor. Nothing here adds ABI: it all
// compiles down to calls through the host table. Same thread rules as plugin.h.
#ifndef PLINTH_PLUGIN_HPP
#define PLINTH_PLUGIN_HPP

#include <plinth/plugin.h>

#include <cstdarg>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one (Host::api above all).
#pragma GCC visibility push(hidden)
namespace plinth::sdk {

// The host table and this plugin's handle, set before the plugin's init runs. Each plugin .so
// has its own copy (hidden visibility).
struct Host {
  static inline const plinth_host_api_t* api = nullptr;
  static inline plinth_plugin_t* self = nullptr;
};

inline const plinth_host_api_t& Api() { return *Host::api; }

// Logs one printf-style line at level (PLINTH_LOG_*). Any thread.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void
Log(uint32_t level, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  size_t len = static_cast<size_t>(n) < sizeof buf ? static_cast<size_t>(n) : sizeof buf - 1;
  Api().log_write(Host::self, level, buf, len);
}

// An owned reference to a value. Releases it when destroyed. Any thread.
class Value {
 public:
  Value() = default;
  // Adopts a reference the caller already owns.
  static Value Adopt(plinth_value_t* v) { return Value(v); }
  // Takes a new reference to a borrowed value.
  static Value Retain(const plinth_value_t* v) {
    if (v) Api().value_retain(v);
    return Value(const_cast<plinth_value_t*>(v));
  }
  // A new string value holding a copy of s. Throws std::bad_alloc when the host is out of memory.
  static Value String(std::string_view s) {
    plinth_value_t* v = Api().value_create_string(s.data(), s.size());
    if (!v) throw std::bad_alloc();
    return Value(v);
  }
  Value(Value&& o) noexcept : v_(std::exchange(o.v_, nullptr)) {}
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      Reset();
      v_ = std::exchange(o.v_, nullptr);
    }
    return *this;
  }
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;
  ~Value() { Reset(); }

  explicit operator bool() const { return v_ != nullptr; }
  plinth_value_t* get() const { return v_; }
  // Gives up ownership of the reference to the caller.
  plinth_value_t* Release() { return std::exchange(v_, nullptr); }
  void Reset() {
    if (v_) Api().value_release(v_);
    v_ = nullptr;
  }

 private:
  explicit Value(plinth_value_t* v) : v_(v) {}
  plinth_value_t* v_ = nullptr;
};

// The bytes of a string value, or an empty view for other types.
inline std::string_view StringOf(const plinth_value_t* v) {
  size_t len = 0;
  const char* p = Api().value_string(v, &len);
  return p ? std::string_view(p, len) : std::string_view();
}

// Config options. A handle comes from option_register or FindOption; look it up once (at init)
// and keep it: reading through it is a field read, no lookup. Main thread.
inline const plinth_option_t* FindOption(const char* name) {
  return Api().option_find(Host::self, name);
}
// Registers an option (option_register) from its fields: name (bare with PLINTH_OPT_GLOBAL_NAME
// in flags, else "<plugin>.<name>"), PLINTH_OPT_* type and flags, default text, range, one
// line of help, and the apply callback with its ctx (may be nullptr). Returns the handle, or
// nullptr when the host refused it (a duplicate, or an invalid configured value). Init only.
inline const plinth_option_t* RegisterOption(const char* name, uint32_t type, uint32_t flags,
                                             const char* def, int64_t min, int64_t max,
                                             const char* description,
                                             plinth_option_apply_fn apply = nullptr,
                                             void* ctx = nullptr) {
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = name;
  o.type = type;
  o.flags = flags;
  o.default_value = def;
  o.min = min;
  o.max = max;
  o.description = description;
  o.apply = apply;
  o.ctx = ctx;
  return Api().option_register(Host::self, &o);
}
// The option's number (INT, MEMORY, BOOL 0/1, ENUM index), or def without a handle.
inline int64_t OptionInt(const plinth_option_t* o, int64_t def = 0) {
  return o ? Api().option_int(o) : def;
}
// The option's text, "" without a handle. OWNERSHIP: a copy.
inline std::string OptionString(const plinth_option_t* o) {
  size_t n = 0;
  const char* p = o ? Api().option_string(o, &n) : nullptr;
  return p ? std::string(p, n) : std::string();
}

// One command execution: arguments in, replies out. Main thread only.
class Call {
 public:
  explicit Call(plinth_call_t* c) : c_(c) {}
  plinth_call_t* raw() const { return c_; }

  int argc() const { return Api().call_argc(c_); }
  std::string_view arg(int i) const {
    size_t len = 0;
    const char* p = Api().call_arg(c_, i, &len);
    return p ? std::string_view(p, len) : std::string_view();
  }

  void Simple(std::string_view s) const { Api().reply_simple(c_, s.data(), s.size()); }
  void Ok() const { Simple("OK"); }
  // s is "CODE message"; "ERR syntax error".
  void Error(std::string_view s) const { Api().reply_error(c_, s.data(), s.size()); }
  void Integer(int64_t v) const { Api().reply_integer(c_, v); }
  void Bulk(std::string_view s) const { Api().reply_bulk(c_, s.data(), s.size()); }
  void Null() const { Api().reply_null(c_); }
  void NullArray() const { Api().reply_null_array(c_); }
  void Array(int64_t n) const { Api().reply_array(c_, n); }
  void Map(int64_t n) const { Api().reply_map(c_, n); }
  void Set(int64_t n) const { Api().reply_set(c_, n); }
  void Double(double v) const { Api().reply_double(c_, v); }
  void Bool(bool v) const { Api().reply_bool(c_, v ? 1 : 0); }
  void Verbatim(const char* fmt, std::string_view s) const {
    Api().reply_verbatim(c_, fmt, s.data(), s.size());
  }
  void ValueReply(const plinth_value_t* v) const { Api().reply_value(c_, v); }

  // Keys in the call's database.
  const plinth_value_t* Get(std::string_view k) const {
    return Api().key_get(c_, k.data(), k.size());
  }
  void Put(std::string_view k, Value v, uint32_t flags = 0) const {
    Api().key_set(c_, k.data(), k.size(), v.Release(), flags);
  }
  // Stores a copy of s as k's string value (key_string_set: in place when it can). Throws
  // std::bad_alloc when memory ran out.
  void PutString(std::string_view k, std::string_view s, uint32_t flags = 0) const {
    if (Api().key_string_set(c_, k.data(), k.size(), s.data(), s.size(), flags) != PLINTH_OK)
      throw std::bad_alloc();
  }
  bool Delete(std::string_view k) const { return Api().key_delete(c_, k.data(), k.size()) == 1; }
  int64_t ExpireGet(std::string_view k) const {
    return Api().key_expire_get(c_, k.data(), k.size());
  }
  bool ExpireSet(std::string_view k, int64_t when_ms) const {
    return Api().key_expire_set(c_, k.data(), k.size(), when_ms) == 1;
  }
  int64_t NowMs() const { return Api().call_time_ms(c_); }
  // Propagates command with args instead of the verbatim command (replicate; flags:
  // PLINTH_REPLICATE_*). Returns false when the host refused it (an unknown command, or an
  // arity that does not fit, unless validation is off).
  // Up to 8 arguments go through arrays on the stack: no allocation on this path.
  template <typename Range>
  bool Replicate(const char* command, const Range& args, uint32_t flags = 0) const {
    constexpr size_t kStack = 8;
    const char* sargv[kStack];
    size_t slens[kStack];
    std::vector<const char*> hargv;
    std::vector<size_t> hlens;
    size_t n = 0;
    for (std::string_view a : args) {
      if (n == kStack) {
        hargv.assign(sargv, sargv + kStack);
        hlens.assign(slens, slens + kStack);
      }
      if (n >= kStack) {
        hargv.push_back(a.data());
        hlens.push_back(a.size());
      } else {
        sargv[n] = a.data();
        slens[n] = a.size();
      }
      ++n;
    }
    const bool heap = n > kStack;
    return Api().replicate(c_, flags, command, static_cast<int32_t>(n), heap ? hargv.data() : sargv,
                           heap ? hlens.data() : slens) == PLINTH_OK;
  }
  bool Replicate(const char* command, std::initializer_list<std::string_view> args,
                 uint32_t flags = 0) const {
    return Replicate<std::initializer_list<std::string_view>>(command, args, flags);
  }
  // Raises keyspace event `event` (Redis's name) of class type (PLINTH_NOTIFY_*) on key k.
  void Event(uint32_t type, const char* event, std::string_view k) const {
    Api().keyspace_event(c_, type, event, k.data(), k.size());
  }

 private:
  plinth_call_t* c_;
};

// A command handler in C++. Exceptions that escape it become "ERR <what>" replies.
using Handler = void (*)(Call&);

namespace detail {
inline void HandlerTrampoline(plinth_call_t* call, void* ctx) noexcept {
  Call c(call);
  try {
    reinterpret_cast<Handler>(ctx)(c);
  } catch (const std::exception& e) {
    std::string msg = std::string("ERR ") + e.what();
    c.Error(msg);
  } catch (...) {
    c.Error("ERR internal error in command handler");
  }
}
}  // namespace detail

// Describes one command for RegisterCommand.
struct CommandDef {
  const char* name;
  int32_t arity;
  uint32_t flags;
  int32_t first_key, last_key, key_step;
  Handler handler;
  const char* group = nullptr;
  const char* args = nullptr;
  const char* summary = nullptr;
  const char* since = nullptr;
  uint64_t acl = 0;                  // PLINTH_ACL_* beyond those the flags imply
  uint32_t key_flags = 0;            // PLINTH_KEY_READ/WRITE of first_key..last_key (0: implied)
  plinth_keys_fn keys = nullptr;     // the keys of one call, when positions cannot say them
  const char* complexity = nullptr;  // COMMAND DOCS's complexity, "O(1)" (ABI 1.1)
};

// Registers a command. Returns false (and the host logs why) on failure. Init only.
inline bool RegisterCommand(const CommandDef& d) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = d.name;
  s.arity = d.arity;
  s.flags = d.flags;
  s.first_key = d.first_key;
  s.last_key = d.last_key;
  s.key_step = d.key_step;
  s.handler =
      d.handler ? &detail::HandlerTrampoline : nullptr;  // NULL: a subcommand's container runs it
  s.ctx = reinterpret_cast<void*>(d.handler);
  s.group = d.group;
  s.args = d.args;
  s.summary = d.summary;
  s.since = d.since;
  s.acl_categories = d.acl;
  s.keys = d.keys;
  s.key_flags = d.key_flags;
  s.complexity = d.complexity;
  return Api().command_register(Host::self, &s) == PLINTH_OK;
}

// Registers every command of a table; stops at the first failure.
template <size_t N>
bool RegisterCommands(const CommandDef (&defs)[N]) {
  for (const CommandDef& d : defs)
    if (!RegisterCommand(d)) return false;
  return true;
}

namespace detail {
// Runs a plugin's C++ init: records the host table, turns exceptions into a failed init.
inline int32_t InitTrampoline(plinth_plugin_t* self, const plinth_host_api_t* api,
                              bool (*init)()) noexcept {
  Host::api = api;
  Host::self = self;
  try {
    return init() ? PLINTH_OK : PLINTH_ERR;
  } catch (const std::exception& e) {
    Log(PLINTH_LOG_WARNING, "init threw: %s", e.what());
  } catch (...) {
    Log(PLINTH_LOG_WARNING, "init threw a non-standard exception");
  }
  return PLINTH_ERR;
}
inline void ShutdownTrampoline(void (*fn)()) noexcept {
  if (!fn) return;
  try {
    fn();
  } catch (...) {
    Log(PLINTH_LOG_WARNING, "shutdown threw; ignored");
  }
}
}  // namespace detail

}  // namespace plinth::sdk
#pragma GCC visibility pop

// Emits the descriptor and the entry symbol of a C++ plugin. init is `bool Init()`, shutdown is
// `void Shutdown()` or nullptr. Use it once per plugin, at namespace scope.
#define PLINTH_PLUGIN(NAME, VERSION, DESCRIPTION, INIT, SHUTDOWN)                               \
  static int32_t plinth_init_trampoline_(plinth_plugin_t* self, const plinth_host_api_t* api) { \
    return ::plinth::sdk::detail::InitTrampoline(self, api, INIT);                              \
  }                                                                                             \
  static void plinth_shutdown_trampoline_(plinth_plugin_t*) {                                   \
    ::plinth::sdk::detail::ShutdownTrampoline(SHUTDOWN);                                        \
  }                                                                                             \
  static const plinth_plugin_descriptor_t plinth_descriptor_ = {                                \
      sizeof(plinth_plugin_descriptor_t),                                                       \
      PLINTH_ABI_MAJOR,                                                                         \
      PLINTH_TARGET_MINOR,                                                                      \
      0,                                                                                        \
      NAME,                                                                                     \
      VERSION,                                                                                  \
      DESCRIPTION,                                                                              \
      &plinth_init_trampoline_,                                                                 \
      &plinth_shutdown_trampoline_,                                                             \
      {nullptr, nullptr, nullptr, nullptr}};                                                    \
  extern "C" PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) {     \
    return &plinth_descriptor_;                                                                 \
  }

#endif  // PLINTH_PLUGIN_HPP
