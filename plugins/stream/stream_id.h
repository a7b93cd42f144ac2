// Stream entry ids ("<ms>-<seq>") and their parsing with Redis 7.0's exact rules: the strict
// form of XADD/XDEL/XACK ("-" and "+" refused, "<ms>-*" allowed where asked), the range form of
// XRANGE ("-", "+", "(" exclusive), and "<ms>" alone with a default sequence. Pure C++; THREAD:
// any.
#ifndef PLINTH_STREAM_STREAM_ID_H
#define PLINTH_STREAM_STREAM_ID_H

#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::stream {

struct StreamId {
  uint64_t ms = 0;
  uint64_t seq = 0;

  friend bool operator==(const StreamId& a, const StreamId& b) {
    return a.ms == b.ms && a.seq == b.seq;
  }
  friend bool operator!=(const StreamId& a, const StreamId& b) { return !(a == b); }
  friend bool operator<(const StreamId& a, const StreamId& b) {
    return a.ms < b.ms || (a.ms == b.ms && a.seq < b.seq);
  }
  friend bool operator>(const StreamId& a, const StreamId& b) { return b < a; }
  friend bool operator<=(const StreamId& a, const StreamId& b) { return !(b < a); }
  friend bool operator>=(const StreamId& a, const StreamId& b) { return !(a < b); }

  bool IsZero() const { return ms == 0 && seq == 0; }
  bool IsMax() const { return ms == UINT64_MAX && seq == UINT64_MAX; }
  // "<ms>-<seq>".
  std::string ToString() const;
  // The next id; false (unchanged) at the largest one.
  bool Incr();
  // The previous id; false (unchanged) at 0-0.
  bool Decr();
  // The 16 bytes Redis keys nodes and PEL entries by (big endian ms, then seq).
  void Encode(unsigned char out[16]) const;
  static StreamId Decode(const unsigned char in[16]);
  static StreamId Max() { return {UINT64_MAX, UINT64_MAX}; }
};

inline constexpr std::string_view kErrInvalidId =
    "ERR Invalid stream ID specified as stream command argument";

// Parses s. strict refuses "-" and "+"; seq_given non-null allows "<ms>-*" (then *seq_given is
// false and seq 0); missing_seq is the sequence of "<ms>" alone. False on a malformed id.
bool ParseId(std::string_view s, StreamId* id, bool strict, uint64_t missing_seq,
             bool* seq_given = nullptr);
// Parses a range bound: "(" + a strict id sets *exclusive, else the loose form.
bool ParseRangeId(std::string_view s, StreamId* id, bool* exclusive, uint64_t missing_seq);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_STREAM_ID_H
