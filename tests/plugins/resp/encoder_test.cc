// Reply encoding of every PLINTH_REPLY_* type in RESP2 and RESP3, and bulk framing.
#include "resp/encoder.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

namespace plinth::resp {
namespace {

// An output buffer over a std::string that starts with no room, so every write grows it.
struct TestOut {
  std::string storage;
  plinth_outbuf_t out{sizeof(plinth_outbuf_t), nullptr, 0, 0, &Grow, this};
  bool refuse = false;

  static int32_t Grow(plinth_outbuf_t* o, size_t min_free) {
    auto* self = static_cast<TestOut*>(o->host_private);
    if (self->refuse) return PLINTH_ERR;
    self->storage.resize(o->len + min_free);
    o->data = self->storage.data();
    o->cap = self->storage.size();
    return PLINTH_OK;
  }
  std::string Text() const { return std::string(out.data == nullptr ? "" : out.data, out.len); }
};

plinth_reply_item_t Item(uint32_t type) {
  plinth_reply_item_t it{};
  it.struct_size = sizeof it;
  it.type = type;
  return it;
}
plinth_reply_item_t Text(uint32_t type, const std::string& s) {
  plinth_reply_item_t it = Item(type);
  it.data = s.data();
  it.len = s.size();
  return it;
}
plinth_reply_item_t Int(uint32_t type, int64_t v) {
  plinth_reply_item_t it = Item(type);
  it.integer = v;
  return it;
}
plinth_reply_item_t Dbl(double d) {
  plinth_reply_item_t it = Item(PLINTH_REPLY_DOUBLE);
  it.dbl = d;
  return it;
}

// The encoding of item in protocol proto.
std::string Enc(uint32_t proto, const plinth_reply_item_t& item) {
  TestOut o;
  REQUIRE(EncodeReply(proto, item, &o.out));
  return o.Text();
}

TEST_CASE("resp encoder: simple strings, errors and integers") {
  for (uint32_t proto : {2u, 3u}) {
    CHECK(Enc(proto, Text(PLINTH_REPLY_SIMPLE, "OK")) == "+OK\r\n");
    CHECK(Enc(proto, Text(PLINTH_REPLY_ERROR, "ERR syntax error")) == "-ERR syntax error\r\n");
    CHECK(Enc(proto, Int(PLINTH_REPLY_INTEGER, 0)) == ":0\r\n");
    CHECK(Enc(proto, Int(PLINTH_REPLY_INTEGER, -42)) == ":-42\r\n");
    CHECK(Enc(proto, Int(PLINTH_REPLY_INTEGER, INT64_MIN)) == ":-9223372036854775808\r\n");
  }
}

TEST_CASE("resp encoder: CR and LF inside errors and simple strings become spaces") {
  CHECK(Enc(2, Text(PLINTH_REPLY_ERROR, "ERR bad\r\nthing\n")) == "-ERR bad  thing \r\n");
  CHECK(Enc(3, Text(PLINTH_REPLY_SIMPLE, "a\rb")) == "+a b\r\n");
}

TEST_CASE("resp encoder: bulk strings are binary safe") {
  const std::string v("a\0\r\nb", 5);
  for (uint32_t proto : {2u, 3u}) {
    CHECK(Enc(proto, Text(PLINTH_REPLY_BULK, v)) == "$5\r\n" + v + "\r\n");
    CHECK(Enc(proto, Text(PLINTH_REPLY_BULK, "")) == "$0\r\n\r\n");
  }
  const std::string big(100000, 'x');
  CHECK(Enc(2, Text(PLINTH_REPLY_BULK, big)) == "$100000\r\n" + big + "\r\n");
}

TEST_CASE("resp encoder: nulls") {
  CHECK(Enc(2, Item(PLINTH_REPLY_NULL)) == "$-1\r\n");
  CHECK(Enc(2, Item(PLINTH_REPLY_NULL_ARRAY)) == "*-1\r\n");
  CHECK(Enc(3, Item(PLINTH_REPLY_NULL)) == "_\r\n");
  CHECK(Enc(3, Item(PLINTH_REPLY_NULL_ARRAY)) == "_\r\n");
}

TEST_CASE("resp encoder: aggregate headers") {
  CHECK(Enc(2, Int(PLINTH_REPLY_ARRAY, 3)) == "*3\r\n");
  CHECK(Enc(3, Int(PLINTH_REPLY_ARRAY, 0)) == "*0\r\n");
  CHECK(Enc(2, Int(PLINTH_REPLY_MAP, 2)) == "*4\r\n");
  CHECK(Enc(3, Int(PLINTH_REPLY_MAP, 2)) == "%2\r\n");
  CHECK(Enc(2, Int(PLINTH_REPLY_SET, 5)) == "*5\r\n");
  CHECK(Enc(3, Int(PLINTH_REPLY_SET, 5)) == "~5\r\n");
  CHECK(Enc(2, Int(PLINTH_REPLY_PUSH, 3)) == "*3\r\n");
  CHECK(Enc(3, Int(PLINTH_REPLY_PUSH, 3)) == ">3\r\n");
}

TEST_CASE("resp encoder: doubles are written like Redis") {
  CHECK(Enc(3, Dbl(1.5)) == ",1.5\r\n");
  CHECK(Enc(3, Dbl(3)) == ",3\r\n");
  CHECK(Enc(3, Dbl(0.1)) == ",0.10000000000000001\r\n");
  CHECK(Enc(3, Dbl(1e300)) == ",1.0000000000000001e+300\r\n");
  CHECK(Enc(3, Dbl(-0.0)) == ",-0\r\n");
  CHECK(Enc(3, Dbl(std::numeric_limits<double>::infinity())) == ",inf\r\n");
  CHECK(Enc(3, Dbl(-std::numeric_limits<double>::infinity())) == ",-inf\r\n");
  CHECK(Enc(3, Dbl(std::nan(""))) == ",nan\r\n");
  CHECK(Enc(3, Dbl(-std::nan(""))) == ",nan\r\n");
  CHECK(Enc(2, Dbl(1.5)) == "$3\r\n1.5\r\n");
  CHECK(Enc(2, Dbl(0.1)) == "$19\r\n0.10000000000000001\r\n");
  CHECK(Enc(2, Dbl(std::numeric_limits<double>::infinity())) == "$3\r\ninf\r\n");
  CHECK(Enc(2, Dbl(-std::numeric_limits<double>::infinity())) == "$4\r\n-inf\r\n");
  CHECK(Enc(2, Dbl(-std::numeric_limits<double>::max())) == "$24\r\n-1.7976931348623157e+308\r\n");
}

TEST_CASE("resp encoder: booleans") {
  CHECK(Enc(3, Int(PLINTH_REPLY_BOOL, 1)) == "#t\r\n");
  CHECK(Enc(3, Int(PLINTH_REPLY_BOOL, 0)) == "#f\r\n");
  CHECK(Enc(2, Int(PLINTH_REPLY_BOOL, 1)) == ":1\r\n");
  CHECK(Enc(2, Int(PLINTH_REPLY_BOOL, 0)) == ":0\r\n");
}

TEST_CASE("resp encoder: verbatim strings") {
  const std::string text = "hello\nworld";
  plinth_reply_item_t v = Text(PLINTH_REPLY_VERBATIM, text);
  v.ext = "mkd";
  CHECK(Enc(3, v) == "=15\r\nmkd:hello\nworld\r\n");
  CHECK(Enc(2, v) == "$11\r\nhello\nworld\r\n");
  v.ext = nullptr;
  CHECK(Enc(3, v) == "=15\r\ntxt:hello\nworld\r\n");
  v.ext = "toolong";
  CHECK(Enc(3, v) == "=15\r\ntxt:hello\nworld\r\n");
}

TEST_CASE("resp encoder: big numbers") {
  const std::string digits = "1234567999999999999999999999999999999";
  CHECK(Enc(3, Text(PLINTH_REPLY_BIGNUM, digits)) == "(" + digits + "\r\n");
  CHECK(Enc(2, Text(PLINTH_REPLY_BIGNUM, digits)) == "$37\r\n" + digits + "\r\n");
}

TEST_CASE("resp encoder: appends after what is already in the buffer") {
  TestOut o;
  REQUIRE(EncodeReply(2, Int(PLINTH_REPLY_ARRAY, 2), &o.out));
  REQUIRE(EncodeReply(2, Text(PLINTH_REPLY_BULK, "a"), &o.out));
  REQUIRE(EncodeReply(2, Item(PLINTH_REPLY_NULL), &o.out));
  CHECK(o.Text() == "*2\r\n$1\r\na\r\n$-1\r\n");
}

TEST_CASE("resp encoder: fails cleanly when the buffer cannot grow or the type is unknown") {
  TestOut o;
  REQUIRE(EncodeReply(2, Text(PLINTH_REPLY_SIMPLE, "OK"), &o.out));
  o.refuse = true;
  const std::string big(1000, 'x');
  CHECK_FALSE(EncodeReply(2, Text(PLINTH_REPLY_BULK, big), &o.out));
  CHECK(o.Text() == "+OK\r\n");
  o.refuse = false;
  CHECK_FALSE(EncodeReply(2, Item(999), &o.out));
  CHECK(o.Text() == "+OK\r\n");
}

TEST_CASE("resp encoder: frame_bulk writes the bulk header and trailer") {
  TestOut prefix, suffix;
  REQUIRE(FrameBulk(64 * 1024 * 1024, &prefix.out, &suffix.out));
  CHECK(prefix.Text() == "$67108864\r\n");
  CHECK(suffix.Text() == "\r\n");
  TestOut same;
  REQUIRE(FrameBulk(0, &same.out, &same.out));
  CHECK(same.Text() == "$0\r\n\r\n");
}

}  // namespace
}  // namespace plinth::resp
