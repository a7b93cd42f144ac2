// Unit tests of the listpack byte format: Redis's exact encodings, backlens, header and
// walking both ways, and the validation of untrusted bytes.
#include "stream/listpack.h"

#include <doctest/doctest.h>

#include <string>

namespace plinth::stream {
namespace {

TEST_CASE("stream listpack: integers take Redis's smallest encoding") {
  struct Case {
    int64_t v;
    size_t bytes;  // encoding + data + backlen
  };
  const Case cases[] = {{0, 2},          {127, 2},       {128, 3},     {-1, 3},
                        {-4096, 3},      {4095, 3},      {4096, 4},    {-32768, 4},
                        {32768, 5},      {-8388608, 5},  {8388608, 6}, {INT32_MIN, 6},
                        {INT64_MAX, 10}, {INT64_MIN, 10}};
  for (const Case& c : cases) {
    std::string lp = lp::Create();
    lp::AppendInt(&lp, c.v);
    CHECK(lp.size() == 7 + c.bytes);
    CHECK(lp::Bytes(lp) == lp.size());
    LpValue got = lp::Get(lp, lp::First());
    CHECK(got.is_int);
    CHECK(got.num == c.v);
  }
}

TEST_CASE("stream listpack: canonical integer strings are stored as integers") {
  std::string lp = lp::Create();
  lp::AppendString(&lp, "12");
  lp::AppendString(&lp, "-0");
  lp::AppendString(&lp, "007");
  lp::AppendString(&lp, "");
  size_t p = lp::First();
  CHECK(lp::Get(lp, p).is_int);
  p = lp::Next(lp, p);
  CHECK_FALSE(lp::Get(lp, p).is_int);
  CHECK(lp::Get(lp, p).Text() == "-0");
  p = lp::Next(lp, p);
  CHECK(lp::Get(lp, p).Text() == "007");
  p = lp::Next(lp, p);
  CHECK(lp::Get(lp, p).Text().empty());
  CHECK(lp::HeaderCount(lp) == 4);
}

TEST_CASE("stream listpack: long strings, backlens and walking backwards") {
  std::string lp = lp::Create();
  const std::string mid(200, 'm'), big(70000, 'b');
  lp::AppendString(&lp, "x");
  lp::AppendString(&lp, mid);
  lp::AppendString(&lp, big);
  size_t last = lp::Last(lp);
  CHECK(lp::Get(lp, last).str == big);
  size_t prev = lp::Prev(lp, last);
  CHECK(lp::Get(lp, prev).str == mid);
  CHECK(lp::Get(lp, lp::Prev(lp, prev)).str == "x");
  CHECK(lp::Prev(lp, lp::First()) == std::string::npos);
  size_t n = 0;
  CHECK(lp::Validate(lp, &n));
  CHECK(n == 3);
}

TEST_CASE("stream listpack: replacing an integer resizes the entry") {
  std::string lp = lp::Create();
  lp::AppendInt(&lp, 127);
  lp::AppendInt(&lp, 5);
  lp::ReplaceInt(&lp, lp::First(), 128);
  CHECK(lp::GetInt(lp, lp::First()) == 128);
  CHECK(lp::GetInt(lp, lp::Next(lp, lp::First())) == 5);
  size_t n = 0;
  CHECK(lp::Validate(lp, &n));
}

TEST_CASE("stream listpack: validation refuses damaged bytes") {
  std::string lp = lp::Create();
  lp::AppendString(&lp, "hello");
  lp::AppendInt(&lp, 300);
  size_t n = 0;
  REQUIRE(lp::Validate(lp, &n));
  for (size_t i = 0; i < lp.size(); ++i) {
    std::string bad = lp;
    bad[i] = static_cast<char>(bad[i] ^ 0x40);
    size_t m = 0;
    if (lp::Validate(bad, &m)) CHECK(m == 2);  // a flip inside the text is still well formed
  }
  CHECK_FALSE(lp::Validate(lp.substr(0, lp.size() - 1), &n));
  CHECK_FALSE(lp::Validate("", &n));
}

}  // namespace
}  // namespace plinth::stream
