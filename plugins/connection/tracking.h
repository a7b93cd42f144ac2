// Client-side caching's server side, as Redis 7.0 does it: which client read which key
// (default mode) or which key prefixes a client follows (BCAST), and who must hear that a key
// changed. Plain logic: the plugin feeds it the commands that ran and the keys that changed
// and delivers what it decides through an InvalidationSink. Main thread.
#ifndef PLINTH_CONNECTION_TRACKING_H
#define PLINTH_CONNECTION_TRACKING_H

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plinth::connection {

// CLIENT TRACKING's options after on|off.
struct TrackingOptions {
  bool bcast = false, optin = false, optout = false, noloop = false;
  uint64_t redirect = 0;  // 0: none
  std::vector<std::string> prefixes;
};

// Parses CLIENT TRACKING's options (the arguments after on|off) in Redis's order; exists(id)
// says whether client id is connected (REDIRECT). Returns "" or the error reply.
std::string ParseTrackingOptions(const std::vector<std::string_view>& args,
                                 const std::function<bool(uint64_t)>& exists, TrackingOptions* out);

// One client's tracking state (CLIENT TRACKINGINFO shows it).
struct ClientTracking {
  bool on = false, bcast = false, optin = false, optout = false, noloop = false;
  bool caching = false;          // CLIENT CACHING yes|no given for the next command
  bool broken_redirect = false;  // the redirect client was gone when a message was due
  bool in_multi = false;         // between MULTI and EXEC/DISCARD: caching and pending wait
  uint64_t redirect = 0;
  std::set<std::string> prefixes;  // BCAST
  // Invalidations its own commands caused, sent after the reply (nullopt: a flush).
  std::vector<std::optional<std::string>> pending;
};

// Where invalidations go. keys nullptr: everything (a flush). The sink may set
// t.broken_redirect.
class InvalidationSink {
 public:
  virtual ~InvalidationSink() = default;
  virtual void Send(uint64_t target, ClientTracking& t, const std::vector<std::string>* keys) = 0;
};

// What ran, for CommandDone.
struct CommandFacts {
  std::string_view name;  // registered name, lowercase ("client", "exec", "get")
  bool nested = false;    // run by another command (a script's call)
};

class Tracker {
 public:
  explicit Tracker(InvalidationSink* sink) : sink_(sink) {}

  // CLIENT TRACKING on with o for client id. Returns "" or the error reply.
  std::string Enable(uint64_t id, const TrackingOptions& o);
  // CLIENT TRACKING off (and RESET): id stops tracking; its remembered keys are dropped lazily.
  void Disable(uint64_t id);
  // The client is gone: its state too.
  void Forget(uint64_t id);
  // CLIENT CACHING yes (yes true) or no. Returns "" or the error reply.
  std::string Caching(uint64_t id, std::string_view arg);
  // id's state, or nullptr when it never tracked.
  const ClientTracking* Find(uint64_t id) const;

  // Whether the keys of id's read-only command should be remembered now.
  bool WantsKeys(uint64_t id) const;
  // Remembers that id read key (WantsKeys was true).
  void Remember(uint64_t id, std::string_view key);
  // id's command ran: the CLIENT CACHING flag lapses, its own invalidations go out after its
  // reply (both wait for the end of a transaction).
  void CommandDone(uint64_t id, const CommandFacts& f);
  // key changed during writer's command (0: none). Default-mode readers hear it now (the
  // writer itself after its reply, never with NOLOOP); BCAST followers at Broadcast.
  void KeyChanged(std::string_view key, uint64_t writer);
  // A database was emptied during writer's command: every tracking client hears a null.
  void Flushed(uint64_t writer);
  // Sends the BCAST followers the keys of their prefixes that changed since the last call.
  void Broadcast();
  // tracking-table-max-keys: while more than max keys are remembered (max 0: no limit), forgets
  // up to effort of them, each invalidated to its readers as if it changed (Redis 7.0), so
  // their caches stay right. Returns how many it forgot.
  size_t Evict(size_t max, size_t effort);

  // Clients tracking now; while none does and nothing is pending, the plugin hears nothing.
  size_t TrackingClients() const { return tracking_; }
  bool HasPending() const { return pending_ > 0; }
  size_t TrackedKeys() const { return table_.size(); }

 private:
  struct Prefix {
    std::set<uint64_t> clients;
    std::map<std::string, uint64_t, std::less<>> keys;  // changed since Broadcast -> writer
  };
  void Deliver(uint64_t id, ClientTracking& t, std::optional<std::string> key);
  void SendPending(uint64_t id, ClientTracking& t);
  // The default-mode readers of key hear that it changed (writer, 0 for none: after its reply).
  void InvalidateReaders(std::vector<uint64_t> readers, const std::string& key, uint64_t writer);

  InvalidationSink* sink_;
  std::unordered_map<uint64_t, ClientTracking> clients_;
  std::unordered_map<std::string, std::vector<uint64_t>> table_;  // key -> its readers
  std::map<std::string, Prefix, std::less<>> prefixes_;
  size_t tracking_ = 0;
  size_t pending_ = 0;  // clients with pending invalidations
};

}  // namespace plinth::connection

#endif  // PLINTH_CONNECTION_TRACKING_H
