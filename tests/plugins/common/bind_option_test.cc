// The bind option's apply callback, shared by the tcp plugin's bind and the rdma plugin's
// rdma-bind.
#include "common/bind_option.h"

#include <doctest/doctest.h>

#include <cstring>

namespace plinth::common {
namespace {

int32_t Apply(const char* text, char* err, size_t errlen) {
  return ApplyBindOption(nullptr, "bind", text, std::strlen(text), 0, err, errlen);
}

TEST_CASE("bind option: accepts a bind list and refuses an empty one with its reason") {
  char err[128] = "";
  CHECK(Apply("127.0.0.1 -::1", err, sizeof err) == PLINTH_OK);
  CHECK(Apply("", err, sizeof err) == PLINTH_ERR);
  CHECK(std::strlen(err) > 0);
}

}  // namespace
}  // namespace plinth::common
