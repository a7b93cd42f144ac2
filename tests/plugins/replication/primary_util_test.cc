// The primary's small parsers: integers as Redis takes them, and the peer address out of a
// CLIENT LIST line.
#include "replication/primary_util.h"

#include <doctest/doctest.h>

#include <cstring>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <string>

namespace plinth::replication {
namespace {

const char* line_for_test = nullptr;

void DescribeForTest(plinth_call_t*, uint64_t, plinth_emit_fn emit, void* arg) {
  emit(arg, line_for_test, std::strlen(line_for_test));
}

std::string PeerOf(const char* line) {
  plinth_host_api_t api{};
  api.client_describe = &DescribeForTest;
  line_for_test = line;
  const plinth_host_api_t* saved = sdk::Host::api;
  sdk::Host::api = &api;
  std::string ip = PeerIp(nullptr, 1);
  sdk::Host::api = saved;
  return ip;
}

TEST_CASE("primary util: integer arguments are whole base-10 numbers (text::ParseInt64)") {
  int64_t v = 0;
  CHECK(text::ParseInt64("-1", &v));
  CHECK(v == -1);
  CHECK(text::ParseInt64("12345", &v));
  CHECK(v == 12345);
  CHECK_FALSE(text::ParseInt64("", &v));
  CHECK_FALSE(text::ParseInt64("+5", &v));
  CHECK_FALSE(text::ParseInt64("5x", &v));
  CHECK_FALSE(text::ParseInt64(" 5", &v));
  CHECK_FALSE(text::ParseInt64("99999999999999999999", &v));
}

TEST_CASE("primary util: the peer ip comes from addr=, not laddr=") {
  CHECK(PeerOf("id=3 addr=127.0.0.1:51234 laddr=127.0.0.1:6379 fd=8\n") == "127.0.0.1");
  CHECK(PeerOf("addr=10.1.2.3:1 laddr=x") == "10.1.2.3");
  CHECK(PeerOf("id=3 addr=::1:6000 laddr=::1:6379") == "::1");
  CHECK(PeerOf("id=3 addr=[::1]:6000 laddr=x") == "::1");
  CHECK(PeerOf("id=3 laddr=127.0.0.1:6379") == "");
}

}  // namespace
}  // namespace plinth::replication
