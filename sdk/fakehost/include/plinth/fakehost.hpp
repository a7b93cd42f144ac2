// plinth/fakehost.hpp - the Plinth host's core in-process, for plugin unit tests.
//
// FakeHost runs the server's own core (keyspace, dispatch, options, propagation, INFO, loader
// checks) with a reply sink that builds reply trees, a clock the test drives and captured
// logs, so a test can load plugins, run their commands and inspect replies, propagation,
// options, INFO and logs without a server, and what it sees is what the server does. Each
// FakeHost is independent; several may live at once. Use each from one thread (loop_post,
// log_write and the value calls are also safe from other threads, as in the server).
#ifndef PLINTH_FAKEHOST_HPP
#define PLINTH_FAKEHOST_HPP

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::fakehost {

// The kind of one reply item; the values are the PLINTH_REPLY_* constants.
enum class ReplyType : uint32_t {
  kSimple = PLINTH_REPLY_SIMPLE,
  kError = PLINTH_REPLY_ERROR,
  kInteger = PLINTH_REPLY_INTEGER,
  kBulk = PLINTH_REPLY_BULK,
  kNull = PLINTH_REPLY_NULL,
  kNullArray = PLINTH_REPLY_NULL_ARRAY,
  kArray = PLINTH_REPLY_ARRAY,
  kMap = PLINTH_REPLY_MAP,
  kSet = PLINTH_REPLY_SET,
  kDouble = PLINTH_REPLY_DOUBLE,
  kBool = PLINTH_REPLY_BOOL,
  kVerbatim = PLINTH_REPLY_VERBATIM,
  kBigNumber = PLINTH_REPLY_BIGNUM,
  kPush = PLINTH_REPLY_PUSH,
};

// One reply as a tree. Aggregates hold their items in elements; a map holds key, value, key,
// value... (2n elements for n pairs).
struct Reply {
  ReplyType type = ReplyType::kNull;
  std::string str;              // simple, error ("ERR ..."), bulk, verbatim, big number
  int64_t integer = 0;          // integer; bool as 0/1
  double dbl = 0;               // double
  std::string format;           // verbatim: the 3-letter format ("txt")
  std::vector<Reply> elements;  // array, set, push, map

  bool IsError() const { return type == ReplyType::kError; }
  bool IsNull() const { return type == ReplyType::kNull || type == ReplyType::kNullArray; }
  // Renders the reply like redis-cli does on a terminal: `OK`, `"Hello"` (quoted, escaped),
  // `(integer) 3`, `(error) ERR ...`, `(nil)`, `(empty array)`, numbered nested lines
  // ("1) ...\n2) ..."), `1# "k" => "v"` for maps, `1~ "a"` for sets, `(double) 1.5`, `(true)`.
  std::string ToString() const;
};

// One captured log line. plugin is the writer's descriptor name ("" for the fake host itself).
struct LogLine {
  uint32_t level = PLINTH_LOG_NOTICE;  // PLINTH_LOG_*
  std::string plugin;
  std::string text;
};

// One entry of the propagation stream: argv to run in database db.
struct PropagatedCommand {
  int32_t db = 0;
  std::vector<std::string> argv;
};

class FakeHost {
 public:
  // A host with 16 empty databases, the clock at kDefaultTimeMs, one client (id 1, protocol
  // 2, authenticated) and the host's own options registered.
  FakeHost();
  // Runs Shutdown if it has not run, then frees every stored value and registration.
  ~FakeHost();
  FakeHost(const FakeHost&) = delete;
  FakeHost& operator=(const FakeHost&) = delete;

  static constexpr int64_t kDefaultTimeMs = 1700000000000;  // 2023-11-14, unix ms

  // -- the table --

  // The host API table handed to init; every field is set.
  const plinth_host_api_t* Api() const;
  // The same table, writable, to simulate an older host before Load (lower struct_size, clear
  // a field and test the plugin's PLINTH_HAS fallback).
  plinth_host_api_t* MutableApi();

  // -- loading --

  // Checks the descriptor like the real host (entry, abi, descriptor stages) and runs the
  // plugin's init against this host. On failure, every registration of the plugin is rolled
  // back, LoadError() holds "plugin <path>: <stage>: <reason>", the line is logged, and false
  // is returned. path only labels messages and plugin_at.
  bool Load(plinth_plugin_entry_v1_fn entry, std::string_view path = "fake");
  bool Load(const plinth_plugin_descriptor_t* descriptor, std::string_view path = "fake");
  // Loads a plugin .so file the way the server does (file checks, dlopen, entry, abi,
  // descriptor, init stages). Each .so keeps its own copy of the C++ wrapper's state, so
  // several plugins built with plugin.hpp (a type plugin and keys, say) load side by side.
  bool LoadFile(const std::string& path);
  // The message of the last failed Load, "" after a successful one.
  const std::string& LoadError() const;
  // Calls the loaded plugins' shutdown hooks in reverse load order, once, then stops any timer
  // left running (logging a warning for each) and empties the keyspace.
  void Shutdown();

  // -- commands --

  // Runs one command as the server runs it for a client and returns the reply the client
  // would read: lookup (any case), arity, auth, the handler. A handler that sends no reply
  // yields "ERR command '<name>' produced no reply"; one that replies more than once gives its
  // first reply, and one that leaves an aggregate short gets it completed with nulls, each
  // with a warning in Logs(), exactly as the server does. Afterwards the call's effects go to
  // the propagation stream: what replicate() emitted, or else the verbatim argv when a
  // PLINTH_CMD_WRITE command changed the keyspace (nothing for PLINTH_CMD_NOPROPAGATE or after
  // call_no_propagate). SHUTDOWN's reply is a null (the server closes the connection).
  Reply Call(const std::vector<std::string>& argv);
  // True when a command of that name (any case) is registered.
  bool HasCommand(std::string_view name) const;
  // The registered spec of a command (any case), or nullptr. OWNERSHIP: borrowed from the host.
  const plinth_command_spec_t* FindCommand(std::string_view name) const;
  // A plugin handle for host calls a test makes itself, outside any plugin (timer_start,
  // loop_post, option_find, time_us, value_create_typed). Its log lines are named "test".
  plinth_plugin_t* TestPlugin();

  // -- propagation --

  // Every propagated effect since construction (or ClearPropagated), in order. Lazy expiry of
  // a key read by a command appears as {"DEL", key}, like Redis.
  const std::vector<PropagatedCommand>& Propagated() const;
  void ClearPropagated();
  // The dirty counter: bumped by every key_set, effective key_delete, key_expire_set on an
  // existing key, key_move that moved, db_flush and db_swap.
  uint64_t Dirty() const;

  // -- keyspace (direct access for test setup and checks) --

  // The client's current database (SELECT from a command changes it too).
  void Select(int32_t db);
  int32_t CurrentDb() const;
  // Stores a string value under key in db (-1: the current db), clearing its TTL.
  void PutString(std::string_view key, std::string_view value, int32_t db = -1);
  // The string stored under key, or nullopt when it is missing, expired or not a string.
  std::optional<std::string> GetString(std::string_view key, int32_t db = -1) const;
  // Absolute expiry in unix ms, -1 when the key has no TTL, -2 when it does not exist.
  int64_t ExpireAtMs(std::string_view key, int32_t db = -1) const;
  // Sets key's absolute expiry (unix ms; -1 removes the TTL). Returns false when the key does
  // not exist. Does not count as a change (no dirty bump, nothing propagated).
  bool SetExpireAtMs(std::string_view key, int64_t when_ms, int32_t db = -1);
  // Number of keys in db, expired ones not yet removed included.
  uint64_t KeyCount(int32_t db = -1) const;
  // Values alive in this process (created through any fake host and not yet freed): stored
  // ones plus references a plugin still holds. Assert it returns to its earlier figure to
  // catch leaked references.
  static int64_t LiveValues();

  // -- clock, timers, tasks --

  // Sets the clock (time_us, call_time_ms, expiry) without firing timers.
  void SetTimeMs(int64_t unix_ms);
  int64_t TimeMs() const;
  // Moves the clock forward by ms, firing every timer that falls due on the way, in time
  // order, with the clock set to each timer's due time while it runs; every 100 ms of it the
  // core's active expiry runs, as the server's cron does at its default hz.
  void AdvanceTimeMs(int64_t ms);
  // Timers started and not yet stopped (one-shot timers count until they have fired).
  size_t ActiveTimers() const;
  // Runs the tasks queued with loop_post (including ones they queue). Returns how many ran.
  int RunPosted();

  // -- memory --

  // Sets the allocator's figure the core sees from now on (INFO used_memory, and what maxmemory
  // compares): a test puts the host over its limit with it and watches eviction or -OOM. 0
  // until set. Eviction lowers its own estimate by what it frees until it reads the figure
  // again (within a millisecond, as the server does): set it again where the allocator's would
  // change, as after an eviction.
  void SetUsedMemory(int64_t bytes);

  // -- options --

  // Before the option is registered: records the configured value, as --name value would;
  // option_register then validates and applies it. Afterwards: behaves like CONFIG SET
  // (the option must be mutable; the value is validated and applied) by the test itself, which
  // may set PLINTH_OPT_PROTECTED options too. Returns false with a reason in *error on failure.
  // The fake host starts with enable-debug-command "yes", so PLINTH_CMD_PROTECTED commands
  // (DEBUG) run, as in Redis's test suite, and enable-protected-configs "local": a client's
  // CONFIG SET (config_set) of a protected option is refused ("can't set protected config")
  // unless SetClientLocal made it local.
  bool SetOption(std::string_view name, std::string_view value, std::string* error = nullptr);
  // The current text of a registered option, or nullopt.
  std::optional<std::string> GetOption(std::string_view name) const;

  // -- INFO --

  // Renders the registered INFO sections like info_render: "# Name\r\nfield:value\r\n...".
  // section: "" (default), "all", "everything" or one section name (any case).
  std::string Info(std::string_view section = "");

  // -- logs --

  // Every line written with log_write and every load failure, in order. Nothing is printed
  // unless SetLogEcho(true) (then lines also go to stderr).
  std::vector<LogLine> Logs() const;
  // True when some captured line contains text.
  bool LogContains(std::string_view text) const;
  void ClearLogs();
  void SetLogEcho(bool echo);

  // -- more clients (blocking commands, pub/sub) --

  // A new client (protocol 2, authenticated, db 0); returns its id (2, 3, ...). Client 1 is
  // the one Call and the other calls use.
  uint64_t AddClient();
  // Runs argv as that client, as Call does. Returns its reply, or nullopt when the command
  // blocked the client (its reply comes later, through TakeReplies). Replies pushed to the
  // client before its own (a RESP3 subscriber's own PUBLISH) go to TakeReplies too.
  std::optional<Reply> CallAs(uint64_t client, const std::vector<std::string>& argv);
  // The replies the client received outside its own calls, oldest first (a blocked command's
  // reply once a key woke it or its timeout passed, pub/sub messages); taking empties them.
  std::vector<Reply> TakeReplies(uint64_t client = 1);
  // Whether the client is blocked in a blocking command.
  bool Blocked(uint64_t client = 1) const;
  // Disconnects a client other than 1: its blocked command and state are forgotten.
  void CloseClient(uint64_t client);
  // Sets a client's protocol version (2 or 3).
  void SetClientProtocol(uint64_t client, int32_t version);
  // Whether a client counts as local (loopback or unix socket; default: not), which
  // enable-protected-configs "local" and enable-debug-command "local" allow.
  void SetClientLocal(uint64_t client, bool local);

  // -- the client and the server --

  // The protocol version client_protocol reports (2 or 3).
  void SetProtocol(int32_t version);
  int32_t Protocol() const;
  // The client's authentication. As in the server, an unauthenticated client gets "NOAUTH
  // Authentication required." for commands without PLINTH_CMD_NOAUTH only while requirepass
  // is set (SetOption("requirepass", ...)).
  void SetAuthenticated(bool yes);
  // Whether a handler asked for client_close_after_reply / server_shutdown (sticky).
  bool CloseRequested() const;
  bool ShutdownRequested() const;

  // -- other registrations, for tests of protocol, transport and stream plugins --

  // The registered protocol, reply path, or nullptr. OWNERSHIP: borrowed from the host.
  const plinth_protocol_spec_t* RegisteredProtocol() const;
  const plinth_reply_path_spec_t* RegisteredReplyPath() const;
  // The registered transports in id order.
  std::vector<const plinth_transport_spec_t*> RegisteredTransports() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_HPP
