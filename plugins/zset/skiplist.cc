// The skiplist encoding and its member index (see skiplist.h).
#include "zset/skiplist.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>

#include "zset/order.h"

namespace plinth::zset {

constexpr int kMaxLevel = 32;

struct SkipLevel {
  SkipNode* forward;
  size_t span;  // nodes crossed by following forward (rank distance)
};

// Header, then `levels` SkipLevel entries, then the member bytes.
struct SkipNode {
  double score;
  SkipNode* backward;
  uint32_t len;
  uint32_t hash;
  uint32_t levels;
  uint32_t reserved;
  SkipLevel* Lv() { return reinterpret_cast<SkipLevel*>(this + 1); }
  const SkipLevel* Lv() const { return reinterpret_cast<const SkipLevel*>(this + 1); }
  const char* Bytes() const { return reinterpret_cast<const char*>(Lv() + levels); }
  std::string_view Member() const { return std::string_view(Bytes(), len); }
};

namespace {

size_t NodeBytes(uint32_t levels, size_t len) {
  return sizeof(SkipNode) + levels * sizeof(SkipLevel) + len;
}

SkipNode* NewNode(uint32_t levels, std::string_view member, double score, uint32_t hash) {
  void* mem = std::malloc(NodeBytes(levels, member.size()));
  if (!mem) throw std::bad_alloc();
  auto* n = static_cast<SkipNode*>(mem);
  n->score = score;
  n->backward = nullptr;
  n->len = static_cast<uint32_t>(member.size());
  n->hash = hash;
  n->levels = levels;
  n->reserved = 0;
  for (uint32_t i = 0; i < levels; ++i) n->Lv()[i] = SkipLevel{nullptr, 0};
  if (!member.empty()) std::memcpy(const_cast<char*>(n->Bytes()), member.data(), member.size());
  return n;
}

// p = 1/4 per extra level, as Redis.
uint32_t RandomLevel() {
  thread_local uint64_t state = 0x9E3779B97F4A7C15ull ^ reinterpret_cast<uintptr_t>(&state);
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  uint64_t bits = state;
  uint32_t level = 1;
  while ((bits & 3) == 0 && level < kMaxLevel) {
    ++level;
    bits >>= 2;
  }
  return level;
}

bool NodeBefore(const SkipNode* n, double score, std::string_view member) {
  return EntryLess(n->score, n->Member(), score, member);
}

}  // namespace

// ---- MemberIndex -----------------------------------------------------------------------------

uint32_t MemberIndex::Hash(std::string_view member) {
  const size_t h = std::hash<std::string_view>{}(member);
  return static_cast<uint32_t>(h ^ (h >> 32));
}

SkipNode* MemberIndex::Find(std::string_view member, uint32_t hash) const {
  if (slots_.empty()) return nullptr;
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    SkipNode* n = slots_[i];
    if (!n) return nullptr;
    if (n->hash == hash && n->Member() == member) return n;
  }
}

void MemberIndex::Insert(SkipNode* node) {
  // Load factor at most 3/4.
  if ((count_ + 1) * 4 > slots_.size() * 3) Resize(slots_.empty() ? 8 : slots_.size() * 2);
  const size_t mask = slots_.size() - 1;
  size_t i = node->hash & mask;
  while (slots_[i]) i = (i + 1) & mask;
  slots_[i] = node;
  ++count_;
}

void MemberIndex::Erase(const SkipNode* node) {
  const size_t mask = slots_.size() - 1;
  size_t i = node->hash & mask;
  while (slots_[i] != node) i = (i + 1) & mask;
  // Backward-shift deletion: pull later members of the run into the hole when their home
  // slot allows it, so lookups never need tombstones.
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j]; j = (j + 1) & mask) {
    const size_t home = slots_[j]->hash & mask;
    const bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
    if (movable) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = nullptr;
  --count_;
  if (slots_.size() > 8 && count_ * 8 < slots_.size()) Resize(slots_.size() / 2);
}

void MemberIndex::Resize(size_t slots) {
  std::vector<SkipNode*> old(slots, nullptr);
  old.swap(slots_);
  const size_t mask = slots - 1;
  for (SkipNode* n : old) {
    if (!n) continue;
    size_t i = n->hash & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = n;
  }
}

void MemberIndex::NodesAtHome(size_t slot, std::vector<const SkipNode*>* out) const {
  if (slot >= slots_.size()) return;
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot; slots_[i]; i = (i + 1) & mask) {
    if ((slots_[i]->hash & mask) == slot) out->push_back(slots_[i]);
    if (((i + 1) & mask) == slot) break;
  }
}

// ---- Skiplist --------------------------------------------------------------------------------

Skiplist::Skiplist() : head_(NewNode(kMaxLevel, {}, 0, 0)) {
  bytes_ = NodeBytes(kMaxLevel, 0) + sizeof(*this);
}

Skiplist::~Skiplist() {
  SkipNode* n = head_->Lv()[0].forward;
  while (n) {
    SkipNode* next = n->Lv()[0].forward;
    std::free(n);
    n = next;
  }
  std::free(head_);
}

const SkipNode* Skiplist::Find(std::string_view member) const {
  return index_.Find(member, MemberIndex::Hash(member));
}

SkipNode* Skiplist::FindPath(double score, std::string_view member, SkipNode** update) const {
  SkipNode* x = head_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->Lv()[i].forward && NodeBefore(x->Lv()[i].forward, score, member))
      x = x->Lv()[i].forward;
    update[i] = x;
  }
  return x->Lv()[0].forward;
}

void Skiplist::Link(SkipNode* node) {
  SkipNode* update[kMaxLevel];
  size_t rank[kMaxLevel];
  SkipNode* x = head_;
  const std::string_view member = node->Member();
  for (int i = level_ - 1; i >= 0; --i) {
    rank[i] = i == level_ - 1 ? 0 : rank[i + 1];
    while (x->Lv()[i].forward && NodeBefore(x->Lv()[i].forward, node->score, member)) {
      rank[i] += x->Lv()[i].span;
      x = x->Lv()[i].forward;
    }
    update[i] = x;
  }
  const int lvl = static_cast<int>(node->levels);
  if (lvl > level_) {
    for (int i = level_; i < lvl; ++i) {
      rank[i] = 0;
      update[i] = head_;
      head_->Lv()[i].span = length_;
    }
    level_ = lvl;
  }
  for (int i = 0; i < lvl; ++i) {
    node->Lv()[i].forward = update[i]->Lv()[i].forward;
    update[i]->Lv()[i].forward = node;
    node->Lv()[i].span = update[i]->Lv()[i].span - (rank[0] - rank[i]);
    update[i]->Lv()[i].span = (rank[0] - rank[i]) + 1;
  }
  for (int i = lvl; i < level_; ++i) update[i]->Lv()[i].span++;
  node->backward = update[0] == head_ ? nullptr : update[0];
  if (node->Lv()[0].forward)
    node->Lv()[0].forward->backward = node;
  else
    tail_ = node;
  ++length_;
}

void Skiplist::Unlink(SkipNode* node, SkipNode** update) {
  for (int i = 0; i < level_; ++i) {
    if (update[i]->Lv()[i].forward == node) {
      update[i]->Lv()[i].span += node->Lv()[i].span - 1;
      update[i]->Lv()[i].forward = node->Lv()[i].forward;
    } else {
      update[i]->Lv()[i].span -= 1;
    }
  }
  if (node->Lv()[0].forward)
    node->Lv()[0].forward->backward = node->backward;
  else
    tail_ = node->backward;
  while (level_ > 1 && head_->Lv()[level_ - 1].forward == nullptr) --level_;
  --length_;
}

void Skiplist::Insert(std::string_view member, double score) {
  const uint32_t hash = MemberIndex::Hash(member);
  const uint32_t lvl = RandomLevel();
  SkipNode* node = NewNode(lvl, member, score, hash);
  Link(node);
  index_.Insert(node);
  bytes_ += NodeBytes(lvl, member.size());
}

void Skiplist::Update(std::string_view member, double new_score) {
  SkipNode* node = index_.Find(member, MemberIndex::Hash(member));
  if (!node) return;
  const SkipNode* prev = node->backward;
  const SkipNode* next = node->Lv()[0].forward;
  // Still in order with its neighbours: change the score in place.
  if ((!prev || EntryLess(prev->score, prev->Member(), new_score, member)) &&
      (!next || EntryLess(new_score, member, next->score, next->Member()))) {
    node->score = new_score;
    return;
  }
  SkipNode* update[kMaxLevel];
  FindPath(node->score, member, update);
  Unlink(node, update);
  node->score = new_score;
  Link(node);
}

bool Skiplist::Erase(std::string_view member) {
  SkipNode* node = index_.Find(member, MemberIndex::Hash(member));
  if (!node) return false;
  SkipNode* update[kMaxLevel];
  FindPath(node->score, member, update);
  Unlink(node, update);
  index_.Erase(node);
  bytes_ -= NodeBytes(node->levels, node->len);
  std::free(node);
  return true;
}

void Skiplist::EraseRanks(size_t from, size_t to) {
  if (to > length_) to = length_;
  if (from >= to) return;
  SkipNode* update[kMaxLevel];
  SkipNode* x = head_;
  size_t traversed = 0;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->Lv()[i].forward && traversed + x->Lv()[i].span <= from) {
      traversed += x->Lv()[i].span;
      x = x->Lv()[i].forward;
    }
    update[i] = x;
  }
  x = x->Lv()[0].forward;
  for (size_t n = from; n < to && x; ++n) {
    SkipNode* next = x->Lv()[0].forward;
    Unlink(x, update);
    index_.Erase(x);
    bytes_ -= NodeBytes(x->levels, x->len);
    std::free(x);
    x = next;
  }
}

size_t Skiplist::RankOf(const SkipNode* node) const {
  size_t rank = 0;
  const SkipNode* x = head_;
  const std::string_view member = node->Member();
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->Lv()[i].forward &&
           (x->Lv()[i].forward == node || NodeBefore(x->Lv()[i].forward, node->score, member))) {
      rank += x->Lv()[i].span;
      x = x->Lv()[i].forward;
    }
    if (x == node) return rank - 1;
  }
  return rank - 1;
}

const SkipNode* Skiplist::AtRank(size_t r) const {
  if (r >= length_) return nullptr;
  const size_t target = r + 1;
  size_t traversed = 0;
  const SkipNode* x = head_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->Lv()[i].forward && traversed + x->Lv()[i].span <= target) {
      traversed += x->Lv()[i].span;
      x = x->Lv()[i].forward;
    }
    if (traversed == target) return x;
  }
  return nullptr;
}

const SkipNode* Skiplist::First() const { return head_->Lv()[0].forward; }

template <class Below>
size_t Skiplist::CountBelow(Below below) const {
  size_t rank = 0;
  const SkipNode* x = head_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->Lv()[i].forward && below(x->Lv()[i].forward)) {
      rank += x->Lv()[i].span;
      x = x->Lv()[i].forward;
    }
  }
  return rank;
}

size_t Skiplist::CountScoreBelow(double s, bool or_equal) const {
  if (or_equal) return CountBelow([s](const SkipNode* n) { return n->score <= s; });
  return CountBelow([s](const SkipNode* n) { return n->score < s; });
}

size_t Skiplist::CountLexBelow(std::string_view m, bool or_equal) const {
  if (or_equal) return CountBelow([m](const SkipNode* n) { return n->Member().compare(m) <= 0; });
  return CountBelow([m](const SkipNode* n) { return n->Member().compare(m) < 0; });
}

const SkipNode* Skiplist::Next(const SkipNode* n) { return n->Lv()[0].forward; }
const SkipNode* Skiplist::Prev(const SkipNode* n) { return n->backward; }
std::string_view Skiplist::MemberOf(const SkipNode* n) { return n->Member(); }
double Skiplist::ScoreOf(const SkipNode* n) { return n->score; }

}  // namespace plinth::zset
