// Internal state of the fake host: the records behind the opaque ABI handles and
// FakeHost::Impl, shared by the files that implement the host table. Not installed.
// Main thread only, except the log and task queues (mutex) and value refcounts (atomic).
#ifndef PLINTH_FAKEHOST_INTERNAL_H
#define PLINTH_FAKEHOST_INTERNAL_H

#include <plinth/plugin.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <plinth/fakehost.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keyspace.h"
#include "reply_builder.h"
#include "values.h"

namespace plinth::fakehost {

// A loaded (or loading) plugin; plinth_plugin_t* points to one.
struct PluginRec {
  FakeHost::Impl* host = nullptr;
  plinth_plugin_descriptor_t desc{};  // zero-filled copy of the plugin's descriptor
  std::string name;
  std::string path;
  bool in_init = false;
  bool shut_down = false;
  mutable std::string last_warning;  // last warning logged during init: a failed init's reason
};

struct CommandRec {
  plinth_command_spec_t spec{};  // string fields point at the owned strings below
  std::string name, summary, since, group, args;
  PluginRec* owner = nullptr;
};

struct OptionRec {
  plinth_option_spec_t spec{};  // string fields point at the owned strings below
  std::string full_name, short_name, default_value, enum_values, description;
  std::string value;  // current value, normalized
  PluginRec* owner = nullptr;
};

struct InfoRec {
  std::string section;  // lower case
  plinth_info_fn fn = nullptr;
  void* ctx = nullptr;
  PluginRec* owner = nullptr;
};

struct TypeRec {
  uint32_t id = 0;
  std::string name;
  plinth_type_spec_t spec{};
  PluginRec* owner = nullptr;
};

// A named extension (protocol, transport, reply path, stream consumer): a copied spec.
template <typename Spec>
struct SpecRec {
  Spec spec{};
  std::string name;
  PluginRec* owner = nullptr;
};

struct TimerRec {
  uint64_t seq = 0;  // start order, breaks ties between timers due at the same time
  int64_t due_ms = 0;
  uint64_t repeat_ms = 0;
  plinth_timer_fn fn = nullptr;
  void* arg = nullptr;
  const PluginRec* owner = nullptr;  // the plugin whose init started it, else nullptr
};

// One command execution; plinth_call_t* points to one.
struct CallRec {
  FakeHost::Impl* host = nullptr;
  const CommandRec* cmd = nullptr;
  std::vector<std::string> argv;
  int32_t db = 0;
  int64_t time_ms = 0;
  ReplyBuilder replies;
  bool replicated = false;
  bool no_propagate = false;
  std::vector<PropagatedCommand> pending;  // effects, emitted when the handler returns
};

struct FakeHost::Impl {
  Impl();

  plinth_host_api_t table{};
  Keyspace keyspace;
  int64_t now_ms = kDefaultTimeMs;
  uint64_t dirty = 0;
  uint64_t stat_resets = 0;
  uint64_t expired_keys = 0;

  std::vector<std::unique_ptr<PluginRec>> plugins;  // loaded, in load order
  std::vector<std::unique_ptr<PluginRec>> failed;   // kept so a stale self stays valid
  PluginRec* loading = nullptr;                     // the plugin whose init is running
  std::string load_error;
  bool shutdown_done = false;

  std::vector<std::unique_ptr<CommandRec>> commands;
  std::vector<std::unique_ptr<OptionRec>> options;
  std::map<std::string, std::string, std::less<>> configured;  // SetOption before register
  std::vector<std::unique_ptr<InfoRec>> infos;
  std::vector<std::unique_ptr<TypeRec>> types;
  std::unique_ptr<SpecRec<plinth_protocol_spec_t>> protocol;
  std::unique_ptr<SpecRec<plinth_reply_path_spec_t>> reply_path;
  std::vector<std::unique_ptr<SpecRec<plinth_transport_spec_t>>> transports;
  std::vector<std::unique_ptr<SpecRec<plinth_stream_consumer_spec_t>>> consumers;
  uint32_t next_type_id = 16;

  std::map<uint64_t, std::unique_ptr<TimerRec>> timers;  // by start order
  uint64_t next_timer_seq = 1;

  std::vector<PropagatedCommand> propagated;
  CallRec* current_call = nullptr;

  // client
  int32_t client_db = 0;
  int32_t client_protocol = 2;
  bool authenticated = true;
  bool close_requested = false;
  bool shutdown_requested = false;
  std::map<uint32_t, std::string> client_attrs;

  // guarded by mu: written from any thread
  mutable std::mutex mu;
  std::vector<LogLine> logs;
  bool log_echo = false;
  std::vector<std::pair<plinth_task_fn, void*>> posted;

  // -- helpers shared by the api files --

  void Log(const PluginRec* plugin, uint32_t level, std::string_view text);
  const CommandRec* FindCommand(std::string_view name) const;
  OptionRec* FindOption(std::string_view full_name) const;
  const TypeRec* FindType(uint32_t id) const;
  // The live entry under key (deleting it and queueing a DEL effect when expired).
  Entry* Lookup(CallRec* call, int32_t db, std::string_view key);
  // Appends one effect to the stream and hands it to every stream consumer.
  void Emit(const PropagatedCommand& cmd);
  // The plugin behind self when it may register now (its init is running); otherwise logs why
  // not (naming what) and returns nullptr.
  PluginRec* Registering(plinth_plugin_t* self, const char* what);
  // Removes every registration owned by plugin and stops the timers its init started (a
  // failed init).
  void Rollback(const PluginRec* plugin);
  Reply Execute(const std::vector<std::string>& argv);
  bool LoadDescriptor(const plinth_plugin_descriptor_t* d, std::string_view path);
  bool FailLoad(std::string_view path, std::string_view stage, std::string_view reason);
  void RenderInfo(std::string_view section, std::string* out);
};

// The current fake host: context-free table functions (option_get_int, time_us, ...) use it.
// Set by the constructor and by every FakeHost entry point.
extern std::atomic<FakeHost::Impl*> g_current;

inline PluginRec* PluginOf(plinth_plugin_t* self) { return reinterpret_cast<PluginRec*>(self); }
inline CallRec* CallOf(plinth_call_t* call) { return reinterpret_cast<CallRec*>(call); }

// The plugin behind self when it may register now (its init is running), else nullptr after
// logging why. what names the registration call in the message.
PluginRec* RegisteringPlugin(plinth_plugin_t* self, const char* what);

// Copies a plugin's struct of any size into out: a smaller (older) one is zero-filled, a larger
// one is refused when its unknown tail is not all zero bytes. Returns false on refusal.
bool CopySpec(const void* in, size_t out_size, void* out);
template <typename T>
bool CopySpec(const T* in, T* out) {
  return in != nullptr && CopySpec(static_cast<const void*>(in), sizeof(T), out);
}

// Lower-cases ASCII.
std::string Lower(std::string_view s);
bool EqualsNoCase(std::string_view a, std::string_view b);

// Fill the host table, one area per file.
void FillRegistrationApi(plinth_host_api_t* t);  // api_register.cc
void FillConfigApi(plinth_host_api_t* t);        // api_config.cc
void FillCallApi(plinth_host_api_t* t);          // api_call.cc
void FillKeyApi(plinth_host_api_t* t);           // api_keys.cc
void FillServerApi(plinth_host_api_t* t);        // api_server.cc

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_INTERNAL_H
