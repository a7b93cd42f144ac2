// Registration: what a host accepts from a plugin's init. The probe tries each registration
// below during init and PROBE.INIT reports what came back: command_register's and
// stream_consumer_register's status, type_register's id for "string" and "none", and for the
// other types 1 when type_register returned an id and 0 when it refused. The minimum size of a spec
// is the end of its last frozen 1.0 field (what a plugin built against SDK 1.0 gives); a larger
// spec is accepted only when its unknown tail is zero.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("type_register: the built-in names string and none are refused and logged") {
  T t;
  CHECK(InitResult(t, "type_string") == "0");
  CHECK(InitResult(t, "type_none") == "0");
  CHECK(t.LogLineContains("type_register", "'string'"));
  CHECK(t.LogLineContains("type_register", "'none'"));
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Run(t, {"TYPE", "k"}) == "string");
}

HOSTAPI_CASE("struct_size: a spec one byte short of the host's minimum is refused") {
  T t;
  CHECK(InitResult(t, "command_below") == "-1");
  CHECK(InitResult(t, "type_below") == "0");
  CHECK(InitResult(t, "consumer_below") == "-1");
}

HOSTAPI_CASE("struct_size: a spec of exactly the host's minimum is accepted") {
  T t;
  CHECK(InitResult(t, "command_min") == "0");
  CHECK(InitResult(t, "type_min") == "1");
  CHECK(InitResult(t, "consumer_min") == "0");
  CHECK(Run(t, {"PROBE.MIN"}) == "OK");
}

HOSTAPI_CASE("struct_size: a larger spec with a non-zero unknown tail is refused") {
  T t;
  CHECK(InitResult(t, "command_tail") == "-1");
  CHECK(InitResult(t, "type_tail") == "0");
  CHECK(InitResult(t, "consumer_tail") == "-1");
}

HOSTAPI_CASE("struct_size: a larger spec with a zero tail is accepted") {
  T t;
  CHECK(InitResult(t, "command_tail0") == "0");
  CHECK(InitResult(t, "type_tail0") == "1");
  CHECK(InitResult(t, "consumer_tail0") == "0");
  CHECK(Run(t, {"PROBE.TAIL0"}) == "OK");
}

}  // namespace plinth::hostapi
