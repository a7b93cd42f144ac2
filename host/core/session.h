// The core's view of one client: what commands read and change (database, protocol version,
// authentication, names) and what CLIENT LIST shows of its last command. The shell's client
// embeds one; the fake host has one. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "host/core/blocking.h"
#include "host/core/transaction.h"

namespace plinth::host {

struct Command;

struct Session {
  uint64_t id = 0;
  int32_t db = 0;
  int32_t proto = 2;
  bool authenticated = false;
  bool close_after_reply = false;
  bool internal = false;         // a plugin's trusted client (client_create_internal)
  bool no_propagate = false;     // its effects stay off the propagation stream
  bool replica = false;          // client_set_replica: a replica's link (flag S, replica limits)
  bool no_touch = false;         // CLIENT NO-TOUCH: its commands leave access stamps
  bool local = false;            // loopback or unix socket (enable-debug-command local)
  bool acl_restricted = false;   // user_id's commands go through the ACL provider's check
  uint64_t user_id = 0;          // the ACL provider's user; 0: the default user, never authed
  std::string user = "default";  // its name, for CLIENT LIST's user=
  // A session call_command made for a plugin's call: kRunSession plus its PLINTH_RUN_* flags.
  static constexpr uint32_t kRunSession = 0x80000000u;
  uint32_t run_flags = 0;
  std::string name, lib_name, lib_ver;
  const Command* last_command = nullptr;  // for CLIENT LIST's cmd=
  std::string last_subcommand;            // set for container commands (CLIENT LIST)
  int64_t last_interaction_ms = 0;
  uint64_t commands = 0;
  int64_t sub_channels = 0, sub_patterns = 0;  // client_set_subscriptions
  Transaction tx;                              // MULTI queue and watched keys
  std::unique_ptr<BlockedCommand> block;       // set while blocked (Core::blocking)
};

// What the env knows of a client's connection, for its CLIENT LIST line.
struct ConnFields {
  std::string_view addr, laddr;
  int fd = -1;
  int64_t age_s = 0, idle_s = 0;
  size_t qbuf = 0, qbuf_free = 0, rbs = 0, oll = 0, omem = 0, tot_mem = 0;
  int io_thread = 0;  // the IO thread serving it (0: the main thread)
};

// The CLIENT LIST line of a client (Redis's fields, no trailing newline).
std::string ClientListLine(const Session& s, const ConnFields& f);

// Where a command's reply items go: the shell encodes them for the client's connection, the
// fake host builds a reply tree. A sink sets the two functions; they are plain function
// pointers rather than virtual functions so a sink lives inside a client without a vtable (one
// indirect call either way). Main thread only.
struct ReplySink {
  // One reply item. OWNERSHIP: item and its data are borrowed for the call only.
  void (*item)(ReplySink* self, const plinth_reply_item_t& item) = nullptr;
  // A bulk whose bytes stay owned by the caller until release(arg), called exactly once after
  // they were written or dropped.
  void (*ref)(ReplySink* self, const char* data, size_t len, plinth_release_fn release,
              void* arg) = nullptr;

  // A string value's bytes as a bulk reply: copied now, or retained and copied before they
  // are written. nullptr: the core sends them as a bulk item. OWNERSHIP: v is borrowed for
  // the call; the sink retains it to keep it.
  void (*value)(ReplySink* self, const plinth_value_t* v) = nullptr;

  void Item(const plinth_reply_item_t& i) { item(this, i); }
  void Ref(const char* data, size_t len, plinth_release_fn release, void* arg) {
    ref(this, data, len, release, arg);
  }
};

}  // namespace plinth::host
