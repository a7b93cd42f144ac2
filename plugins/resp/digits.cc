// Table-driven decimal formatting: two digits per step, no snprintf.
#include "resp/digits.h"

#include <cstring>

namespace plinth::resp {

namespace {
constexpr char kPairs[201] =
    "00010203040506070809"
    "10111213141516171819"
    "20212223242526272829"
    "30313233343536373839"
    "40414243444546474849"
    "50515253545556575859"
    "60616263646566676869"
    "70717273747576777879"
    "80818283848586878889"
    "90919293949596979899";

size_t DigitCount(uint64_t v) {
  size_t n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}
}  // namespace

size_t WriteUint64(char* dst, uint64_t v) {
  const size_t len = DigitCount(v);
  size_t pos = len;
  while (v >= 100) {
    const unsigned i = static_cast<unsigned>(v % 100) * 2;
    v /= 100;
    dst[--pos] = kPairs[i + 1];
    dst[--pos] = kPairs[i];
  }
  if (v >= 10) {
    const unsigned i = static_cast<unsigned>(v) * 2;
    dst[--pos] = kPairs[i + 1];
    dst[--pos] = kPairs[i];
  } else {
    dst[--pos] = static_cast<char>('0' + v);
  }
  return len;
}

size_t WriteInt64(char* dst, int64_t v) {
  if (v >= 0) return WriteUint64(dst, static_cast<uint64_t>(v));
  dst[0] = '-';
  return 1 + WriteUint64(dst + 1, 0 - static_cast<uint64_t>(v));
}

}  // namespace plinth::resp
