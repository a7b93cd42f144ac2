/* cmsgpack for Lua 5.1, written from the MessagePack specification and the observed behaviour of
 * Redis 7.0's cmsgpack (lua-cmsgpack 0.4.0): same bytes out of pack, same values and error
 * messages out of unpack, including its quirks (no bin/ext types, depth 16 on pack, stack-bounded
 * depth on unpack). Runs on the thread of the lua_State it is given. */
#include "scripting/lib/cmsgpack.h"

#include <float.h>
#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Tables nested deeper than this pack as nil, so that cyclic tables terminate. */
#define kMaxPackNesting 16
#define kBufferMeta "plinth.cmsgpack.buffer"
#define kTooManyValues "too many return values at once; use unpack_one or unpack_limit instead."

/* ---- pack ---------------------------------------------------------------------------------- */

/* The encoded output of a pack call: a userdata made per call (so a finalizer that packs while a
 * pack runs cannot disturb it) whose __gc frees the bytes, also after an error. */
typedef struct PackBuffer {
  unsigned char* data;
  size_t len;
  size_t cap;
} PackBuffer;

/* The bytes come from the state's allocator, so a pack counts against the memory the state may
 * use (the scripting plugin caps it): a table holding one long string many times cannot make the
 * process allocate outside that cap. */
static void FreeBytes(lua_State* L, PackBuffer* buf) {
  void* ud = NULL;
  lua_Alloc alloc = lua_getallocf(L, &ud);
  if (buf->data) alloc(ud, buf->data, buf->cap, 0);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

static int PackBufferGc(lua_State* L) {
  FreeBytes(L, (PackBuffer*)lua_touserdata(L, 1));
  return 0;
}

/* Raises the allocator's own memory error: a new block of the size just refused is refused too. */
static void RaiseNoMemory(lua_State* L, size_t size) {
  lua_newuserdata(L, size);
  luaL_error(L, "not enough memory");
}

static void Append(lua_State* L, PackBuffer* buf, const void* bytes, size_t n) {
  if (n > buf->cap - buf->len) {
    size_t cap = buf->cap ? buf->cap : 64;
    while (cap - buf->len < n) {
      if (cap > SIZE_MAX / 2) luaL_error(L, "not enough memory");
      cap *= 2;
    }
    void* ud = NULL;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    unsigned char* grown = (unsigned char*)alloc(ud, buf->data, buf->cap, cap);
    if (grown == NULL) RaiseNoMemory(L, cap);
    buf->data = grown;
    buf->cap = cap;
  }
  memcpy(buf->data + buf->len, bytes, n);
  buf->len += n;
}

/* Appends "tag" followed by the low "width" bytes of "value", most significant first. */
static void AppendTagged(lua_State* L, PackBuffer* buf, unsigned tag, uint64_t value, int width) {
  unsigned char out[9];
  out[0] = (unsigned char)tag;
  for (int i = width; i >= 1; i--) {
    out[i] = (unsigned char)(value & 0xff);
    value >>= 8;
  }
  Append(L, buf, out, (size_t)width + 1);
}

static void EncodeInteger(lua_State* L, PackBuffer* buf, int64_t n) {
  unsigned char one;
  if (n >= 0) {
    if (n <= 127) {
      one = (unsigned char)n;
      Append(L, buf, &one, 1);
    } else if (n <= 0xff) {
      AppendTagged(L, buf, 0xcc, (uint64_t)n, 1);
    } else if (n <= 0xffff) {
      AppendTagged(L, buf, 0xcd, (uint64_t)n, 2);
    } else if (n <= 0xffffffffLL) {
      AppendTagged(L, buf, 0xce, (uint64_t)n, 4);
    } else {
      AppendTagged(L, buf, 0xcf, (uint64_t)n, 8);
    }
  } else if (n >= -32) {
    one = (unsigned char)(0xe0 | (n & 0x1f));
    Append(L, buf, &one, 1);
  } else if (n >= -128) {
    AppendTagged(L, buf, 0xd0, (uint64_t)n, 1);
  } else if (n >= -32768) {
    AppendTagged(L, buf, 0xd1, (uint64_t)n, 2);
  } else if (n >= -2147483648LL) {
    AppendTagged(L, buf, 0xd2, (uint64_t)n, 4);
  } else {
    AppendTagged(L, buf, 0xd3, (uint64_t)n, 8);
  }
}

/* Numbers with no fraction that fit an int64 pack as integers (so -0.0 packs as 0); others as
 * float32 when that loses nothing (infinities included), else float64. */
static void EncodeNumber(lua_State* L, PackBuffer* buf, lua_Number n) {
  if (n >= -9223372036854775808.0 && n < 9223372036854775808.0 && n == (lua_Number)(int64_t)n) {
    EncodeInteger(L, buf, (int64_t)n);
    return;
  }
  if (isinf(n) || (fabs(n) <= FLT_MAX && (lua_Number)(float)n == n)) {
    float f = (float)n;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    AppendTagged(L, buf, 0xca, bits, 4);
    return;
  }
  uint64_t bits;
  memcpy(&bits, &n, sizeof bits);
  AppendTagged(L, buf, 0xcb, bits, 8);
}

static void EncodeString(lua_State* L, PackBuffer* buf, const char* s, size_t len) {
  if (len < 32) {
    unsigned char tag = (unsigned char)(0xa0 | len);
    Append(L, buf, &tag, 1);
  } else if (len <= 0xff) {
    AppendTagged(L, buf, 0xd9, len, 1);
  } else if (len <= 0xffff) {
    AppendTagged(L, buf, 0xda, len, 2);
  } else {
    AppendTagged(L, buf, 0xdb, len, 4);
  }
  Append(L, buf, s, len);
}

/* fix form when count <= 15, else the 16- or 32-bit form. */
static void EncodeContainerHeader(lua_State* L, PackBuffer* buf, size_t count, unsigned fix,
                                  unsigned tag16) {
  if (count <= 15) {
    unsigned char tag = (unsigned char)(fix | count);
    Append(L, buf, &tag, 1);
  } else if (count <= 0xffff) {
    AppendTagged(L, buf, tag16, count, 2);
  } else {
    AppendTagged(L, buf, tag16 + 1, count, 4);
  }
}

/* An array is a table whose keys are exactly the integers 1..n (n may be 0). */
static int TableIsArray(lua_State* L) {
  lua_Number count = 0, max = 0;
  luaL_checkstack(L, 2, "in function table_is_an_array");
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_Number key = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    if (!(key > 0) || key != floor(key)) {
      lua_pop(L, 1);
      return 0;
    }
    if (key > max) max = key;
    count++;
  }
  return max == count;
}

static void EncodeValue(lua_State* L, PackBuffer* buf, int level);

static void EncodeTable(lua_State* L, PackBuffer* buf, int level) {
  if (TableIsArray(L)) {
    size_t len = lua_objlen(L, -1);
    luaL_checkstack(L, 1, "in function mp_encode_lua_table_as_array");
    EncodeContainerHeader(L, buf, len, 0x90, 0xdc);
    for (size_t i = 1; i <= len; i++) {
      lua_rawgeti(L, -1, (int)i);
      EncodeValue(L, buf, level + 1);
    }
    return;
  }
  size_t pairs = 0;
  luaL_checkstack(L, 3, "in function mp_encode_lua_table_as_map");
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    pairs++;
  }
  EncodeContainerHeader(L, buf, pairs, 0x80, 0xde);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pushvalue(L, -2);
    EncodeValue(L, buf, level + 1); /* the key's copy */
    EncodeValue(L, buf, level + 1); /* the value; the key stays for lua_next */
  }
}

/* Encodes the value on top of the stack and pops it. Functions, userdata and threads pack as
 * nil, like tables nested kMaxPackNesting deep. */
static void EncodeValue(lua_State* L, PackBuffer* buf, int level) {
  static const unsigned char kNil = 0xc0, kFalse = 0xc2, kTrue = 0xc3;
  size_t len;
  const char* s;
  switch (lua_type(L, -1)) {
    case LUA_TNUMBER:
      EncodeNumber(L, buf, lua_tonumber(L, -1));
      break;
    case LUA_TSTRING:
      s = lua_tolstring(L, -1, &len);
      EncodeString(L, buf, s, len);
      break;
    case LUA_TBOOLEAN:
      Append(L, buf, lua_toboolean(L, -1) ? &kTrue : &kFalse, 1);
      break;
    case LUA_TTABLE:
      if (level < kMaxPackNesting)
        EncodeTable(L, buf, level);
      else
        Append(L, buf, &kNil, 1); /* too deep */
      break;
    default:
      Append(L, buf, &kNil, 1);
      break;
  }
  lua_pop(L, 1);
}

/* pack(...): each argument encoded in turn and the results concatenated. Redis keeps one string
 * per argument on the stack until the end; the buffer takes one more slot, paid back by encoding
 * arguments 1 and 2 into one string, so that the stack runs out on the same argument as there. */
static int Pack(lua_State* L) {
  int nargs = lua_gettop(L);
  if (nargs == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
  if (!lua_checkstack(L, nargs)) {
    return luaL_argerror(L, 0, "Too many arguments for MessagePack pack.");
  }
  PackBuffer* buf = (PackBuffer*)lua_newuserdata(L, sizeof(PackBuffer));
  memset(buf, 0, sizeof *buf);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_setmetatable(L, -2);
  int pieces = 0;
  for (int i = 1; i <= nargs; i++) {
    if (i != 2) buf->len = 0;
    luaL_checkstack(L, 1, "in function mp_check");
    lua_pushvalue(L, i);
    EncodeValue(L, buf, 0);
    if (i != 1 || nargs == 1) {
      lua_pushlstring(L, (const char*)buf->data, buf->len);
      pieces++;
    }
  }
  lua_concat(L, pieces);
  /* Freed now: the userdata's finalizer is only for a pack an error cut short (a finalizer
   * packing while the state closes would not be finalized itself). */
  FreeBytes(L, buf);
  return 1;
}

/* ---- unpack -------------------------------------------------------------------------------- */

enum { kDecodeOk = 0, kDecodeEof, kDecodeBadFormat };

typedef struct Cursor {
  const unsigned char* p;
  size_t left;
  int err;
} Cursor;

/* False (and err = EOF) when fewer than n bytes are left. */
static int Need(Cursor* c, size_t n) {
  if (c->left >= n) return 1;
  c->err = kDecodeEof;
  return 0;
}

/* Reads a big-endian unsigned of "width" bytes after the 1-byte tag and skips tag and field. */
static uint64_t TakeField(Cursor* c, int width) {
  uint64_t v = 0;
  for (int i = 1; i <= width; i++) v = (v << 8) | c->p[i];
  c->p += 1 + width;
  c->left -= 1 + (size_t)width;
  return v;
}

static void DecodeValue(lua_State* L, Cursor* c);

/* "hdr" bytes of header (already checked) then "len" bytes of string. */
static void DecodeString(lua_State* L, Cursor* c, size_t hdr, size_t len) {
  if (!Need(c, hdr + len)) return;
  lua_pushlstring(L, (const char*)c->p + hdr, len);
  c->p += hdr + len;
  c->left -= hdr + len;
}

static void DecodeArray(lua_State* L, Cursor* c, uint64_t len) {
  lua_newtable(L);
  luaL_checkstack(L, 1, "in function mp_decode_to_lua_array");
  for (uint64_t i = 1; i <= len; i++) {
    lua_pushnumber(L, (lua_Number)i);
    DecodeValue(L, c);
    if (c->err) return;
    lua_settable(L, -3);
  }
}

/* A nil or NaN key raises Lua's own "table index is nil/NaN" error, as Redis does. */
static void DecodeMap(lua_State* L, Cursor* c, uint64_t len) {
  lua_newtable(L);
  for (uint64_t i = 0; i < len; i++) {
    DecodeValue(L, c);
    if (c->err) return;
    DecodeValue(L, c);
    if (c->err) return;
    lua_settable(L, -3);
  }
}

/* Tags of fixed-width numbers: payload width, and how to read the bits. */
static int DecodeNumber(lua_State* L, Cursor* c, unsigned tag) {
  static const int kWidth[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8}; /* 0xca..0xd3 */
  if (tag < 0xca || tag > 0xd3) return 0;
  int width = kWidth[tag - 0xca];
  if (!Need(c, 1 + (size_t)width)) return 1;
  uint64_t v = TakeField(c, width);
  lua_Number n;
  if (tag == 0xca) {
    uint32_t bits = (uint32_t)v;
    float f;
    memcpy(&f, &bits, sizeof f);
    n = f;
  } else if (tag == 0xcb) {
    memcpy(&n, &v, sizeof n);
  } else if (tag < 0xcf) {
    n = (lua_Number)v;
  } else if (tag == 0xcf) {
    n = (lua_Number)(int64_t)v; /* Redis reads uint64 as int64: 2^64-1 unpacks as -1 */
  } else {
    int shift = 64 - 8 * width; /* sign-extend the field */
    n = (lua_Number)((int64_t)(v << shift) >> shift);
  }
  lua_pushnumber(L, n);
  return 1;
}

/* Pushes the next object. Leaves err set (and maybe a partial table pushed) on failure. Nesting
 * is bounded by the Lua stack (luaL_checkstack raises an error when it is exhausted). */
static void DecodeValue(lua_State* L, Cursor* c) {
  if (!Need(c, 1)) return;
  luaL_checkstack(L, 1, kTooManyValues);
  unsigned tag = c->p[0];
  if (tag <= 0x7f || tag >= 0xe0) {
    lua_pushnumber(L, tag <= 0x7f ? (lua_Number)tag : (lua_Number)((int)tag - 256));
    c->p++;
    c->left--;
  } else if ((tag & 0xe0) == 0xa0) {
    DecodeString(L, c, 1, tag & 0x1f);
  } else if ((tag & 0xf0) == 0x90) {
    TakeField(c, 0);
    DecodeArray(L, c, tag & 0x0f);
  } else if ((tag & 0xf0) == 0x80) {
    TakeField(c, 0);
    DecodeMap(L, c, tag & 0x0f);
  } else if (tag == 0xc0 || tag == 0xc2 || tag == 0xc3) {
    if (tag == 0xc0)
      lua_pushnil(L);
    else
      lua_pushboolean(L, tag == 0xc3);
    TakeField(c, 0);
  } else if (DecodeNumber(L, c, tag)) {
    /* done */
  } else if (tag >= 0xd9 && tag <= 0xdb) {
    int width = 1 << (tag - 0xd9);
    if (Need(c, 1 + (size_t)width)) {
      uint64_t len = 0;
      for (int i = 1; i <= width; i++) len = (len << 8) | c->p[i];
      DecodeString(L, c, 1 + (size_t)width, (size_t)len);
    }
  } else if (tag >= 0xdc && tag <= 0xdf) {
    int width = (tag & 1) ? 4 : 2;
    if (!Need(c, 1 + (size_t)width)) return;
    uint64_t len = TakeField(c, width);
    if (tag <= 0xdd)
      DecodeArray(L, c, len);
    else
      DecodeMap(L, c, len);
  } else {
    c->err = kDecodeBadFormat; /* 0xc1, bin, ext and fixext: not supported, like Redis */
  }
}

/* Decodes up to "limit" objects of argument 1 from byte "offset". limit == offset == 0 means all
 * objects, returned alone; otherwise the next offset (-1 at the end) comes first. */
static int UnpackFrom(lua_State* L, lua_Integer limit, lua_Integer offset) {
  size_t len;
  const char* s = luaL_checklstring(L, 1, &len);
  int decode_all = limit == 0 && offset == 0;
  /* Redis prints the input length where it says limit; kept so messages match. */
  if (offset < 0 || limit < 0) {
    return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.",
                      (int)offset, (int)len);
  }
  if ((size_t)offset > len) {
    return luaL_error(L, "Start offset %d greater than input length %d.", (int)offset, (int)len);
  }
  if (decode_all) limit = INT_MAX;
  Cursor c = {(const unsigned char*)s + offset, len - (size_t)offset, kDecodeOk};
  int count = 0;
  for (; c.left > 0 && count < limit; count++) {
    DecodeValue(L, &c);
    if (c.err == kDecodeEof) return luaL_error(L, "Missing bytes in input.");
    if (c.err == kDecodeBadFormat) return luaL_error(L, "Bad data format in input.");
  }
  if (decode_all) return count;
  if (!lua_checkstack(L, 1)) return luaL_error(L, kTooManyValues);
  lua_pushinteger(L, c.left == 0 ? -1 : (lua_Integer)(len - c.left));
  lua_insert(L, 2);
  return count + 1;
}

static int Unpack(lua_State* L) { return UnpackFrom(L, 0, 0); }

static int UnpackOne(lua_State* L) {
  lua_Integer offset = luaL_optinteger(L, 2, 0);
  if (lua_gettop(L) > 1) lua_settop(L, 1);
  return UnpackFrom(L, 1, offset);
}

static int UnpackLimit(lua_State* L) {
  lua_Integer limit = luaL_checkinteger(L, 2);
  lua_Integer offset = luaL_optinteger(L, 3, 0);
  if (lua_gettop(L) > 1) lua_settop(L, 1);
  return UnpackFrom(L, limit, offset);
}

/* ---- open ---------------------------------------------------------------------------------- */

int plinth_luaopen_cmsgpack(lua_State* L) {
  static const luaL_Reg kFunctions[] = {
      {"unpack", Unpack}, {"unpack_one", UnpackOne}, {"unpack_limit", UnpackLimit}, {NULL, NULL}};
  luaL_register(L, "cmsgpack", kFunctions);

  luaL_newmetatable(L, kBufferMeta);
  lua_pushcfunction(L, PackBufferGc);
  lua_setfield(L, -2, "__gc");
  lua_pushcclosure(L, Pack, 1);
  lua_setfield(L, -2, "pack");

  lua_pushliteral(L, "cmsgpack");
  lua_setfield(L, -2, "_NAME");
  lua_pushliteral(L, "lua-cmsgpack 0.4.0");
  lua_setfield(L, -2, "_VERSION");
  lua_pushliteral(L, "MessagePack C implementation for Lua");
  lua_setfield(L, -2, "_DESCRIPTION");
  return 1;
}
