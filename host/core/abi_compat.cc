#include "host/core/abi_compat.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace plinth::host {

bool CopySizedStruct(void* dst, size_t dst_size, const void* src, size_t min_size) {
  if (!src) return false;
  uint32_t size;
  std::memcpy(&size, src, sizeof size);
  if (size < min_size) return false;
  if (size > dst_size) {
    const auto* tail = static_cast<const unsigned char*>(src);
    for (size_t i = dst_size; i < size; ++i)
      if (tail[i]) return false;
  }
  std::memset(dst, 0, dst_size);
  std::memcpy(dst, src, std::min<size_t>(size, dst_size));
  const auto own = static_cast<uint32_t>(dst_size);
  std::memcpy(dst, &own, sizeof own);
  return true;
}

namespace {

struct ReplyTypeEntry {
  uint32_t since_minor;  // the ABI minor that added the type
  uint32_t fallback;     // the 1.0 type it stands for in older protocol plugins
};

// Indexed by PLINTH_REPLY_*; every type of 1.0 stands for itself.
constexpr ReplyTypeEntry kReplyTypes[] = {
    {0, 0},
    {0, PLINTH_REPLY_SIMPLE},
    {0, PLINTH_REPLY_ERROR},
    {0, PLINTH_REPLY_INTEGER},
    {0, PLINTH_REPLY_BULK},
    {0, PLINTH_REPLY_NULL},
    {0, PLINTH_REPLY_NULL_ARRAY},
    {0, PLINTH_REPLY_ARRAY},
    {0, PLINTH_REPLY_MAP},
    {0, PLINTH_REPLY_SET},
    {0, PLINTH_REPLY_DOUBLE},
    {0, PLINTH_REPLY_BOOL},
    {0, PLINTH_REPLY_VERBATIM},
    {0, PLINTH_REPLY_BIGNUM},
    {0, PLINTH_REPLY_PUSH},
};

}  // namespace

bool ReplyTypesNewerThan(uint32_t minor) {
  for (const ReplyTypeEntry& e : kReplyTypes)
    if (e.since_minor > minor) return true;
  return false;
}

uint32_t ReplyTypeForMinor(uint32_t type, uint32_t minor) {
  if (type == 0 || type >= std::size(kReplyTypes)) return 0;
  const ReplyTypeEntry& e = kReplyTypes[type];
  return e.since_minor <= minor ? type : e.fallback;
}

}  // namespace plinth::host
