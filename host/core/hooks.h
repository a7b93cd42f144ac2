// What plugins hook into the host besides commands (registry.h): the endpoints (the protocol,
// the transports, the reply path) and the listeners (stream consumers, before-sleep hooks, INFO
// sections; the event listeners are events.h's), each tagged with its owner so a failed init
// can be rolled back. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plinth::host {

struct Protocol {
  plinth_protocol_spec_t spec{};
  std::string name, owner;
  uint32_t abi_minor = 0;        // the owner's descriptor's: the newest reply types it is given
  bool map_reply_types = false;  // some reply type is newer: ReplyTypeForMinor each item
};

struct Transport {
  plinth_transport_spec_t spec{};
  std::string name, owner;
  bool started = false;
};

struct InfoSection {
  std::string name, owner;
  plinth_info_fn fn;
  void* ctx;
};

struct KeyspaceListener {
  plinth_keyspace_listener_fn fn;
  void* ctx;
  std::string owner;
};

struct ClientListener {
  plinth_client_event_fn fn;
  void* ctx;
  std::string owner;
};

// A key change listener (key_change_listener_register); on: key_change_listener_set.
struct KeyChangeListener {
  plinth_key_change_fn fn;
  void* ctx;
  bool on;
  int64_t id;
  std::string owner;
};

struct StreamConsumer {
  plinth_stream_consumer_spec_t spec{};
  std::string name, owner;
  bool active = true;  // stream_consumer_active: whether on_batch hears batches
};

// A command observer (command_observer_register): hears commands that ran at least min_us
// (-1: off).
struct CommandObserver {
  plinth_command_observer_fn fn;
  void* ctx;
  int64_t min_us;
  int64_t id;
  std::string owner;
};

// A before-sleep hook (before_sleep_register).
struct BeforeSleepHook {
  plinth_task_fn fn;
  void* ctx;
  std::string owner;
};

struct ReplyPath {
  plinth_reply_path_spec_t spec{};
  std::string name, owner;
};

// The protocol, the transports and the reply path: how requests come in and replies go out.
// Drops the elements of v (records with an owner field) that owner registered.
template <typename T>
void EraseOwned(std::vector<T>& v, const std::string& owner) {
  v.erase(std::remove_if(v.begin(), v.end(), [&](const T& e) { return e.owner == owner; }),
          v.end());
}

class Endpoints {
 public:
  // Sets the one protocol. Returns "" or the reason it was refused.
  std::string SetProtocol(const plinth_protocol_spec_t* spec, const std::string& owner,
                          uint32_t abi_minor);
  // Adds a transport. Returns its id or -1 with *err.
  int32_t AddTransport(const plinth_transport_spec_t* spec, const std::string& owner,
                       std::string* err);
  // Sets the one reply path. Returns "" or the reason it was refused.
  std::string SetReplyPath(const plinth_reply_path_spec_t* spec, const std::string& owner);
  // Drops what owner registered (a transport's id stays taken).
  void RemoveOwner(const std::string& owner);

  std::unique_ptr<Protocol> protocol;
  std::vector<std::unique_ptr<Transport>> transports;  // index is the transport id
  std::unique_ptr<ReplyPath> reply_path;
};

// The plugins' listeners and hooks, in registration order.
class Listeners {
 public:
  // Adds a stream consumer. Returns "" or the reason it was refused.
  std::string AddConsumer(const plinth_stream_consumer_spec_t* spec, const std::string& owner);
  // Adds an INFO section. Returns "" or the reason it was refused.
  std::string AddInfoSection(const char* name, plinth_info_fn fn, void* ctx,
                             const std::string& owner);
  // Drops what owner registered.
  void RemoveOwner(const std::string& owner);

  std::vector<StreamConsumer> consumers;
  std::vector<BeforeSleepHook> before_sleep;
  std::vector<InfoSection> info_sections;
};

}  // namespace plinth::host
