// The small hash encoding (see listpack.h). Each string is a LEB128 length then its bytes.
#include "hash/listpack.h"

#include <cstring>

namespace plinth::hash {

size_t VarintSize(uint64_t n) {
  size_t bytes = 1;
  while (n >= 0x80) {
    n >>= 7;
    ++bytes;
  }
  return bytes;
}

namespace {

// Writes n as LEB128 into out (VarintSize(n) bytes).
void PutVarint(char* out, uint64_t n) {
  while (n >= 0x80) {
    *out++ = static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  *out = static_cast<char>(n);
}

}  // namespace

Listpack::Pos Listpack::ReadString(Pos pos, std::string_view* s) const {
  uint64_t n = 0;
  unsigned shift = 0;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(buf_.data());
  while (p[pos] & 0x80) {
    n |= static_cast<uint64_t>(p[pos++] & 0x7f) << shift;
    shift += 7;
  }
  n |= static_cast<uint64_t>(p[pos++]) << shift;
  *s = std::string_view(buf_.data() + pos, n);
  return pos + n;
}

Listpack::Pos Listpack::Read(Pos pos, std::string_view* field, std::string_view* value) const {
  return ReadString(ReadString(pos, field), value);
}

bool Listpack::Find(std::string_view field, Pos* pair, Pos* value) const {
  std::string_view k, v;
  for (Pos p = Begin(); p != End();) {
    Pos vpos = ReadString(p, &k);
    Pos next = ReadString(vpos, &v);
    if (k.size() == field.size() && std::memcmp(k.data(), field.data(), k.size()) == 0) {
      *pair = p;
      *value = vpos;
      return true;
    }
    p = next;
  }
  return false;
}

bool Listpack::Get(std::string_view field, std::string_view* value) const {
  Pos pair = 0, vpos = 0;
  if (!Find(field, &pair, &vpos)) return false;
  if (value) ReadString(vpos, value);
  return true;
}

void Listpack::AppendString(std::string_view s) {
  char len[10];
  PutVarint(len, s.size());
  buf_.append(len, VarintSize(s.size()));
  buf_.append(s.data(), s.size());
}

void Listpack::Append(std::string_view field, std::string_view value) {
  AppendString(field);
  AppendString(value);
  ++count_;
}

bool Listpack::Set(std::string_view field, std::string_view value) {
  Pos pair = 0, vpos = 0;
  if (!Find(field, &pair, &vpos)) {
    Append(field, value);
    return true;
  }
  std::string_view old;
  Pos end = ReadString(vpos, &old);
  if (old.size() == value.size()) {  // HINCRBY and same-sized updates: no reshuffle
    std::memcpy(&buf_[end - old.size()], value.data(), value.size());
    return false;
  }
  char len[10];
  PutVarint(len, value.size());
  std::string encoded(len, VarintSize(value.size()));
  encoded.append(value.data(), value.size());
  buf_.replace(vpos, end - vpos, encoded);
  return false;
}

bool Listpack::Delete(std::string_view field) {
  Pos pair = 0, vpos = 0;
  if (!Find(field, &pair, &vpos)) return false;
  std::string_view old;
  Pos end = ReadString(vpos, &old);
  buf_.erase(pair, end - pair);
  --count_;
  if (count_ == 0) std::string().swap(buf_);
  return true;
}

}  // namespace plinth::hash
