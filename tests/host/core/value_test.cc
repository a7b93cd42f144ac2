// Values: refcounts, encodings as OBJECT ENCODING reports them.
#include "host/core/value.h"

#include <doctest/doctest.h>

#include <string>

using namespace plinth::host;

TEST_CASE("value: the last release frees the value") {
  int64_t before = ValuesAlive();
  plinth_value_t* v = ValueCreateString("abc", 3);
  ValueRetain(v);
  ValueRelease(v);
  CHECK(ValuesAlive() == before + 1);
  ValueRelease(v);
  CHECK(ValuesAlive() == before);
}

TEST_CASE("value: encodings follow Redis's int/embstr/raw rules") {
  auto enc = [](const std::string& s) {
    plinth_value_t* v = ValueCreateString(s.data(), s.size());
    int e = static_cast<int>(ValueEnc(v));
    ValueRelease(v);
    return e;
  };
  CHECK(enc("12345") == PLINTH_ENC_INT);
  CHECK(enc("-7") == PLINTH_ENC_INT);
  CHECK(enc("007") == PLINTH_ENC_EMBSTR);
  CHECK(enc("99999999999999999999") == PLINTH_ENC_EMBSTR);  // overflows int64
  CHECK(enc("hello") == PLINTH_ENC_EMBSTR);
  CHECK(enc(std::string(44, 'x')) == PLINTH_ENC_EMBSTR);
  CHECK(enc(std::string(45, 'x')) == PLINTH_ENC_RAW);
}

TEST_CASE("value: a plugin type frees its payload with the last reference") {
  static int freed = 0;
  plinth_type_spec_t spec{};
  spec.struct_size = sizeof spec;
  spec.name = "counter-test";
  spec.free_payload = [](void* p) {
    ++freed;
    delete static_cast<int*>(p);
  };
  spec.copy = [](const void* p) -> void* { return new int(*static_cast<const int*>(p)); };
  Types types;
  std::string why;
  uint32_t id = types.Register(&spec, "test", &why);
  REQUIRE(id >= 16);
  CHECK(std::string(types.Name(id)) == "counter-test");
  CHECK(types.Register(&spec, "test", &why) == 0);  // duplicate name
  CHECK(why == "type_register: type name 'counter-test' is taken");
  spec.name = "string";
  CHECK(types.Register(&spec, "test", &why) == 0);  // the host's own name
  plinth_value_t* v = ValueCreateTyped(types.Find(id), new int(5));
  REQUIRE(v);
  ValueRelease(v);
  CHECK(freed == 1);
  types.UnregisterOwner("test");
  CHECK(types.Find(id) == nullptr);
}

TEST_CASE("value: an unshared string is overwritten in place when the bytes fit its room") {
  plinth_value_t* v = ValueCreateString("abcdef", 6);
  CHECK(ValueStringOverwrite(v, "42", 2));  // 6 bytes of room kept for 2: within the slack
  CHECK(std::string(StringData(v), StringLen(v)) == "42");
  CHECK(StringData(v)[2] == 0);
  CHECK(ValueEnc(v) == PLINTH_ENC_INT);
  CHECK(ValueStringOverwrite(v, "xyz", 3));
  CHECK(ValueEnc(v) == PLINTH_ENC_EMBSTR);
  const std::string longer(StringRoom(v) + 1, 'L');
  CHECK(ValueStringOverwrite(v, longer.data(), StringRoom(v)));  // the allocation's spare room
  CHECK(ValueStringOverwrite(v, "xyz", 3));
  CHECK_FALSE(ValueStringOverwrite(v, longer.data(), longer.size()));  // no room
  CHECK(std::string(StringData(v), StringLen(v)) == "xyz");
  ValueRetain(v);  // a reply holds it: it must not change under that holder
  CHECK_FALSE(ValueStringOverwrite(v, "q", 1));
  CHECK(std::string(StringData(v), StringLen(v)) == "xyz");
  ValueRelease(v);
  ValueRelease(v);
  const std::string big(1000, 'b');
  plinth_value_t* w = ValueCreateString(big.data(), big.size());
  CHECK_FALSE(ValueStringOverwrite(w, "1", 1));  // would keep 1000 bytes for one
  ValueRelease(w);
}
