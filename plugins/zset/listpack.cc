// The listpack encoding (see listpack.h).
#include "zset/listpack.h"

#include <cstring>

namespace plinth::zset {
namespace {

constexpr unsigned char kLong = 0xFF;

size_t HeaderSize(size_t len) { return len < kLong ? 1 : 5; }

// Reads the leading length field at p; stores its size in *hs.
size_t ReadLen(const char* p, size_t* hs) {
  const auto b = static_cast<unsigned char>(p[0]);
  if (b != kLong) {
    *hs = 1;
    return b;
  }
  uint32_t v;
  std::memcpy(&v, p + 1, 4);
  *hs = 5;
  return v;
}

// Reads the trailing length field that ends just before p.
size_t ReadBackLen(const char* p, size_t* hs) {
  const auto b = static_cast<unsigned char>(p[-1]);
  if (b != kLong) {
    *hs = 1;
    return b;
  }
  uint32_t v;
  std::memcpy(&v, p - 5, 4);
  *hs = 5;
  return v;
}

// Encodes one entry into out (which has room for it). Redis's listpack keeps scores as text
// where -0 reads back as 0; so does this one.
void Encode(char* out, std::string_view member, double score) {
  if (score == 0) score = 0.0;
  const size_t len = member.size();
  const size_t hs = HeaderSize(len);
  if (hs == 1) {
    out[0] = static_cast<char>(len);
  } else {
    const auto v = static_cast<uint32_t>(len);
    out[0] = static_cast<char>(kLong);
    std::memcpy(out + 1, &v, 4);
  }
  std::memcpy(out + hs, member.data(), len);
  std::memcpy(out + hs + len, &score, 8);
  char* tail = out + hs + len + 8;
  if (hs == 1) {
    tail[0] = static_cast<char>(len);
  } else {
    const auto v = static_cast<uint32_t>(len);
    std::memcpy(tail, &v, 4);
    tail[4] = static_cast<char>(kLong);
  }
}

}  // namespace

size_t Listpack::EntrySize(size_t off) const {
  size_t hs = 0;
  const size_t len = ReadLen(buf_.data() + off, &hs);
  return 2 * hs + len + 8;
}

std::string_view Listpack::MemberAt(size_t off) const {
  size_t hs = 0;
  const size_t len = ReadLen(buf_.data() + off, &hs);
  return std::string_view(buf_.data() + off + hs, len);
}

double Listpack::ScoreAt(size_t off) const {
  size_t hs = 0;
  const size_t len = ReadLen(buf_.data() + off, &hs);
  double s;
  std::memcpy(&s, buf_.data() + off + hs + len, 8);
  return s;
}

size_t Listpack::Next(size_t off) const { return off + EntrySize(off); }

size_t Listpack::Prev(size_t off) const {
  if (off == 0) return End();
  size_t hs = 0;
  const size_t len = ReadBackLen(buf_.data() + off, &hs);
  return off - (2 * hs + len + 8);
}

size_t Listpack::OffsetOfRank(size_t r) const {
  if (r >= count_) return End();
  size_t off = 0;
  for (size_t i = 0; i < r; ++i) off = Next(off);
  return off;
}

bool Listpack::Find(std::string_view member, size_t* off, double* score) const {
  for (size_t o = 0; o < buf_.size(); o = Next(o)) {
    if (MemberAt(o) == member) {
      if (off) *off = o;
      if (score) *score = ScoreAt(o);
      return true;
    }
  }
  return false;
}

void Listpack::Insert(std::string_view member, double score) {
  size_t o = 0;
  while (o < buf_.size() && !EntryLess(score, member, ScoreAt(o), MemberAt(o))) o = Next(o);
  const size_t n = 2 * HeaderSize(member.size()) + member.size() + 8;
  buf_.insert(o, n, '\0');
  Encode(buf_.data() + o, member, score);
  ++count_;
}

void Listpack::Append(std::string_view member, double score) {
  const size_t o = buf_.size();
  buf_.resize(o + 2 * HeaderSize(member.size()) + member.size() + 8);
  Encode(buf_.data() + o, member, score);
  ++count_;
}

void Listpack::EraseAt(size_t off) {
  buf_.erase(off, EntrySize(off));
  --count_;
}

void Listpack::EraseRanks(size_t from, size_t to) {
  if (from >= to || from >= count_) return;
  if (to > count_) to = count_;
  const size_t a = OffsetOfRank(from);
  size_t b = a;
  for (size_t i = from; i < to; ++i) b = Next(b);
  buf_.erase(a, b - a);
  count_ -= to - from;
  if (buf_.capacity() > 2 * buf_.size() + 64) buf_.shrink_to_fit();
}

size_t Listpack::CountScoreBelow(double s, bool or_equal) const {
  size_t n = 0;
  for (size_t o = 0; o < buf_.size(); o = Next(o), ++n) {
    const double x = ScoreAt(o);
    if (or_equal ? !(x <= s) : !(x < s)) break;
  }
  return n;
}

size_t Listpack::CountLexBelow(std::string_view m, bool or_equal) const {
  size_t n = 0;
  for (size_t o = 0; o < buf_.size(); o = Next(o), ++n) {
    const int c = MemberAt(o).compare(m);
    if (or_equal ? c > 0 : c >= 0) break;
  }
  return n;
}

}  // namespace plinth::zset
