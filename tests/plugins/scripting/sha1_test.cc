// SHA-1 against the FIPS 180 vectors and Redis's cached-script names.
#include "scripting/sha1.h"

#include <doctest/doctest.h>

using plinth::scripting::Sha1Hex;

TEST_CASE("sha1: matches the standard vectors") {
  CHECK(Sha1Hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  CHECK(Sha1Hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  CHECK(Sha1Hex(std::string(1000000, 'a')) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_CASE("sha1: names scripts as redis-server does") {
  CHECK(Sha1Hex("return 1") == "e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  CHECK(Sha1Hex("return 2") == "7f923f79fe76194c868d7e1d0820de36700eb649");
}

TEST_CASE("sha1: lengths around the padding boundary all differ and are 40 hex digits") {
  std::string prev;
  for (size_t n = 50; n < 140; ++n) {
    std::string h = Sha1Hex(std::string(n, 'x'));
    CHECK(h.size() == 40);
    CHECK(h != prev);
    prev = h;
  }
}
