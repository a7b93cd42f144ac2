// A listpack: Redis's packed list of strings and integers in one byte buffer, written here from
// the published format (a 6-byte header with the total bytes and the element count, entries of
// encoding + data + backlen, a 0xFF terminator). The stream nodes keep their entries in it so a
// node's bytes are exactly what Redis keeps, and RDB files carry them as they are.
// Pure C++; THREAD: whoever owns the buffer.
#ifndef PLINTH_STREAM_LISTPACK_H
#define PLINTH_STREAM_LISTPACK_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::stream {

// One decoded element: an integer, or a string (a view into the buffer).
struct LpValue {
  bool is_int = false;
  int64_t num = 0;
  std::string_view str;
  // The element as Redis replies it: the text of an integer, or the string.
  std::string Text() const;
};

// Helpers over a listpack held in a std::string. Offsets point at an element's first byte; the
// terminator's offset means "end".
namespace lp {

inline constexpr size_t kHeaderSize = 6;
inline constexpr uint8_t kEof = 0xFF;

// A new, empty listpack.
std::string Create();
// Total bytes as the header says (equals the buffer's size for a well-formed one).
uint32_t Bytes(const std::string& lp);
// Element count (65535 means "count it").
uint32_t HeaderCount(const std::string& lp);
// Offset of the first element (the terminator's offset when empty).
inline size_t First() { return kHeaderSize; }
// True when off is the terminator.
inline bool AtEnd(const std::string& lp, size_t off) {
  return static_cast<uint8_t>(lp[off]) == kEof;
}
// Offset of the element after the one at off.
size_t Next(const std::string& lp, size_t off);
// Offset of the element before the one at off (off may be the terminator); npos at the first.
size_t Prev(const std::string& lp, size_t off);
// Offset of the last element, npos when empty.
size_t Last(const std::string& lp);
// Decodes the element at off.
LpValue Get(const std::string& lp, size_t off);
// Reads the element at off as an integer (a string that is a canonical integer counts).
int64_t GetInt(const std::string& lp, size_t off);

// Appends an integer element.
void AppendInt(std::string* lp, int64_t v);
// Appends a string element; a canonical integer text ("12", "-5") is stored as an integer, as
// Redis does.
void AppendString(std::string* lp, std::string_view s);
// Replaces the element at off with integer v (its size may change; later offsets move).
void ReplaceInt(std::string* lp, size_t off, int64_t v);

// Checks a listpack read from untrusted bytes: header, every entry's encoding and backlen in
// bounds, the terminator at the end, and the count when the header has one. Sets *count.
bool Validate(std::string_view lp, size_t* count);

}  // namespace lp
}  // namespace plinth::stream

#endif  // PLINTH_STREAM_LISTPACK_H
