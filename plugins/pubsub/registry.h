// The subscriptions of every client: channel -> subscriber ids for delivery, and client id ->
// its channels for UNSUBSCRIBE without arguments and cleanup. Plain C++ with no ABI types;
// the pub/sub commands and the keyspace listener use one instance. Main thread only.
#ifndef PLINTH_PUBSUB_REGISTRY_H
#define PLINTH_PUBSUB_REGISTRY_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace plinth::pubsub {

// The three independent subscription spaces of Redis 7.0.
enum class Kind : uint8_t { kChannel = 0, kPattern = 1, kShard = 2 };
inline constexpr size_t kKinds = 3;

class Registry {
 public:
  using Ids = std::vector<uint64_t>;

  // Subscribes client to name. Returns false (and changes nothing) when it already was.
  bool Subscribe(Kind kind, uint64_t client, std::string_view name);
  // Unsubscribes client from name. Returns false when it was not subscribed.
  bool Unsubscribe(Kind kind, uint64_t client, std::string_view name);
  // The names client subscribes to, in no particular order (Redis's dict order is arbitrary
  // too). OWNERSHIP: copies, so the caller may unsubscribe while walking them.
  std::vector<std::string> Names(Kind kind, uint64_t client) const;
  // How many names of kind client subscribes to.
  size_t Count(Kind kind, uint64_t client) const;
  // Forgets every subscription of client (a closed connection, RESET).
  void DropClient(uint64_t client);

  // The subscribers of name in the order they subscribed, or nullptr when there are none.
  // One hash lookup. OWNERSHIP: borrowed until the registry next changes.
  const Ids* Subscribers(Kind kind, std::string_view name) const;
  // Number of distinct names of kind with at least one subscriber (NUMPAT, CHANNELS).
  size_t Size(Kind kind) const { return names_[Index(kind)].size(); }
  // Calls fn(name, subscribers) for every name of kind. fn must not change the registry.
  void ForEach(Kind kind, const std::function<void(const std::string&, const Ids&)>& fn) const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NameMap = std::unordered_map<std::string, Ids, Hash, std::equal_to<>>;
  // A client's names point at the keys of names_ (node keys never move), so each name is
  // stored once however many clients subscribe to it.
  struct ClientSubs {
    std::unordered_set<const std::string*> names[kKinds];
    bool Empty() const { return names[0].empty() && names[1].empty() && names[2].empty(); }
  };

  static size_t Index(Kind kind) { return static_cast<size_t>(kind); }
  // Removes client from the subscriber list of it (erasing the node when it was the last).
  void RemoveSubscriber(size_t kind, NameMap::iterator it, uint64_t client);

  NameMap names_[kKinds];
  std::unordered_map<uint64_t, ClientSubs> clients_;
};

}  // namespace plinth::pubsub

#endif  // PLINTH_PUBSUB_REGISTRY_H
