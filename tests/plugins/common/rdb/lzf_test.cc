// LZF: round trips, and refusal of every kind of malformed stream.
#include "common/rdb/lzf.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

namespace plinth::rdb {
namespace {

std::string RoundTrip(const std::string& in) {
  std::string packed;
  REQUIRE(LzfCompress(in.data(), in.size(), &packed));
  CHECK(packed.size() < in.size());
  std::string out(in.size(), '\0');
  REQUIRE(LzfDecompress(packed.data(), packed.size(), out.data(), out.size()));
  return out;
}

TEST_CASE("lzf: compressible inputs round trip exactly") {
  std::string runs(5000, 'a');
  CHECK(RoundTrip(runs) == runs);
  std::string text;
  for (int i = 0; i < 400; ++i) text += "key:" + std::to_string(i % 37) + ":value;";
  CHECK(RoundTrip(text) == text);
  std::mt19937 rng(7);
  std::string mixed;
  for (int i = 0; i < 20000; ++i) {
    mixed.push_back(i % 3 == 0 ? static_cast<char>(rng() % 4) : mixed.empty() ? 'x' : mixed[i / 2]);
  }
  CHECK(RoundTrip(mixed) == mixed);
}

TEST_CASE("lzf: compress reports false when it saves nothing") {
  std::mt19937 rng(1);
  std::string noise;
  for (int i = 0; i < 300; ++i) noise.push_back(static_cast<char>(rng()));
  std::string packed;
  CHECK_FALSE(LzfCompress(noise.data(), noise.size(), &packed));
  CHECK_FALSE(LzfCompress("ab", 2, &packed));
}

TEST_CASE("lzf: decompresses a hand-built stream of a literal run and an overlapping match") {
  // literal "abc" (ctrl 2), then a match of 5 (len-2 = 3) at distance 3 (offset 2).
  const std::string in = std::string(
                             "\x02"
                             "abc",
                             4) +
                         "\x60\x02";
  char out[8];
  REQUIRE(LzfDecompress(in.data(), in.size(), out, 8));
  CHECK(std::string(out, 8) == "abcabcab");
}

TEST_CASE("lzf: decompress refuses malformed streams and wrong lengths") {
  char out[16];
  const std::string ok = std::string(
                             "\x02"
                             "abc",
                             4) +
                         "\x60\x02";
  CHECK_FALSE(LzfDecompress(ok.data(), ok.size(), out, 7));  // output too small
  CHECK_FALSE(LzfDecompress(ok.data(), ok.size(), out, 9));  // output too large
  CHECK_FALSE(LzfDecompress(ok.data(), 3, out, 3));          // literal cut short
  CHECK_FALSE(LzfDecompress(ok.data(), 5, out, 8));          // match offset byte missing
  const std::string before_start = std::string(
                                       "\x00"
                                       "a",
                                       2) +
                                   "\x20\x05";  // distance 6 > 1
  CHECK_FALSE(LzfDecompress(before_start.data(), before_start.size(), out, 4));
  const std::string long_match = std::string(
                                     "\x00"
                                     "a",
                                     2) +
                                 "\xe0";  // length byte missing
  CHECK_FALSE(LzfDecompress(long_match.data(), long_match.size(), out, 16));
  CHECK(LzfMaxExpansion(3) >= 264);
}

}  // namespace
}  // namespace plinth::rdb
