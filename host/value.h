// Refcounted values stored under keys. A string value keeps its bytes in the same allocation,
// right after the header; a plugin-typed value points at a payload its type frees. Refcounts are
// atomic so IO threads can release values they wrote by reference.
#pragma once

#include <plinth/plugin.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
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
  char data[];  // string bytes, NUL-terminated
};

namespace plinth::host {

// A new string value with one reference, or nullptr when out of memory. Any thread.
plinth_value_t* ValueCreateString(const char* s, size_t len);
// Resizes the string value *v to len bytes in place (zero-filling growth) when it is not
// shared, else replaces *v with a resized copy (dropping the caller's reference to the old one).
// Returns false when out of memory (*v unchanged). Main thread.
bool ValueStringResize(plinth_value_t** v, size_t len);
// A new typed value owning payload, or nullptr when type is unknown. Main thread.
plinth_value_t* ValueCreateTyped(uint32_t type, void* payload);
inline void ValueRetain(const plinth_value_t* v) {
  const_cast<plinth_value_t*>(v)->refs.fetch_add(1, std::memory_order_relaxed);
}
// Drops a reference and frees the value at zero. Any thread.
void ValueRelease(const plinth_value_t* v);
// Bytes the value occupies, header included. Main thread.
size_t ValueMemory(const plinth_value_t* v);
// Number of values alive now (for tests and INFO).
int64_t ValuesAlive();

// Registers a plugin value type; returns its id (>= 16) or 0 when spec is invalid.
uint32_t TypeRegister(const plinth_type_spec_t* spec, const std::string& owner);
// Forgets every type registered by owner (rollback of a failed init).
void TypeUnregisterOwner(const std::string& owner);
// TYPE's name of a type id: "string", "none" or the plugin type's name.
const char* TypeName(uint32_t type);

}  // namespace plinth::host
