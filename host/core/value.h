// Refcounted values stored under keys. A string value keeps its bytes in the same allocation,
// right after the header; a plugin-typed value points at a payload its type frees. Refcounts are
// atomic so IO threads can release values they wrote by reference.
#pragma once

#include <plinth/plugin.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

struct plinth_value {
  std::atomic<uint32_t> refs;
  uint32_t type;
  uint32_t encoding;
  size_t len;  // string length; 0 for typed values
  union {
    size_t cap;     // strings: bytes allocated for data (without the NUL)
    void* payload;  // typed values
  };
  char data[];  // string bytes, NUL-terminated; typed values: their TypeEntry*
};

namespace plinth::host {

// A new string value with one reference, or nullptr when out of memory. Any thread.
plinth_value_t* ValueCreateString(const char* s, size_t len);
// Replaces the bytes of string value v with s[0, len) in place, with a new string's encoding,
// when nothing else holds it and its room fits len without wasting more than about len bytes.
// Returns false (v unchanged) otherwise. Main thread.
bool ValueStringOverwrite(plinth_value_t* v, const char* s, size_t len);
// Resizes the string value *v to len bytes in place (zero-filling growth) when it is not
// shared, else replaces *v with a resized copy (dropping the caller's reference to the old one).
// Returns false when out of memory (*v unchanged). Main thread.
bool ValueStringResize(plinth_value_t** v, size_t len);
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
  // Registers a type; returns its id (>= 16) or 0 with *why when spec is invalid or the name
  // is taken ("string" and "none" are the host's).
  uint32_t Register(const plinth_type_spec_t* spec, const std::string& owner, std::string* why);
  // Forgets every type registered by owner (rollback of a failed init).
  void UnregisterOwner(const std::string& owner);
  // The live type with that id, or nullptr.
  const TypeEntry* Find(uint32_t id) const;
  // TYPE's name of a type id: "string", "none" or the plugin type's name.
  const char* Name(uint32_t id) const;

 private:
  std::deque<TypeEntry> entries_;  // index = id - 16
};

// A new typed value owning payload, or nullptr when out of memory. Any thread.
plinth_value_t* ValueCreateTyped(const TypeEntry* type, void* payload);
inline void ValueRetain(const plinth_value_t* v) {
  const_cast<plinth_value_t*>(v)->refs.fetch_add(1, std::memory_order_relaxed);
}
// Drops a reference and frees the value at zero. Any thread.
void ValueRelease(const plinth_value_t* v);
// ValueRelease as a plinth_release_fn, for a reply that holds a reference. Any thread.
void ValueReleaseArg(void* v);
// Bytes the value occupies, header included. Main thread.
size_t ValueMemory(const plinth_value_t* v);
// Number of values alive now (for tests and INFO).
int64_t ValuesAlive();

}  // namespace plinth::host
