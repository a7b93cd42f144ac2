// The two-encoding sorted set (see zset.h).
#include "zset/zset.h"

namespace plinth::zset {

Limits& CurrentLimits() {
  static Limits limits;
  return limits;
}

// ---- Cursor ----------------------------------------------------------------------------------

bool Cursor::Valid() const {
  if (!z_) return false;
  return z_->sl_ ? node_ != nullptr : off_ < z_->lp_.End();
}

std::string_view Cursor::Member() const {
  return z_->sl_ ? Skiplist::MemberOf(node_) : z_->lp_.MemberAt(off_);
}

double Cursor::Score() const { return z_->sl_ ? Skiplist::ScoreOf(node_) : z_->lp_.ScoreAt(off_); }

void Cursor::Next() {
  if (z_->sl_)
    node_ = Skiplist::Next(node_);
  else
    off_ = z_->lp_.Next(off_);
}

void Cursor::Prev() {
  if (z_->sl_)
    node_ = Skiplist::Prev(node_);
  else
    off_ = z_->lp_.Prev(off_);
}

// ---- ZSet ------------------------------------------------------------------------------------

ZSet::ZSet(size_t size_hint, size_t max_len) {
  const Limits& l = CurrentLimits();
  if (size_hint > l.max_entries || max_len > l.max_value) sl_ = std::make_unique<Skiplist>();
}

ZSet::ZSet(const ZSet& other) : lp_(other.lp_) {
  if (!other.sl_) return;
  sl_ = std::make_unique<Skiplist>();
  for (const SkipNode* n = other.sl_->First(); n; n = Skiplist::Next(n))
    sl_->Insert(Skiplist::MemberOf(n), Skiplist::ScoreOf(n));
}

std::unique_ptr<ZSet> ZSet::FromSorted(
    const std::vector<std::pair<std::string_view, double>>& entries) {
  size_t max_len = 0;
  for (const auto& e : entries) max_len = std::max(max_len, e.first.size());
  auto z = std::make_unique<ZSet>(entries.size(), max_len);
  if (z->sl_) {
    for (const auto& e : entries) z->sl_->Insert(e.first, e.second);
  } else {
    for (const auto& e : entries) z->lp_.Append(e.first, e.second);
  }
  return z;
}

size_t ZSet::MemoryUsage() const {
  if (sl_) return sizeof(*this) + sl_->Bytes() + sl_->Index().Slots() * sizeof(void*);
  return sizeof(*this) + lp_.Bytes();
}

bool ZSet::Score(std::string_view member, double* score) const {
  if (!sl_) return lp_.Find(member, nullptr, score);
  const SkipNode* n = sl_->Find(member);
  if (!n) return false;
  *score = Skiplist::ScoreOf(n);
  return true;
}

void ZSet::ConvertToSkiplist() {
  auto sl = std::make_unique<Skiplist>();
  for (size_t o = 0; o < lp_.End(); o = lp_.Next(o)) sl->Insert(lp_.MemberAt(o), lp_.ScoreAt(o));
  sl_ = std::move(sl);
  lp_ = Listpack();
}

void ZSet::Insert(std::string_view member, double score) {
  if (!sl_) {
    const Limits& l = CurrentLimits();
    if (lp_.Size() + 1 > l.max_entries || member.size() > l.max_value) {
      ConvertToSkiplist();
    } else {
      lp_.Insert(member, score);
      return;
    }
  }
  sl_->Insert(member, score);
}

void ZSet::Update(std::string_view member, double new_score) {
  if (sl_) return sl_->Update(member, new_score);
  size_t off = 0;
  if (!lp_.Find(member, &off, nullptr)) return;
  lp_.EraseAt(off);
  lp_.Insert(member, new_score);
}

bool ZSet::Erase(std::string_view member) {
  if (sl_) return sl_->Erase(member);
  size_t off = 0;
  if (!lp_.Find(member, &off, nullptr)) return false;
  lp_.EraseAt(off);
  return true;
}

void ZSet::EraseRanks(size_t from, size_t to) {
  if (sl_)
    sl_->EraseRanks(from, to);
  else
    lp_.EraseRanks(from, to);
}

bool ZSet::Rank(std::string_view member, size_t* rank) const {
  if (sl_) {
    const SkipNode* n = sl_->Find(member);
    if (!n) return false;
    *rank = sl_->RankOf(n);
    return true;
  }
  size_t r = 0;
  for (size_t o = 0; o < lp_.End(); o = lp_.Next(o), ++r) {
    if (lp_.MemberAt(o) == member) {
      *rank = r;
      return true;
    }
  }
  return false;
}

Cursor ZSet::At(size_t r) const {
  Cursor c;
  c.z_ = this;
  if (sl_)
    c.node_ = sl_->AtRank(r);
  else
    c.off_ = lp_.OffsetOfRank(r);
  return c;
}

size_t ZSet::CountScoreBelow(double s, bool or_equal) const {
  return sl_ ? sl_->CountScoreBelow(s, or_equal) : lp_.CountScoreBelow(s, or_equal);
}

size_t ZSet::CountLexBelow(std::string_view m, bool or_equal) const {
  return sl_ ? sl_->CountLexBelow(m, or_equal) : lp_.CountLexBelow(m, or_equal);
}

}  // namespace plinth::zset
