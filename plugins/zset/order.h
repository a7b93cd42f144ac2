// The total order of a sorted set's entries, shared by both encodings. THREAD: any.
#ifndef PLINTH_ZSET_ORDER_H
#define PLINTH_ZSET_ORDER_H

#include <string_view>

namespace plinth::zset {

// True when (s1, m1) sorts before (s2, m2): by score, then by member bytes (memcmp order,
// a prefix first).
inline bool EntryLess(double s1, std::string_view m1, double s2, std::string_view m2) {
  return s1 < s2 || (s1 == s2 && m1 < m2);
}

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_ORDER_H
