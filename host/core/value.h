// Refcounted values, and the keyspace entries that hold them. Every object starts with the same
// 12-byte header. A standalone value (what value_create_string gives a plugin) keeps its string
// bytes, or its type and payload, right after the header. A keyspace entry is the same kind of
// object with its key inside: a small string is stored in the entry itself (one allocation for
// key, header and bytes, so the entry is the value plugins see), anything else is a standalone
// value the entry points at. Refcounts are atomic so IO threads can release values they wrote
// by reference.
//
// An entry's string is at most kEmbedMax bytes, so its length takes 16 bits of the header's
// length word and the other 16 bits, with the byte a standalone value leaves unused, hold the
// entry's 24-bit access stamp (access.h). The stamp's bytes are their own fields: the main
// thread updates them while IO threads read the length and bytes of the same entry.
//
// Layout after the header, each part present only when its flag is set:
//   kValExpire   int64 expire_ms, uint32 index in Db::expiring_     (12 bytes)
//   kValLongKey  uint32 key length (keys of 255 bytes or more)      (4 bytes)
//   kValKey      the key's bytes
//   then         kValIndirect: the value's pointer (8 bytes); a string: its bytes and a NUL;
//                a typed value: its TypeEntry* and payload pointer (16 bytes)
#pragma once

#include <plinth/plugin.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>

struct plinth_value {
  std::atomic<uint32_t> refs;
  uint8_t type;       // PLINTH_TYPE_STRING or a plugin type id (16..255)
  uint8_t access_lo;  // an entry's access stamp, bits 0-7
  uint8_t flags;      // kVal* in bits 0-3, a string's PLINTH_ENC_* in bits 6-7
  uint8_t klen;       // the key's length when kValKey and it is under 255
  union {
    uint32_t len;  // a standalone string's length (0 for typed values)
    struct {
      uint16_t len;        // its string's length (0 when kValIndirect)
      uint16_t access_hi;  // its access stamp, bits 8-23
    } entry;
  } size;
  char body[];
};

namespace plinth::host {

constexpr uint8_t kValKey = 1;       // a keyspace entry: the key is inside
constexpr uint8_t kValExpire = 2;    // has the expiry part (expire_ms may still be -1)
constexpr uint8_t kValLongKey = 4;   // the key's length is a uint32 part
constexpr uint8_t kValIndirect = 8;  // an entry pointing at a standalone value
// Strings up to this long are stored inside their key's entry.
constexpr size_t kEmbedMax = 1024;
static_assert(kEmbedMax * 2 < UINT16_MAX, "an entry's string length (and room) takes 16 bits");
// The longest string value (lengths are 32-bit).
constexpr size_t kMaxStringLen = UINT32_MAX - 1;

using Entry = plinth_value;

// A string's length: an entry's 16 bits or a standalone value's 32. Any thread holding v.
inline size_t StringLen(const plinth_value* v) {
  return v->flags & kValKey ? v->size.entry.len : v->size.len;
}
inline void SetStringLen(plinth_value* v, size_t len) {
  if (v->flags & kValKey)
    v->size.entry.len = static_cast<uint16_t>(len);
  else
    v->size.len = static_cast<uint32_t>(len);
}
// A string's PLINTH_ENC_*.
constexpr uint8_t kValEncShift = 6;
inline uint32_t ValueEnc(const plinth_value* v) { return v->flags >> kValEncShift; }
inline void SetValueEnc(plinth_value* v, uint32_t enc) {
  v->flags = static_cast<uint8_t>((v->flags & ((1u << kValEncShift) - 1)) | enc << kValEncShift);
}
// An entry's 24-bit access stamp (access.h). Main thread.
inline uint32_t EntryAccess(const Entry* e) {
  return e->access_lo | static_cast<uint32_t>(e->size.entry.access_hi) << 8;
}
inline void EntrySetAccess(Entry* e, uint32_t stamp) {
  e->access_lo = static_cast<uint8_t>(stamp);
  e->size.entry.access_hi = static_cast<uint16_t>(stamp >> 8);
}

// Where the key part starts in body.
inline size_t KeyOffset(const plinth_value* v) {
  static_assert(kValExpire * 6 == 12 && kValLongKey == 4);
  return (v->flags & kValExpire) * 6u + (v->flags & kValLongKey);  // branch-free
}
inline size_t KeyLength(const plinth_value* v) {
  if (!(v->flags & kValKey)) return 0;
  if (!(v->flags & kValLongKey)) return v->klen;
  uint32_t n;
  std::memcpy(&n, v->body + (v->flags & kValExpire ? 12 : 0), 4);
  return n;
}
inline std::string_view EntryKey(const Entry* e) { return {e->body + KeyOffset(e), KeyLength(e)}; }
// Where the value part (bytes, typed payload or pointer) starts in body.
inline size_t PayloadOffset(const plinth_value* v) {
  return v->flags & kValKey ? KeyOffset(v) + KeyLength(v) : 0;
}
// A string value's bytes (NUL-terminated).
inline char* StringData(const plinth_value* v) {
  return const_cast<char*>(v->body) + PayloadOffset(v);
}
inline int64_t EntryExpireMs(const Entry* e) {
  if (!(e->flags & kValExpire)) return -1;
  int64_t ms;
  std::memcpy(&ms, e->body, 8);
  return ms;
}
// Whether its time has come at now_ms (it has an expiry and it is not in the future).
inline bool EntryExpired(const Entry* e, int64_t now_ms) {
  const int64_t ms = EntryExpireMs(e);
  return ms >= 0 && ms <= now_ms;
}
// The size of a pointer an object's bytes hold (an indirect entry's value, a typed value's type
// and payload), copied in and out unaligned.
inline constexpr size_t kPtrBytes = sizeof(void*);
// The value an entry holds: itself (a small string) or the standalone value it points at.
inline plinth_value* EntryValue(const Entry* e) {
  if (!(e->flags & kValIndirect)) return const_cast<Entry*>(e);
  plinth_value* v;
  std::memcpy(&v, e->body + PayloadOffset(e), kPtrBytes);
  return v;
}

// A new standalone string value with one reference, or nullptr when out of memory or longer
// than kMaxStringLen. Any thread.
plinth_value_t* ValueCreateString(const char* s, size_t len);
// The same with room for cap >= len bytes.
plinth_value_t* ValueCreateStringRoom(const char* s, size_t len, size_t cap);
// Room for a string's bytes in its allocation (without the NUL). Main thread.
size_t StringRoom(const plinth_value* v);
// Replaces the bytes of string value v with s[0, len) in place, with a new string's encoding,
// when nothing else holds it and its room fits len without wasting more than about len bytes.
// Returns false (v unchanged) otherwise. Main thread.
bool ValueStringOverwrite(plinth_value_t* v, const char* s, size_t len);
// A new entry with one reference for key, or nullptr when out of memory: holding a copy of
// s[0, len) with room for cap bytes (cap >= len, cap <= kEmbedMax) when target is nullptr,
// else pointing at target (whose reference it takes over, also on failure). With expire, the
// entry has the expiry part, set to expire_ms. Main thread.
Entry* EntryCreate(std::string_view key, const char* s, size_t len, size_t cap,
                   plinth_value* target, bool expire, int64_t expire_ms);
// Sets the expiry part of e (which has one) and its index in Db::expiring_.
inline void EntrySetExpire(Entry* e, int64_t ms) { std::memcpy(e->body, &ms, 8); }
inline uint32_t EntryExpIndex(const Entry* e) {
  uint32_t i;
  std::memcpy(&i, e->body + 8, 4);
  return i;
}
inline void EntrySetExpIndex(Entry* e, uint32_t i) { std::memcpy(e->body + 8, &i, 4); }
// Replaces the pointer of an indirect entry (dropping nothing).
inline void EntrySetTarget(Entry* e, plinth_value* v) {
  std::memcpy(e->body + PayloadOffset(e), &v, kPtrBytes);
}
// Redis's OBJECT ENCODING for string bytes: int, embstr (up to 44 bytes) or raw.
uint32_t StringEncoding(const char* s, size_t len);

struct TypeEntry {
  uint32_t id = 0;
  plinth_type_spec_t spec{};
  std::string name;
  std::string owner;
  bool live = false;
};

// The value types plugins registered with one core. Entries are never freed while the core
// lives (values of a rolled-back type keep pointing at theirs). Main thread only.
class Types {
 public:
  // Registers a type; returns its id (16..255) or 0 with *why when spec is invalid, the name
  // is taken ("string" and "none" are the host's) or 240 types exist.
  uint32_t Register(const plinth_type_spec_t* spec, const std::string& owner, std::string* why);
  // Forgets every type registered by owner (rollback of a failed init).
  void UnregisterOwner(const std::string& owner);
  // The live type with that id, or nullptr.
  const TypeEntry* Find(uint32_t id) const;
  // The live type that loads the plain RDB form rdb_type (its spec's rdb_type and rdb_load),
  // or nullptr.
  const TypeEntry* FindRdb(uint32_t rdb_type) const;
  // TYPE's name of a type id: "string", "none" or the plugin type's name.
  const char* Name(uint32_t id) const;

 private:
  std::deque<TypeEntry> entries_;  // index = id - 16
};

// A new typed value owning payload, or nullptr when out of memory. Any thread.
plinth_value_t* ValueCreateTyped(const TypeEntry* type, void* payload);
// A typed value's payload.
void* ValuePayloadOf(const plinth_value_t* v);
// A typed value's type.
const TypeEntry* TypeOf(const plinth_value_t* v);
inline void ValueRetain(const plinth_value_t* v) {
  const_cast<plinth_value_t*>(v)->refs.fetch_add(1, std::memory_order_relaxed);
}
// Drops a reference and frees the value at zero (an entry frees the value it points at too).
// Any thread.
void ValueRelease(const plinth_value_t* v);
// ValueRelease as a plinth_release_fn, for a reply that holds a reference. Any thread.
void ValueReleaseArg(void* v);
// Bytes the value occupies, header included (an entry's own allocation and, when it points at
// a value, that value's). Main thread.
size_t ValueMemory(const plinth_value_t* v);
// Number of values alive now (for tests and INFO): standalone values and entries holding a
// string themselves.
int64_t ValuesAlive();

}  // namespace plinth::host
