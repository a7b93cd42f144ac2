// notify-keyspace-events letters <-> PLINTH_NOTIFY_* bits. Pure.
#include "pubsub/notify_flags.h"

#include <plinth/plugin.h>

namespace plinth::pubsub {
namespace {

struct Letter {
  char c;
  uint32_t bit;
};

// The class letters in the order Redis 7.0 prints them.
constexpr Letter kClassLetters[] = {
    {'g', PLINTH_NOTIFY_GENERIC}, {'$', PLINTH_NOTIFY_STRING},  {'l', PLINTH_NOTIFY_LIST},
    {'s', PLINTH_NOTIFY_SET},     {'h', PLINTH_NOTIFY_HASH},    {'z', PLINTH_NOTIFY_ZSET},
    {'x', PLINTH_NOTIFY_EXPIRED}, {'e', PLINTH_NOTIFY_EVICTED}, {'t', PLINTH_NOTIFY_STREAM},
    {'d', PLINTH_NOTIFY_MODULE},  {'n', PLINTH_NOTIFY_NEW},
};
constexpr Letter kOtherLetters[] = {
    {'K', PLINTH_NOTIFY_KEYSPACE}, {'E', PLINTH_NOTIFY_KEYEVENT}, {'m', PLINTH_NOTIFY_KEY_MISS}};

uint32_t LetterBit(char c) {
  if (c == 'A') return kNotifyAll;
  for (const Letter& l : kClassLetters)
    if (l.c == c) return l.bit;
  for (const Letter& l : kOtherLetters)
    if (l.c == c) return l.bit;
  return 0;
}

}  // namespace

bool ParseNotifyFlags(std::string_view text, uint32_t* flags) {
  uint32_t out = 0;
  for (char c : text) {
    const uint32_t bit = LetterBit(c);
    if (bit == 0) return false;
    out |= bit;
  }
  *flags = out;
  return true;
}

std::string NotifyFlagsText(uint32_t flags) {
  std::string out;
  if ((flags & kNotifyAll) == kNotifyAll) {
    out += 'A';
  } else {
    for (const Letter& l : kClassLetters)
      if (flags & l.bit) out += l.c;
  }
  for (const Letter& l : kOtherLetters)
    if (flags & l.bit) out += l.c;
  return out;
}

}  // namespace plinth::pubsub
