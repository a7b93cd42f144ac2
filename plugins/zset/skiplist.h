// The large encoding of a sorted set ("skiplist"): a skiplist with spans ordered by (score,
// member), so rank queries take O(log n), plus an open-addressing member index (member ->
// node) for O(1) score lookups. Each node is one allocation holding its levels and member.
// Pure C++; THREAD: whoever owns the set (random levels use a thread-local generator).
#ifndef PLINTH_ZSET_SKIPLIST_H
#define PLINTH_ZSET_SKIPLIST_H

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::zset {

struct SkipNode;

// A member index: open addressing, linear probing, power-of-two slots, backward-shift erase.
class MemberIndex {
 public:
  MemberIndex() = default;
  MemberIndex(const MemberIndex&) = delete;
  MemberIndex& operator=(const MemberIndex&) = delete;

  static uint32_t Hash(std::string_view member);
  // The node of member (hash is Hash(member)), or nullptr.
  SkipNode* Find(std::string_view member, uint32_t hash) const;
  // Adds a node whose member is absent.
  void Insert(SkipNode* node);
  // Removes a present node.
  void Erase(const SkipNode* node);
  size_t Slots() const { return slots_.size(); }
  // The nodes whose home slot (hash & mask) is slot, in probe order, appended to out.
  void NodesAtHome(size_t slot, std::vector<const SkipNode*>* out) const;

 private:
  void Resize(size_t slots);
  std::vector<SkipNode*> slots_;
  size_t count_ = 0;
};

class Skiplist {
 public:
  Skiplist();
  ~Skiplist();
  Skiplist(const Skiplist&) = delete;
  Skiplist& operator=(const Skiplist&) = delete;

  size_t Size() const { return length_; }
  // Approximate bytes held (nodes, index, header).
  size_t Bytes() const { return bytes_; }

  // The node of member, or nullptr.
  const SkipNode* Find(std::string_view member) const;
  // Inserts an absent member.
  void Insert(std::string_view member, double score);
  // Changes a present member's score (the node is kept, relinked if its place changes).
  void Update(std::string_view member, double new_score);
  // Removes member; false when absent.
  bool Erase(std::string_view member);
  // Removes the entries with ranks [from, to).
  void EraseRanks(size_t from, size_t to);

  // 0-based rank of a present node.
  size_t RankOf(const SkipNode* node) const;
  // The node of 0-based rank r, or nullptr past the end.
  const SkipNode* AtRank(size_t r) const;
  const SkipNode* First() const;
  const SkipNode* Last() const { return tail_; }

  size_t CountScoreBelow(double s, bool or_equal) const;
  size_t CountLexBelow(std::string_view m, bool or_equal) const;

  const MemberIndex& Index() const { return index_; }

  static const SkipNode* Next(const SkipNode* n);
  static const SkipNode* Prev(const SkipNode* n);
  static std::string_view MemberOf(const SkipNode* n);
  static double ScoreOf(const SkipNode* n);

 private:
  template <class Below>
  size_t CountBelow(Below below) const;
  void Unlink(SkipNode* node, SkipNode** update);
  void Link(SkipNode* node);
  SkipNode* FindPath(double score, std::string_view member, SkipNode** update) const;

  SkipNode* head_;
  SkipNode* tail_ = nullptr;
  size_t length_ = 0;
  int level_ = 1;
  size_t bytes_ = 0;
  MemberIndex index_;
};

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_SKIPLIST_H
