/* struct for Lua 5.1, written from the documented format language of Roberto Ierusalimschy's
 * struct library and the observed behaviour of Redis 7.0's copy of it: same bytes, values and
 * error messages, with Redis's bounds checks (size overflow, data length, c0 length). Runs on
 * the thread of the lua_State it is given. */
#include "scripting/lib/struct.h"

#include <ctype.h>
#include <lauxlib.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define kMaxIntSize 32 /* bytes of an i/I field */
#define kMaxAlign 8    /* "!" without a number: the strictest alignment of the platform */

/* The state a format string changes as it is read: byte order and maximum alignment. */
typedef struct Layout {
  int big_endian;
  size_t align;
} Layout;

static int HostIsBigEndian(void) {
  const uint16_t probe = 1;
  unsigned char first;
  memcpy(&first, &probe, 1);
  return first == 0;
}

static void InitLayout(Layout* layout) {
  layout->big_endian = HostIsBigEndian();
  layout->align = 1;
}

/* Reads the decimal number at *fmt, or returns "dflt" when there is none. Raises an error when
 * it would not fit an int (Redis's fix for overflowing sizes). */
static int ReadCount(lua_State* L, const char** fmt, int dflt) {
  if (!isdigit((unsigned char)**fmt)) return dflt;
  int n = 0;
  while (isdigit((unsigned char)**fmt)) {
    int digit = **fmt - '0';
    if (n > (INT_MAX - digit) / 10) luaL_error(L, "integral size overflow");
    n = n * 10 + digit;
    (*fmt)++;
  }
  return n;
}

/* Bytes taken by option "opt" (reading its count from *fmt); 0 for options with no data and
 * for "s" and "c0", whose size comes from the data. */
static size_t OptionSize(lua_State* L, int opt, const char** fmt) {
  switch (opt) {
    case 'b':
    case 'B':
      return sizeof(char);
    case 'h':
    case 'H':
      return sizeof(short);
    case 'l':
    case 'L':
      return sizeof(long);
    case 'T':
      return sizeof(size_t);
    case 'f':
      return sizeof(float);
    case 'd':
      return sizeof(double);
    case 'x':
      return 1;
    case 'c':
      return (size_t)ReadCount(L, fmt, 1);
    case 'i':
    case 'I': {
      int size = ReadCount(L, fmt, (int)sizeof(int));
      if (size > kMaxIntSize) {
        luaL_error(L, "integral size %d is larger than limit of %d", size, kMaxIntSize);
      }
      return (size_t)size;
    }
    default:
      return 0;
  }
}

/* Padding before an item of "size" bytes at offset "len": items align to min(size, align);
 * strings never align. */
static size_t Padding(size_t len, const Layout* layout, int opt, size_t size) {
  if (size == 0 || opt == 'c') return 0;
  if (size > layout->align) size = layout->align;
  return (size - (len & (size - 1))) & (size - 1);
}

/* Applies a non-data option: ' ', '<', '>' or '!n'; anything else is a format error. */
static void ApplyControl(lua_State* L, int opt, const char** fmt, Layout* layout) {
  switch (opt) {
    case ' ':
      return;
    case '<':
      layout->big_endian = 0;
      return;
    case '>':
      layout->big_endian = 1;
      return;
    case '!': {
      int align = ReadCount(L, fmt, kMaxAlign);
      if (align <= 0 || (align & (align - 1)) != 0) {
        luaL_error(L, "alignment %d is not a power of 2", align);
      }
      layout->align = (size_t)align;
      return;
    }
    default:
      luaL_argerror(L, 1, lua_pushfstring(L, "invalid format option '%c'", opt));
  }
}

/* Reverses "n" bytes when the wanted order is not the host's. */
static void FixOrder(unsigned char* bytes, size_t n, int big_endian) {
  if (big_endian == HostIsBigEndian()) return;
  for (size_t i = 0; i < n / 2; i++) {
    unsigned char t = bytes[i];
    bytes[i] = bytes[n - 1 - i];
    bytes[n - 1 - i] = t;
  }
}

/* The 64 bits Redis (built for x86-64) stores for number "n": the value truncated toward zero,
 * two's complement when negative; out-of-range values give the x86 conversion results (0, or
 * just the sign bit) instead of undefined behaviour. */
static uint64_t NumberBits(lua_Number n) {
  if (n < 0) return n >= -9223372036854775808.0 ? (uint64_t)(int64_t)n : UINT64_C(1) << 63;
  if (n < 18446744073709551616.0) return (uint64_t)n;
  return n != n ? UINT64_C(1) << 63 : 0; /* NaN, or >= 2^64 */
}

static void PutInteger(lua_State* L, luaL_Buffer* b, int arg, int big_endian, size_t size) {
  uint64_t value = NumberBits(luaL_checknumber(L, arg));
  unsigned char bytes[kMaxIntSize];
  /* Past 8 bytes the field is zero-filled, also for negatives (as in Redis). */
  for (size_t i = 0; i < size; i++) {
    bytes[big_endian ? size - 1 - i : i] = (unsigned char)(value & 0xff);
    value >>= 8;
  }
  luaL_addlstring(b, (const char*)bytes, size);
}

/* Reads a "size"-byte integer. Only the 8 least significant bytes count; for wider signed fields
 * the sign mask uses the shift count modulo 64, as the x86 build of Redis computes it. */
static lua_Number GetInteger(const unsigned char* p, int big_endian, int is_signed, size_t size) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; i++) v = (v << 8) | p[big_endian ? i : size - 1 - i];
  if (!is_signed) return (lua_Number)v;
  uint64_t mask = ~UINT64_C(0) << ((size * 8 - 1) & 63);
  if (v & mask) v |= mask;
  return (lua_Number)(int64_t)v;
}

/* struct.pack(fmt, ...) -> string. */
static int StructPack(lua_State* L) {
  const char* fmt = luaL_checkstring(L, 1);
  Layout layout;
  InitLayout(&layout);
  int arg = 2;
  size_t total = 0;
  luaL_Buffer b;
  lua_pushnil(L); /* a missing argument reads as this nil, not as the buffer's stack slots */
  luaL_buffinit(L, &b);
  while (*fmt != '\0') {
    int opt = (unsigned char)*fmt++;
    size_t size = OptionSize(L, opt, &fmt);
    size_t pad = Padding(total, &layout, opt, size);
    total += pad;
    for (; pad > 0; pad--) luaL_addchar(&b, '\0');
    switch (opt) {
      case 'b':
      case 'B':
      case 'h':
      case 'H':
      case 'l':
      case 'L':
      case 'T':
      case 'i':
      case 'I':
        PutInteger(L, &b, arg++, layout.big_endian, size);
        break;
      case 'x':
        luaL_addchar(&b, '\0');
        break;
      case 'f': {
        float f = (float)luaL_checknumber(L, arg++);
        unsigned char bytes[sizeof f];
        memcpy(bytes, &f, sizeof f);
        FixOrder(bytes, sizeof f, layout.big_endian);
        luaL_addlstring(&b, (const char*)bytes, sizeof f);
        break;
      }
      case 'd': {
        double d = luaL_checknumber(L, arg++);
        unsigned char bytes[sizeof d];
        memcpy(bytes, &d, sizeof d);
        FixOrder(bytes, sizeof d, layout.big_endian);
        luaL_addlstring(&b, (const char*)bytes, sizeof d);
        break;
      }
      case 'c':
      case 's': {
        size_t len;
        const char* s = luaL_checklstring(L, arg++, &len);
        if (size == 0) size = len;
        /* Redis names the argument after the string; kept so messages match. */
        luaL_argcheck(L, len >= size, arg, "string too short");
        luaL_addlstring(&b, s, size);
        if (opt == 's') {
          luaL_addchar(&b, '\0');
          size++;
        }
        break;
      }
      default:
        ApplyControl(L, opt, &fmt, &layout);
    }
    total += size;
  }
  luaL_pushresult(&b);
  return 1;
}

/* The field of option 'c0': as long as the number just unpacked, which it replaces. */
static size_t TakeC0Size(lua_State* L, int* results) {
  if (*results == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
  size_t size = (size_t)NumberBits(lua_tonumber(L, -1));
  lua_pop(L, 1);
  (*results)--;
  return size;
}

/* struct.unpack(fmt, data [, pos]) -> values..., next position. */
static int StructUnpack(lua_State* L) {
  const char* fmt = luaL_checkstring(L, 1);
  size_t len;
  const unsigned char* data = (const unsigned char*)luaL_checklstring(L, 2, &len);
  size_t pos = (size_t)luaL_optinteger(L, 3, 1);
  luaL_argcheck(L, pos > 0, 3, "offset must be 1 or greater");
  pos--;
  Layout layout;
  InitLayout(&layout);
  int results = 0;
  while (*fmt != '\0') {
    int opt = (unsigned char)*fmt++;
    size_t size = OptionSize(L, opt, &fmt);
    pos += Padding(pos, &layout, opt, size);
    luaL_argcheck(L, size <= len && pos <= len - size, 2, "data string too short");
    luaL_checkstack(L, 2, "too many results");
    switch (opt) {
      case 'b':
      case 'B':
      case 'h':
      case 'H':
      case 'l':
      case 'L':
      case 'T':
      case 'i':
      case 'I':
        lua_pushnumber(L, GetInteger(data + pos, layout.big_endian, islower(opt), size));
        results++;
        break;
      case 'x':
        break;
      case 'f': {
        unsigned char bytes[sizeof(float)];
        float f;
        memcpy(bytes, data + pos, sizeof bytes);
        FixOrder(bytes, sizeof bytes, layout.big_endian);
        memcpy(&f, bytes, sizeof f);
        lua_pushnumber(L, f);
        results++;
        break;
      }
      case 'd': {
        unsigned char bytes[sizeof(double)];
        double d;
        memcpy(bytes, data + pos, sizeof bytes);
        FixOrder(bytes, sizeof bytes, layout.big_endian);
        memcpy(&d, bytes, sizeof d);
        lua_pushnumber(L, d);
        results++;
        break;
      }
      case 'c':
        if (size == 0) {
          size = TakeC0Size(L, &results);
          luaL_argcheck(L, size <= len && pos <= len - size, 2, "data string too short");
        }
        lua_pushlstring(L, (const char*)data + pos, size);
        results++;
        break;
      case 's': {
        const unsigned char* end = (const unsigned char*)memchr(data + pos, '\0', len - pos);
        if (end == NULL) luaL_error(L, "unfinished string in data");
        size = (size_t)(end - (data + pos)) + 1;
        lua_pushlstring(L, (const char*)data + pos, size - 1);
        results++;
        break;
      }
      default:
        ApplyControl(L, opt, &fmt, &layout);
    }
    pos += size;
  }
  lua_pushinteger(L, (lua_Integer)(pos + 1));
  return results + 1;
}

/* struct.size(fmt) -> bytes of a record. Options with no data other than '!' are not checked
 * (Redis returns a size for "z" too). */
static int StructSize(lua_State* L) {
  const char* fmt = luaL_checkstring(L, 1);
  Layout layout;
  InitLayout(&layout);
  size_t pos = 0;
  while (*fmt != '\0') {
    int opt = (unsigned char)*fmt++;
    size_t size = OptionSize(L, opt, &fmt);
    pos += Padding(pos, &layout, opt, size);
    if (opt == 's') luaL_argerror(L, 1, "option 's' has no fixed size");
    if (opt == 'c' && size == 0) luaL_argerror(L, 1, "option 'c0' has no fixed size");
    if (opt == '!') ApplyControl(L, opt, &fmt, &layout);
    pos += size;
  }
  lua_pushinteger(L, (lua_Integer)pos);
  return 1;
}

int plinth_luaopen_struct(lua_State* L) {
  static const luaL_Reg kFunctions[] = {
      {"pack", StructPack}, {"unpack", StructUnpack}, {"size", StructSize}, {NULL, NULL}};
  luaL_register(L, "struct", kFunctions);
  return 1;
}
