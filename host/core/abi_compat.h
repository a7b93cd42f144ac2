// What the host accepts from plugins built against any 1.x SDK: structs from their frozen 1.0
// size up, and reply item types no newer than the protocol plugin's minor (docs/abi.md).
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth::host {

// The end of T's last ABI 1.0 field: the shortest struct_size a plugin built against SDK 1.0
// gives for it. Fixed forever: 1.0's fields never move (tests/abi/gate checks it).
template <typename T>
inline constexpr size_t kFrozen10 = 0;
// T names a type, which takes no parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PLINTH_FROZEN_10(T, last) \
  template <>                     \
  inline constexpr size_t kFrozen10<T> = offsetof(T, last) + sizeof(T::last)
// NOLINTEND(bugprone-macro-parentheses)
PLINTH_FROZEN_10(plinth_plugin_descriptor_t, reserved);
PLINTH_FROZEN_10(plinth_command_spec_t, key_flags);
PLINTH_FROZEN_10(plinth_command_info_t, arity);
PLINTH_FROZEN_10(plinth_acl_provider_t, user_exists);
PLINTH_FROZEN_10(plinth_protocol_spec_t, frame_bulk);
PLINTH_FROZEN_10(plinth_transport_spec_t, attach);
PLINTH_FROZEN_10(plinth_reply_path_spec_t, by_reference);
PLINTH_FROZEN_10(plinth_stream_consumer_spec_t, on_batch);
PLINTH_FROZEN_10(plinth_option_spec_t, ctx);
PLINTH_FROZEN_10(plinth_type_spec_t, visit);
#undef PLINTH_FROZEN_10

// Copies a struct of the caller's struct_size into dst (zero-filling a shorter one; dst's
// struct_size becomes dst_size). Returns false when the caller's struct is shorter than
// min_size, or larger than dst with an unknown tail that is not all zero.
bool CopySizedStruct(void* dst, size_t dst_size, const void* src, size_t min_size);

// CopySizedStruct from T's frozen 1.0 size up: what every plugin-given spec goes through.
template <typename T>
bool CopySpec(T* dst, const T* src) {
  static_assert(kFrozen10<T> > 0, "a struct crossing the ABI needs its frozen 1.0 size");
  return CopySizedStruct(dst, sizeof *dst, src, kFrozen10<T>);
}

// The reply item type a protocol plugin that targets ABI minor `minor` is given for `type`:
// the type itself when that minor knows it, else the 1.0 type it stands for (each type added
// after 1.0 names one). 0 for a type this host does not know.
uint32_t ReplyTypeForMinor(uint32_t type, uint32_t minor);
// Whether some reply type is newer than minor (a protocol plugin of that minor needs the map).
// A spec's C string as a std::string ("" for NULL).
inline std::string SpecString(const char* s) { return s ? s : ""; }
bool ReplyTypesNewerThan(uint32_t minor);

}  // namespace plinth::host
