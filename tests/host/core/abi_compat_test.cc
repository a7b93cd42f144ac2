// What the host accepts from plugins of older and newer 1.x SDKs: specs from the end of their
// frozen 1.0 fields up (zero-filled), a larger spec only with an all-zero unknown tail, and
// reply types mapped to what a protocol plugin's minor knows.
#include "host/core/abi_compat.h"

#include <doctest/doctest.h>

#include <cstring>

namespace {

using plinth::host::CopySizedStruct;
using plinth::host::CopySpec;
using plinth::host::kFrozen10;
using plinth::host::ReplyTypeForMinor;

// A spec as a newer SDK would send it: the current struct and 8 more bytes.
struct Bigger {
  plinth_command_spec_t spec;
  uint64_t tail;
};

TEST_CASE("a spec of exactly the frozen 1.0 size is accepted and the rest reads as zeros") {
  Bigger in;
  std::memset(&in, 0xAB, sizeof in);  // garbage past the 1.0 fields must not be read
  in.spec.struct_size = static_cast<uint32_t>(kFrozen10<plinth_command_spec_t>);
  in.spec.arity = -2;
  plinth_command_spec_t out;
  REQUIRE(CopySpec(&out, &in.spec));
  CHECK(out.struct_size == sizeof out);
  CHECK(out.arity == -2);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&out);
  for (size_t i = kFrozen10<plinth_command_spec_t>; i < sizeof out; ++i) CHECK(bytes[i] == 0);
}

TEST_CASE("a spec shorter than its frozen 1.0 fields is refused") {
  plinth_command_spec_t in{};
  in.struct_size = static_cast<uint32_t>(kFrozen10<plinth_command_spec_t> - 1);
  plinth_command_spec_t out;
  CHECK_FALSE(CopySpec(&out, &in));
  CHECK_FALSE(CopySpec<plinth_command_spec_t>(&out, nullptr));
}

TEST_CASE("a larger spec is accepted only when its unknown tail is zero") {
  Bigger in{};
  in.spec.struct_size = sizeof in;
  in.spec.arity = 3;
  plinth_command_spec_t out;
  CHECK(CopySpec(&out, &in.spec));
  CHECK(out.arity == 3);
  in.tail = 1;
  CHECK_FALSE(CopySpec(&out, &in.spec));
}

TEST_CASE("every spec's frozen 1.0 size lies within the current struct") {
  CHECK(kFrozen10<plinth_plugin_descriptor_t> <= sizeof(plinth_plugin_descriptor_t));
  CHECK(kFrozen10<plinth_command_spec_t> <= sizeof(plinth_command_spec_t));
  CHECK(kFrozen10<plinth_type_spec_t> <= sizeof(plinth_type_spec_t));
  CHECK(kFrozen10<plinth_option_spec_t> <= sizeof(plinth_option_spec_t));
  CHECK(kFrozen10<plinth_protocol_spec_t> <= sizeof(plinth_protocol_spec_t));
  CHECK(kFrozen10<plinth_transport_spec_t> <= sizeof(plinth_transport_spec_t));
  CHECK(kFrozen10<plinth_stream_consumer_spec_t> <= sizeof(plinth_stream_consumer_spec_t));
  CHECK(kFrozen10<plinth_reply_path_spec_t> <= sizeof(plinth_reply_path_spec_t));
  CHECK(kFrozen10<plinth_acl_provider_t> <= sizeof(plinth_acl_provider_t));
}

TEST_CASE("a protocol plugin of minor 0 is given every 1.0 reply type as it is") {
  for (uint32_t t = PLINTH_REPLY_SIMPLE; t <= PLINTH_REPLY_PUSH; ++t)
    CHECK(ReplyTypeForMinor(t, 0) == t);
  CHECK(ReplyTypeForMinor(0, 0) == 0);
  CHECK(ReplyTypeForMinor(PLINTH_REPLY_PUSH + 100, PLINTH_ABI_MINOR) == 0);
  CHECK_FALSE(plinth::host::ReplyTypesNewerThan(PLINTH_ABI_MINOR));
}

}  // namespace
