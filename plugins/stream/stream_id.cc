// Stream id text forms (see stream_id.h).
#include "stream/stream_id.h"

#include <cerrno>
#include <cstdlib>
#include <plinth/text.hpp>

namespace plinth::stream {
namespace {

// Redis's string2ull: a canonical int64 that is not negative, else whatever strtoull takes
// whole (leading blanks, a sign, leading zeros).
bool ParseU64(const std::string& s, uint64_t* out) {
  int64_t ll = 0;
  if (text::ParseInt64(s, &ll)) {
    if (ll < 0) return false;
    *out = static_cast<uint64_t>(ll);
    return true;
  }
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno == EINVAL || errno == ERANGE || s.empty() || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

std::string StreamId::ToString() const { return std::to_string(ms) + "-" + std::to_string(seq); }

bool StreamId::Incr() {
  if (seq == UINT64_MAX) {
    if (ms == UINT64_MAX) return false;
    ++ms;
    seq = 0;
  } else {
    ++seq;
  }
  return true;
}

bool StreamId::Decr() {
  if (seq == 0) {
    if (ms == 0) return false;
    --ms;
    seq = UINT64_MAX;
  } else {
    --seq;
  }
  return true;
}

void StreamId::Encode(unsigned char out[16]) const {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<unsigned char>(ms >> (56 - 8 * i));
    out[8 + i] = static_cast<unsigned char>(seq >> (56 - 8 * i));
  }
}

StreamId StreamId::Decode(const unsigned char in[16]) {
  StreamId id;
  for (int i = 0; i < 8; ++i) {
    id.ms = (id.ms << 8) | in[i];
    id.seq = (id.seq << 8) | in[8 + i];
  }
  return id;
}

bool ParseId(std::string_view s, StreamId* id, bool strict, uint64_t missing_seq, bool* seq_given) {
  if (s.size() > 127) return false;
  // Redis works on the C string: an embedded NUL ends it.
  std::string buf(s.substr(0, s.find('\0')));
  if (strict && (buf == "-" || buf == "+")) return false;
  if (seq_given) *seq_given = true;
  if (buf == "-") {
    *id = StreamId{0, 0};
    return true;
  }
  if (buf == "+") {
    *id = StreamId::Max();
    return true;
  }
  const size_t dash = buf.find('-');
  uint64_t ms = 0, seq = missing_seq;
  if (!ParseU64(buf.substr(0, dash), &ms)) return false;
  if (dash != std::string::npos) {
    const std::string rest = buf.substr(dash + 1);
    if (seq_given && rest == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!ParseU64(rest, &seq)) {
      return false;
    }
  }
  *id = StreamId{ms, seq};
  return true;
}

bool ParseRangeId(std::string_view s, StreamId* id, bool* exclusive, uint64_t missing_seq) {
  *exclusive = s.size() > 1 && s[0] == '(';
  if (*exclusive) return ParseId(s.substr(1), id, true, missing_seq);
  return ParseId(s, id, false, missing_seq);
}

}  // namespace plinth::stream
