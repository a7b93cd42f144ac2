// The shared keys functions: the keys and access Redis 7.0's key specs give, and no read past
// argc on malformed calls.
#include "common/acl_keys.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/acl_categories.h"

using namespace plinth::common;

namespace {

constexpr uint32_t kR = PLINTH_KEY_READ;
constexpr uint32_t kW = PLINTH_KEY_WRITE;
using Refs = std::vector<std::pair<int32_t, uint32_t>>;

Refs Keys(plinth_keys_fn fn, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
    lens.push_back(a.size());
  }
  std::vector<plinth_key_ref_t> out(args.size());
  Refs refs;
  int32_t n = fn(static_cast<int32_t>(args.size()), argv.data(), lens.data(), out.data());
  for (int32_t i = 0; i < n; ++i) refs.emplace_back(out[i].index, out[i].flags);
  return refs;
}

}  // namespace

TEST_CASE("acl keys: numkeys commands take the counted keys, clipped to argc") {
  auto eval = &KeysAfterNumkeys<2, kR | kW>;
  CHECK(Keys(eval, {"eval", "s", "2", "a", "b", "x"}) == Refs{{3, kR | kW}, {4, kR | kW}});
  CHECK(Keys(eval, {"eval", "s", "5", "a"}) == Refs{{3, kR | kW}});
  CHECK(Keys(eval, {"eval", "s", "nan", "a"}).empty());
  CHECK(Keys(&DestAndNumkeys<kW, kR>, {"zunionstore", "d", "2", "a", "b"}) ==
        Refs{{1, kW}, {3, kR}, {4, kR}});
  // A count near INT64_MAX takes the keys there are (the command fuzzer's SINTERCARD
  // 9223372036854775807 a b overflowed numkeys_at + numkeys: UBSan).
  CHECK(Keys(eval, {"eval", "s", "9223372036854775807", "a", "b"}) ==
        Refs{{3, kR | kW}, {4, kR | kW}});
}

TEST_CASE("acl keys: options that add or change keys") {
  CHECK(Keys(&SetKeys, {"set", "k", "v"}) == Refs{{1, kW}});
  CHECK(Keys(&SetKeys, {"set", "k", "v", "NX", "get"}) == Refs{{1, kR | kW}});
  CHECK(Keys(&SortKeys, {"sort", "k", "BY", "store", "STORE", "d"}) == Refs{{1, kR}, {5, kW}});
  CHECK(Keys(&StreamsKeys, {"xread", "COUNT", "1", "STREAMS", "a", "b", "0", "0"}) ==
        Refs{{4, kR}, {5, kR}});
  CHECK(Keys(&StreamsKeys, {"xreadgroup", "GROUP", "streams", "c", "STREAMS", "a", ">"}) ==
        Refs{{5, kR}});
  CHECK(Keys(&BitfieldKeys, {"bitfield", "k", "GET", "u8", "0"}) == Refs{{1, kR}});
  CHECK(Keys(&BitfieldKeys, {"bitfield", "k", "SET", "u8", "0", "1"}) == Refs{{1, kR | kW}});
  CHECK(Keys(&GeoRadiusKeys, {"georadius", "k", "0", "0", "1", "m", "STORE", "d"}) ==
        Refs{{1, kR}, {7, kW}});
  CHECK(Keys(&MigrateKeys, {"migrate", "h", "1", "", "0", "5", "KEYS", "a", "b"}) ==
        Refs{{7, kR | kW}, {8, kR | kW}});
}

TEST_CASE("acl keys: category names round-trip") {
  CHECK(AclCategoryBit("@Keyspace") == PLINTH_ACL_KEYSPACE);
  CHECK(AclCategoryBit("scripting") == PLINTH_ACL_SCRIPTING);
  CHECK(AclCategoryBit("nosuch") == 0);
  CHECK(AclCategoryNames(PLINTH_ACL_READ | PLINTH_ACL_FAST) ==
        std::vector<std::string_view>{"read", "fast"});
}
