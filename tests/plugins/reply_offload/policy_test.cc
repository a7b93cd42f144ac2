// The reply_offload policy: the measured sizes, the IO-thread rule and the override.
#include "reply_offload/policy.h"

#include <doctest/doctest.h>

using plinth::reply_offload::ByReference;
using plinth::reply_offload::DefaultPolicy;

TEST_CASE("reply_offload policy: small values are copied, large ones go by reference") {
  const auto p = DefaultPolicy(0);
  CHECK_FALSE(ByReference(p, 512, 0));
  CHECK_FALSE(ByReference(p, 512, 4));
  CHECK(ByReference(p, 1 << 20, 0));
  CHECK(ByReference(p, 1 << 20, 1));
  CHECK(ByReference(p, 64 * 1024, 2));
}

TEST_CASE("reply_offload policy: with IO threads a value must be larger to go by reference") {
  const auto p = DefaultPolicy(0);
  CHECK(p.min_inline < p.min_threaded);
  CHECK(ByReference(p, p.min_inline, 0));
  CHECK_FALSE(ByReference(p, p.min_inline, 2));
  CHECK_FALSE(ByReference(p, p.min_threaded - 1, 2));
  CHECK(ByReference(p, p.min_threaded, 2));
}

TEST_CASE("reply_offload policy: min-size overrides both sizes, 0 keeps the measured ones") {
  const auto p = DefaultPolicy(100);
  CHECK_FALSE(ByReference(p, 99, 0));
  CHECK(ByReference(p, 100, 0));
  CHECK(ByReference(p, 100, 3));
  CHECK(DefaultPolicy(0).min_inline == DefaultPolicy(-1).min_inline);
}
