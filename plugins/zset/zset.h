// A sorted set: one of two encodings behind one interface. "listpack" (a flat buffer) while
// the set has at most zset-max-listpack-entries entries of at most zset-max-listpack-value
// bytes each, then "skiplist" (a skiplist with spans plus a member index), never back. Ranks
// are 0-based in ascending (score, member) order. THREAD: whoever owns the set.
#ifndef PLINTH_ZSET_ZSET_H
#define PLINTH_ZSET_ZSET_H

#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "zset/listpack.h"
#include "zset/skiplist.h"

namespace plinth::zset {

// The listpack limits, set by the options (options.cc); read when a set grows or is built.
struct Limits {
  size_t max_entries = 128;
  size_t max_value = 64;
};
Limits& CurrentLimits();

class ZSet;

// A position in a set (an entry or the end). Invalidated by any change of the set.
class Cursor {
 public:
  bool Valid() const;
  std::string_view Member() const;
  double Score() const;
  void Next();
  void Prev();

 private:
  friend class ZSet;
  const ZSet* z_ = nullptr;
  size_t off_ = 0;                  // listpack
  const SkipNode* node_ = nullptr;  // skiplist
};

class ZSet {
 public:
  // An empty set in the encoding a set of size_hint entries with members up to max_len bytes
  // gets.
  ZSet(size_t size_hint, size_t max_len);
  ZSet(const ZSet& other);  // deep copy, same encoding
  ZSet& operator=(const ZSet&) = delete;

  // A set built from entries sorted ascending by (score, member), members distinct; the
  // encoding follows the limits for the final size.
  static std::unique_ptr<ZSet> FromSorted(const std::vector<std::pair<std::string_view, double>>&);

  size_t Size() const { return sl_ ? sl_->Size() : lp_.Size(); }
  bool IsListpack() const { return !sl_; }
  const char* EncodingName() const { return sl_ ? "skiplist" : "listpack"; }
  size_t MemoryUsage() const;
  size_t FreeEffort() const { return sl_ ? sl_->Size() + 2 : 1; }

  // The score of member, false when absent.
  bool Score(std::string_view member, double* score) const;
  // Inserts an absent member (converting to skiplist first when the listpack would pass a
  // limit).
  void Insert(std::string_view member, double score);
  // Changes a present member's score.
  void Update(std::string_view member, double new_score);
  // Removes member; false when absent.
  bool Erase(std::string_view member);
  // Removes ranks [from, to).
  void EraseRanks(size_t from, size_t to);

  // 0-based ascending rank of member, false when absent.
  bool Rank(std::string_view member, size_t* rank) const;
  // A cursor at rank r (the end when r >= Size()).
  Cursor At(size_t r) const;

  // Entries with score below s (or_equal: <= s).
  size_t CountScoreBelow(double s, bool or_equal) const;
  // Entries with member below m (or_equal: <= m).
  size_t CountLexBelow(std::string_view m, bool or_equal) const;

  // The skiplist (for ZSCAN of the large encoding), or nullptr.
  const Skiplist* Large() const { return sl_.get(); }

 private:
  friend class Cursor;
  void ConvertToSkiplist();
  Listpack lp_;
  std::unique_ptr<Skiplist> sl_;
};

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_ZSET_H
