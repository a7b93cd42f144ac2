// Shared helpers of the sorted-set command handlers: looking keys up by type, storing and
// deleting sets, keyspace events, and replying entries with scores in the RESP2/RESP3 shapes
// of Redis 7.0. Main thread (command handlers).
#ifndef PLINTH_ZSET_ACCESS_H
#define PLINTH_ZSET_ACCESS_H

#include <cstddef>
#include <memory>
#include <plinth/plugin.hpp>
#include <string_view>

#include "zset/zset.h"

namespace plinth::zset {

enum class Found { kMissing, kZset, kWrongType };

// Looks key up for reading: kZset with *z set (read only, valid until the key changes).
Found ReadZset(const sdk::Call& c, std::string_view key, const ZSet** z);
// Same, replying WRONGTYPE itself; returns false when it replied.
bool ReadZsetOrReply(const sdk::Call& c, std::string_view key, const ZSet** z);
// The writable set under key (copy-on-write; counts as a change). Call only when the command
// will change it. Throws std::bad_alloc when the copy ran out of memory.
ZSet* MutableZset(const sdk::Call& c, std::string_view key);
// Stores z under key, replacing any value and clearing its TTL.
void StoreZset(const sdk::Call& c, std::string_view key, std::unique_ptr<ZSet> z);
// Raises the keyspace event of class zset on key.
void Notify(const sdk::Call& c, const char* event, std::string_view key);
// Deletes key when z is empty, raising "del"; true when it did.
bool DeleteIfEmpty(const sdk::Call& c, std::string_view key, const ZSet& z);
// True when the client speaks RESP3.
bool Resp3(const sdk::Call& c);

// Replies a list of n entries: members only, or with scores (a flat member/score array in
// RESP2, an array of [member, score] pairs in RESP3 when pairs is set).
class EntryReply {
 public:
  EntryReply(const sdk::Call& c, bool withscores, bool pairs = true)
      : c_(c), withscores_(withscores), nested_(withscores && pairs && Resp3(c)) {}
  void Begin(size_t n) const;
  void Add(std::string_view member, double score) const;

 private:
  const sdk::Call& c_;
  bool withscores_;
  bool nested_;
};

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_ACCESS_H
