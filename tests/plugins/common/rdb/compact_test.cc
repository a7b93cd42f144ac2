// The compact blob codecs: hand-built blobs following the format, encoder round trips, and
// refusal of malformed blobs.
#include "common/rdb/compact.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rdb_test_util.h"

namespace plinth::rdb {
namespace {

using test::Le;
using Strings = std::vector<std::string>;

std::string Lp(const std::string& entries, uint64_t count) {
  return Le(6 + entries.size() + 1, 4) + Le(count, 2) + entries + "\xff";
}

TEST_CASE("ziplist: decodes strings and every integer encoding, with big prevlens") {
  std::string big(300, 'z');
  std::vector<std::pair<bool, std::string>> entries = {{false, "ab"},
                                                       {true, "0"},
                                                       {true, "12"},
                                                       {true, "-5"},
                                                       {false, big},
                                                       {true, "1000"},
                                                       {true, "-8000000"},
                                                       {true, "2000000000"},
                                                       {true, "-9000000000000000000"},
                                                       {false, std::string(70, 'q')},
                                                       {false, ""}};
  std::string z = test::ZiplistForTest(entries);
  Strings out;
  std::string err;
  REQUIRE_MESSAGE(DecodeZiplist(z, &out, &err), err);
  Strings want;
  for (auto& e : entries) want.push_back(e.second);
  CHECK(out == want);
}

TEST_CASE("ziplist: refuses a bad byte count, tail, prevlen, encoding or terminator") {
  std::string z = test::ZiplistForTest({{false, "ab"}, {true, "7"}, {false, "cd"}});
  Strings out;
  std::string err;
  REQUIRE(DecodeZiplist(z, &out, &err));
  auto refuses = [&](std::string bad) {
    Strings o;
    std::string e;
    return !DecodeZiplist(bad, &o, &e) && !e.empty();
  };
  std::string b = z;
  b[0] ^= 1;
  CHECK(refuses(b));  // zlbytes
  b = z;
  b[4] ^= 1;
  CHECK(refuses(b));  // zltail
  b = z;
  b[8] = 5;
  CHECK(refuses(b));  // zllen
  b = z;
  b[14] = 9;
  CHECK(refuses(b));  // the second entry's prevlen
  b = z;
  b[15] = static_cast<char>(0xC5);
  CHECK(refuses(b));  // no such integer encoding
  b = z;
  b.back() = 0;
  CHECK(refuses(b));
  CHECK(refuses(z.substr(0, 10)));
  b = z;
  b[11] = 60;  // a string length past the end
  CHECK(refuses(b));
  // zllen 0xFFFF means "count them".
  b = z;
  b[8] = b[9] = static_cast<char>(0xFF);
  out.clear();
  CHECK(DecodeZiplist(b, &out, &err));
  CHECK(out.size() == 3);
}

TEST_CASE("listpack: decodes a hand-built blob of strings, ints and backlens") {
  // "a" (0x81 'a', backlen 2), 5 (0x05, backlen 1), -1 as 13-bit (0xDF 0xFF, backlen 2),
  // 300 as int16 (0xF1, backlen 3), a 100-byte string as 12-bit (0xE0 100, backlen 102).
  std::string s100(100, 's');
  std::string entries = std::string(
                            "\x81"
                            "a\x02",
                            3) +
                        "\x05\x01" + "\xdf\xff\x02" + std::string("\xf1\x2c\x01\x03", 4) +
                        "\xe0\x64" + s100 + "\x66";
  std::string lp = Lp(entries, 5);
  Strings out;
  std::string err;
  REQUIRE_MESSAGE(DecodeListpack(lp, &out, &err), err);
  CHECK(out == Strings{"a", "5", "-1", "300", s100});
}

TEST_CASE("listpack: the builder's encodings decode back to the same elements") {
  Strings in = {"0",
                "127",
                "128",
                "-1",
                "-4096",
                "4095",
                "4096",
                "-32768",
                "32767",
                "40000",
                "-8388608",
                "8388607",
                "8388608",
                "2147483647",
                "-2147483649",
                "9223372036854775807",
                "-9223372036854775808",
                "007",
                "-0",
                "+1",
                "",
                std::string(63, 'a'),
                std::string(64, 'b'),
                std::string(4095, 'c'),
                std::string(4096, 'd'),
                std::string(70000, 'e')};
  ListpackBuilder b;
  for (auto& s : in) b.Append(s);
  CHECK(b.count() == in.size());
  size_t predicted = b.bytes();
  std::string lp = b.Finish();
  CHECK(lp.size() == predicted);
  Strings out;
  std::string err;
  REQUIRE_MESSAGE(DecodeListpack(lp, &out, &err), err);
  CHECK(out == in);
}

TEST_CASE("listpack: refuses a bad backlen, count, total, terminator or truncated entry") {
  ListpackBuilder b;
  b.Append("hello");
  b.Append("12345678");
  std::string lp = b.Finish();
  auto refuses = [](const std::string& bad) {
    Strings o;
    std::string e;
    return !DecodeListpack(bad, &o, &e) && !e.empty();
  };
  std::string x = lp;
  x[12] ^= 1;  // backlen of "hello" (1 + 5 bytes, at byte 12)
  CHECK(refuses(x));
  x = lp;
  x[4] = 3;
  CHECK(refuses(x));
  x = lp;
  x[0] ^= 4;
  CHECK(refuses(x));
  x = lp;
  x.back() = 0;
  CHECK(refuses(x));
  CHECK(
      refuses(Lp("\x85"
                 "ab",
                 1)));                                // string runs past the end
  CHECK(refuses(Lp("\xf5\x01", 1)));                  // unused encoding
  CHECK(refuses(Lp("\xf0\xff\xff\xff\x7f\x01", 1)));  // huge 32-bit length
  CHECK(refuses("\x06\x00\x00\x00\x00\x00"));         // shorter than a header and terminator
}

TEST_CASE("intset: encodes in the narrowest width and decodes sorted values") {
  for (auto vals :
       std::vector<std::vector<int64_t>>{{3, 1, 2}, {-40000, 5}, {1, INT64_MAX, INT64_MIN}, {}}) {
    std::string s = EncodeIntset(vals);
    std::sort(vals.begin(), vals.end());
    Strings out, want;
    for (auto v : vals) want.push_back(std::to_string(v));
    std::string err;
    REQUIRE_MESSAGE(DecodeIntset(s, &out, &err), err);
    CHECK(out == want);
  }
  CHECK(EncodeIntset({1, 2})[0] == 2);
  CHECK(EncodeIntset({1, 70000})[0] == 4);
  CHECK(EncodeIntset({1, 1ll << 40})[0] == 8);
}

TEST_CASE("intset: refuses a bad encoding, size, or unsorted and duplicate values") {
  Strings out;
  std::string err;
  CHECK_FALSE(DecodeIntset(Le(3, 4) + Le(1, 4) + "abc", &out, &err));
  CHECK_FALSE(DecodeIntset(Le(2, 4) + Le(2, 4) + Le(1, 2), &out, &err));
  CHECK_FALSE(DecodeIntset(Le(2, 4) + Le(2, 4) + Le(5, 2) + Le(4, 2), &out, &err));
  CHECK_FALSE(DecodeIntset(Le(2, 4) + Le(2, 4) + Le(5, 2) + Le(5, 2), &out, &err));
  CHECK_FALSE(DecodeIntset(Le(8, 4) + Le(0x40000000, 4), &out, &err));  // count * 8 overflow
  CHECK_FALSE(DecodeIntset("\x02\x00", &out, &err));
}

TEST_CASE("zipmap: decodes fields and values, skipping free bytes") {
  // 2 pairs: "f1"->"v" with 2 free bytes, "g"->a 300-byte value with a 5-byte length.
  std::string v300(300, 'v');
  std::string zm = std::string("\x02", 1) +
                   "\x02"
                   "f1"
                   "\x01\x02"
                   "vxx" +
                   "\x01g" + std::string("\xfe", 1) + Le(300, 4) + std::string(1, '\0') + v300 +
                   "\xff";
  Strings out;
  std::string err;
  REQUIRE_MESSAGE(DecodeZipmap(zm, &out, &err), err);
  CHECK(out == Strings{"f1", "v", "g", v300});
  std::string bad = zm;
  bad[0] = 3;
  CHECK_FALSE(DecodeZipmap(bad, &out, &err));
  bad = zm;
  bad[5] = 9;  // free bytes past the end of the value region
  bad.resize(9);
  bad += "\xff";
  CHECK_FALSE(DecodeZipmap(bad, &out, &err));
  CHECK_FALSE(DecodeZipmap(std::string("\x01\x05"
                                       "ab\xff",
                                       5),
                           &out, &err));
  std::string count_unknown = zm;
  count_unknown[0] = static_cast<char>(254);
  CHECK(DecodeZipmap(count_unknown, &out, &err));
}

TEST_CASE("compact: only canonical integer text counts as an integer") {
  int64_t v = 0;
  CHECK(ParseCanonicalInt("0", &v));
  CHECK((ParseCanonicalInt("-9223372036854775808", &v) && v == INT64_MIN));
  CHECK(ParseCanonicalInt("9223372036854775807", &v));
  for (const char* s : {"", "-", "-0", "01", "+1", " 1", "1 ", "9223372036854775808", "1a"}) {
    CHECK_FALSE(ParseCanonicalInt(s, &v));
  }
}

}  // namespace
}  // namespace plinth::rdb
