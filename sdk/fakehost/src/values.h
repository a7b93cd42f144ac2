// Refcounted values of the fake host: the record behind plinth_value_t and a process-wide
// count of live values for leak checks. Refcounts are atomic (the ABI allows retain and
// release from any thread); everything else follows the caller's thread rule.
#ifndef PLINTH_FAKEHOST_VALUES_H
#define PLINTH_FAKEHOST_VALUES_H

#include <plinth/plugin.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::fakehost {

struct ValueRec {
  std::atomic<int64_t> refs{1};
  uint32_t type = PLINTH_TYPE_STRING;
  std::string str;          // string values
  bool resized = false;     // changed in place (key_string_resize): encoding "raw"
  void* payload = nullptr;  // typed values
  void (*free_payload)(void*) = nullptr;
  size_t (*memory_usage)(const void*) = nullptr;
};

// A new string value holding a copy of s, refcount 1. The caller owns the reference.
ValueRec* NewStringValue(std::string_view s);
// A new typed value owning payload (freed with free_payload at refcount zero), refcount 1.
ValueRec* NewTypedValue(uint32_t type, void* payload, void (*free_payload)(void*),
                        size_t (*memory_usage)(const void*));
// +1 / -1 reference; the value is freed when the count reaches zero. nullptr is ignored.
void RetainValue(const ValueRec* v);
void ReleaseValue(const ValueRec* v);
// Values created and not yet freed, in the whole process.
int64_t LiveValueCount();

inline ValueRec* ValueOf(const plinth_value_t* v) {
  return const_cast<ValueRec*>(reinterpret_cast<const ValueRec*>(v));
}
inline plinth_value_t* HandleOf(ValueRec* v) { return reinterpret_cast<plinth_value_t*>(v); }

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_VALUES_H
