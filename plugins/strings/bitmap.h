// Bit operations over string bytes for the bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS,
// BITOP), with Redis's bit order (bit 0 is the most significant bit of byte 0) and its range
// rules. Pure functions over std::string_view / std::string; any thread.
#ifndef PLINTH_STRINGS_BITMAP_H
#define PLINTH_STRINGS_BITMAP_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::strings {

// Number of set bits in bytes.
uint64_t PopCount(std::string_view bytes);

// BITCOUNT key start end [BYTE|BIT]: the set bits of s within the user's range, in bytes or, with
// bit_unit, in bits (negative indexes count from the end, as in Redis).
uint64_t BitCount(std::string_view s, int64_t start, int64_t end, bool bit_unit);

// The optional range arguments of BITPOS.
struct BitPosRange {
  bool has_start = false;
  int64_t start = 0;
  bool has_end = false;
  int64_t end = 0;
  bool bit_unit = false;  // BIT given (only valid with has_end)
};

// BITPOS key bit [start [end [BYTE|BIT]]] on an existing string s: the absolute position of
// the first bit equal to bit (0 or 1) within the range, or -1. Without an explicit end, a clear
// bit searched past the string's end is found just after it (the string is taken as padded with
// zeros), as in Redis.
int64_t BitPos(std::string_view s, int bit, const BitPosRange& range);

// Parses a SETBIT/GETBIT offset: a Redis integer >= 0 whose byte (offset / 8) is below
// max_bytes (proto-max-bulk-len). Returns false when it is not; then Redis replies
// kErrBitOffset.
bool ParseBitOffset(std::string_view arg, int64_t max_bytes, uint64_t* out);

// The bit at offset in s (0 past the end).
int GetBit(std::string_view s, uint64_t offset);

// Sets the bit at offset in bytes (which holds at least offset / 8 + 1 bytes) to on (0 or 1).
// Returns the bit's previous value.
int SetBit(char* bytes, uint64_t offset, int on);

enum class BitOpKind { kAnd, kOr, kXor, kNot };

// Parses BITOP's operation name (AND, OR, XOR, NOT in any case). Returns false otherwise.
bool ParseBitOp(std::string_view name, BitOpKind* out);

// The result of BITOP op over srcs (a missing key is an empty string; shorter strings are
// padded with zero bytes). Its length is the longest source's. NOT uses srcs[0] only.
std::string BitOp(BitOpKind op, const std::vector<std::string_view>& srcs);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_BITMAP_H
