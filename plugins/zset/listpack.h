// The compact encoding of a small sorted set ("listpack"): every entry in one byte buffer,
// ordered by (score, member). Linear scans; used while the set stays under the
// zset-max-listpack-* limits. Pure C++; THREAD: whoever owns the set.
#ifndef PLINTH_ZSET_LISTPACK_H
#define PLINTH_ZSET_LISTPACK_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "zset/order.h"

namespace plinth::zset {

// Entries are laid out as [len][member bytes][score: 8 bytes][len], where len is one byte below
// 255, or 0xFF then 4 bytes (mirrored at the end), so a cursor can walk both ways.
class Listpack {
 public:
  // Number of entries.
  size_t Size() const { return count_; }
  // Bytes held by the buffer.
  size_t Bytes() const { return buf_.capacity(); }
  // Offset one past the last entry (the "end" position).
  size_t End() const { return buf_.size(); }

  // The member and score of the entry at offset off (off < End()).
  std::string_view MemberAt(size_t off) const;
  double ScoreAt(size_t off) const;
  // Offset of the entry after / before off; Prev of the first entry returns End().
  size_t Next(size_t off) const;
  size_t Prev(size_t off) const;
  // Offset of the entry with 0-based rank r (r <= Size(); Size() gives End()).
  size_t OffsetOfRank(size_t r) const;

  // Finds member; true with its offset (and score) when present.
  bool Find(std::string_view member, size_t* off, double* score) const;
  // Inserts an absent member at its sorted place.
  void Insert(std::string_view member, double score);
  // Removes the entry at offset off.
  void EraseAt(size_t off);
  // Removes the entries with ranks [from, to).
  void EraseRanks(size_t from, size_t to);
  // Appends an entry that sorts after every present one (bulk building from sorted input).
  void Append(std::string_view member, double score);

  // Number of entries whose score is below s (or_equal: below or equal).
  size_t CountScoreBelow(double s, bool or_equal) const;
  // Number of entries whose member is below m (or_equal: below or equal), byte order.
  size_t CountLexBelow(std::string_view m, bool or_equal) const;

 private:
  size_t EntrySize(size_t off) const;
  std::string buf_;
  size_t count_ = 0;
};

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_LISTPACK_H
