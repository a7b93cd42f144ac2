// Tests of the small hash encoding (listpack.h): order, in-place updates, deletes, binary data.
#include "hash/listpack.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using plinth::hash::Listpack;

namespace {

std::vector<std::string> Dump(const Listpack& lp) {
  std::vector<std::string> out;
  lp.ForEach([&](std::string_view k, std::string_view v) {
    out.emplace_back(std::string(k) + "=" + std::string(v));
  });
  return out;
}

}  // namespace

TEST_CASE("hash listpack: keeps insertion order and updates values in place") {
  Listpack lp;
  CHECK(lp.Set("a", "1"));
  CHECK(lp.Set("b", "2"));
  CHECK(lp.Set("c", "3"));
  CHECK_FALSE(lp.Set("a", "one"));  // longer value, same place
  CHECK_FALSE(lp.Set("b", "9"));    // same size
  CHECK_FALSE(lp.Set("c", ""));     // shorter
  CHECK(lp.Size() == 3);
  CHECK(Dump(lp) == std::vector<std::string>{"a=one", "b=9", "c="});
  std::string_view v;
  CHECK(lp.Get("a", &v));
  CHECK(v == "one");
  CHECK_FALSE(lp.Get("d", &v));
  CHECK_FALSE(lp.Get("", nullptr));
}

TEST_CASE("hash listpack: deletes from any position and empties") {
  Listpack lp;
  for (const char* k : {"x", "y", "z"}) lp.Set(k, k);
  CHECK(lp.Delete("y"));
  CHECK_FALSE(lp.Delete("y"));
  CHECK(Dump(lp) == std::vector<std::string>{"x=x", "z=z"});
  CHECK(lp.Delete("x"));
  CHECK(lp.Delete("z"));
  CHECK(lp.Empty());
  CHECK(lp.Bytes() < 32);  // the buffer is given back (only the inline capacity stays)
}

TEST_CASE("hash listpack: binary fields and values over 127 bytes round trip") {
  Listpack lp;
  const std::string big(300, 'q');
  const std::string bin("a\0b\xff", 4);
  CHECK(lp.Set(bin, big));
  CHECK(lp.Set(big, bin));
  CHECK(lp.Set("", ""));
  std::string_view v;
  REQUIRE(lp.Get(bin, &v));
  CHECK(v == big);
  REQUIRE(lp.Get(big, &v));
  CHECK(v == bin);
  REQUIRE(lp.Get("", &v));
  CHECK(v.empty());
  CHECK(lp.Size() == 3);
  CHECK_FALSE(lp.Get(std::string("a\0c\xff", 4), nullptr));
}

TEST_CASE("hash listpack: varint sizes") {
  CHECK(plinth::hash::VarintSize(0) == 1);
  CHECK(plinth::hash::VarintSize(127) == 1);
  CHECK(plinth::hash::VarintSize(128) == 2);
  CHECK(plinth::hash::VarintSize(16384) == 3);
}
