// The bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP) over string values, with Redis
// 7.0's argument order, error texts and edge cases, and their registration table. The bit
// arithmetic itself is in bitmap.cc. Main thread only.
#include <algorithm>
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "common/acl_keys.h"
#include "strings/bitmap.h"
#include "strings/commands.h"
#include "strings/errors.h"
#include "strings/string_values.h"
#include "strings/token.h"

namespace plinth::strings {
namespace {

// Parses BYTE or BIT into *bit_unit; replies a syntax error otherwise.
bool ParseUnitOrReply(const Call& c, std::string_view arg, bool* bit_unit) {
  if (IsToken(arg, "BIT")) {
    *bit_unit = true;
  } else if (IsToken(arg, "BYTE")) {
    *bit_unit = false;
  } else {
    c.Error(errors::kSyntax);
    return false;
  }
  return true;
}

bool ParseIntOrReply(const Call& c, std::string_view arg, int64_t* out) {
  if (text::ParseInt64(arg, out)) return true;
  c.Error(errors::kNotInteger);
  return false;
}

void SetBitCommand(Call& c) {
  std::string_view key = c.arg(1);
  uint64_t offset = 0;
  if (!ParseBitOffset(c.arg(2), MaxBulkLen(), &offset)) {
    c.Error(kErrBitOffset);
    return;
  }
  int64_t on = 0;
  if (!text::ParseInt64(c.arg(3), &on) || (on & ~int64_t{1}) != 0) {
    c.Error(kErrBitValue);
    return;
  }
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  std::string_view old = Bytes(v);
  int old_bit = GetBit(old, offset);
  // An existing string that already holds the bit stays as it is (nothing to propagate).
  if (v && (offset >> 3) < old.size() && old_bit == on) {
    c.Integer(old_bit);
    return;
  }
  size_t need = std::max(old.size(), static_cast<size_t>(offset >> 3) + 1);
  SetBit(ResizeString(c, key, need), offset, static_cast<int>(on));
  c.Event(PLINTH_NOTIFY_STRING, "setbit", key);
  c.Integer(old_bit);
}

void GetBitCommand(Call& c) {
  uint64_t offset = 0;
  if (!ParseBitOffset(c.arg(2), MaxBulkLen(), &offset)) {
    c.Error(kErrBitOffset);
    return;
  }
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, c.arg(1), &v)) return;
  c.Integer(GetBit(Bytes(v), offset));
}

// BITCOUNT key [start end [BYTE|BIT]]. Like Redis, a missing key answers 0 before the range
// arguments are looked at.
void BitCountCommand(Call& c) {
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, c.arg(1), &v)) return;
  if (!v) {
    c.Integer(0);
    return;
  }
  std::string_view s = Bytes(v);
  if (c.argc() == 2) {
    c.Integer(static_cast<int64_t>(PopCount(s)));
    return;
  }
  if (c.argc() != 4 && c.argc() != 5) {
    c.Error(errors::kSyntax);
    return;
  }
  int64_t start = 0, end = 0;
  bool bit_unit = false;
  if (!ParseIntOrReply(c, c.arg(2), &start) || !ParseIntOrReply(c, c.arg(3), &end)) return;
  // Redis answers a reversed all-negative range before it looks at BYTE|BIT.
  if (start < 0 && end < 0 && start > end) {
    c.Integer(0);
    return;
  }
  if (c.argc() == 5 && !ParseUnitOrReply(c, c.arg(4), &bit_unit)) return;
  c.Integer(static_cast<int64_t>(BitCount(s, start, end, bit_unit)));
}

// BITPOS key bit [start [end [BYTE|BIT]]]. A missing key is all clear bits: 0 for bit 0, -1
// for bit 1, whatever the range.
void BitPosCommand(Call& c) {
  int64_t bit = 0;
  if (!ParseIntOrReply(c, c.arg(2), &bit)) return;
  if (bit != 0 && bit != 1) {
    c.Error(kErrBitArg);
    return;
  }
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, c.arg(1), &v)) return;
  if (!v) {
    c.Integer(bit ? -1 : 0);
    return;
  }
  BitPosRange range;
  if (c.argc() > 6) {
    c.Error(errors::kSyntax);
    return;
  }
  if (c.argc() >= 4) {
    range.has_start = true;
    if (!ParseIntOrReply(c, c.arg(3), &range.start)) return;
    if (c.argc() == 6 && !ParseUnitOrReply(c, c.arg(5), &range.bit_unit)) return;
    if (c.argc() >= 5) {
      range.has_end = true;
      if (!ParseIntOrReply(c, c.arg(4), &range.end)) return;
    }
  }
  c.Integer(BitPos(Bytes(v), static_cast<int>(bit), range));
}

// BITOP op destkey key [key ...]: stores the result (clearing destkey's TTL) or, when every
// source is empty or missing, deletes destkey. Replies the result's length.
void BitOpCommand(Call& c) {
  BitOpKind op;
  if (!ParseBitOp(c.arg(1), &op)) {
    c.Error(errors::kSyntax);
    return;
  }
  if (op == BitOpKind::kNot && c.argc() != 4) {
    c.Error(kErrBitopNot);
    return;
  }
  std::vector<std::string_view> srcs;
  srcs.reserve(static_cast<size_t>(c.argc() - 3));
  for (int i = 3; i < c.argc(); ++i) {
    const plinth_value_t* v = nullptr;
    if (!LookupString(c, c.arg(i), &v)) return;
    srcs.push_back(Bytes(v));
  }
  std::string result = BitOp(op, srcs);
  std::string_view dest = c.arg(2);
  if (result.empty()) {
    if (c.Delete(dest)) c.Event(PLINTH_NOTIFY_GENERIC, "del", dest);
  } else {
    c.PutString(dest, result);
    c.Event(PLINTH_NOTIFY_STRING, "set", dest);
  }
  c.Integer(static_cast<int64_t>(result.size()));
}

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kM = PLINTH_CMD_DENYOOM;

}  // namespace

bool RegisterBitmapCommands() {
  using sdk::CommandDef;
  const char* g = "bitmap";
  const CommandDef defs[] = {
      {"setbit", 4, kW | kM, 1, 1, 1, SetBitCommand, g, "key offset value",
       "Sets or clears the bit at offset in the string value stored at key", "2.2.0",
       PLINTH_ACL_BITMAP},
      {"getbit", 3, kR | kF, 1, 1, 1, GetBitCommand, g, "key offset",
       "Returns the bit value at offset in the string value stored at key", "2.2.0",
       PLINTH_ACL_BITMAP},
      {"bitcount", -2, kR, 1, 1, 1, BitCountCommand, g, "key [start end [BYTE|BIT]]",
       "Count set bits in a string", "2.6.0", PLINTH_ACL_BITMAP},
      {"bitpos", -3, kR, 1, 1, 1, BitPosCommand, g, "key bit [start [end [BYTE|BIT]]]",
       "Find first bit set or clear in a string", "2.8.7", PLINTH_ACL_BITMAP},
      {"bitop", -4, kW | kM, 2, -1, 1, BitOpCommand, g, "AND|OR|XOR|NOT destkey key [key ...]",
       "Perform bitwise operations between strings", "2.6.0", PLINTH_ACL_BITMAP, 0,
       &common::FirstAndRest<2, PLINTH_KEY_WRITE, PLINTH_KEY_READ>},
  };
  return sdk::RegisterCommands(defs);
}

}  // namespace plinth::strings
