// The backlog against a model (the whole stream kept in a string): offsets as Redis counts
// them, what Holds accepts, reads from every offset it holds, wraparound, and resizing.
#include "replication/backlog.h"

#include <doctest/doctest.h>

#include <string>

namespace plinth::replication {
namespace {

// The bytes from 1-based offset from to the end of the model stream.
std::string Tail(const std::string& all, uint64_t base, uint64_t from) {
  return all.substr(static_cast<size_t>(from - base - 1));
}

std::string Bytes(size_t n, uint32_t seed) {
  std::string s(n, 0);
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (seed + i * 7) % 26);
  return s;
}

// Checks every offset a replica could ask for, and the two just outside.
void CheckAllReads(const Backlog& b, const std::string& all, uint64_t base) {
  const uint64_t end = base + all.size();
  REQUIRE(b.end_offset() == end);
  REQUIRE(b.first_offset() == end - b.histlen() + 1);
  CHECK_FALSE(b.Holds(b.first_offset() - 1));
  CHECK_FALSE(b.Holds(end + 2));
  std::string out = "x";
  CHECK_FALSE(b.CopyFrom(end + 2, &out));
  CHECK(out == "x");
  for (uint64_t from = b.first_offset(); from <= end + 1; ++from) {
    std::string got;
    REQUIRE(b.CopyFrom(from, &got));
    REQUIRE(got == Tail(all, base, from));
  }
}

TEST_CASE("backlog: an empty backlog holds only the next offset") {
  Backlog b(16, 100);
  CHECK(b.histlen() == 0);
  CHECK(b.end_offset() == 100);
  CHECK(b.first_offset() == 101);
  CHECK(b.Holds(101));
  CHECK_FALSE(b.Holds(100));
  CHECK_FALSE(b.Holds(102));
  std::string out;
  CHECK(b.CopyFrom(101, &out));
  CHECK(out.empty());
  int spans = 0;
  b.Visit(
      101, [](void* a, const char*, size_t) { ++*static_cast<int*>(a); }, &spans);
  CHECK(spans == 0);
}

TEST_CASE("backlog: offsets and reads follow appends of every size across wraparound") {
  for (size_t step : {1u, 3u, 7u, 15u, 16u, 17u, 40u}) {
    Backlog b(16, 5);
    std::string all;
    for (uint32_t i = 0; i < 12; ++i) {
      const std::string chunk = Bytes(step, i);
      b.Append(chunk.data(), chunk.size());
      all += chunk;
      CAPTURE(step);
      CAPTURE(i);
      CHECK(b.histlen() == std::min<size_t>(16, all.size()));
      CheckAllReads(b, all, 5);
    }
  }
}

TEST_CASE("backlog: Visit gives at most two spans, oldest first") {
  Backlog b(10, 0);
  const std::string all = "0123456789abcdef";  // wraps: holds 6..f
  b.Append(all.data(), 7);
  b.Append(all.data() + 7, all.size() - 7);
  std::string joined;
  int spans = 0;
  struct Ctx {
    std::string* s;
    int* n;
  } ctx{&joined, &spans};
  CHECK(b.Visit(
      7,
      [](void* a, const char* d, size_t n) {
        auto* c = static_cast<Ctx*>(a);
        c->s->append(d, n);
        ++*c->n;
      },
      &ctx));
  CHECK(joined == "6789abcdef");
  CHECK(spans <= 2);
}

TEST_CASE("backlog: growing keeps every byte and then holds more") {
  Backlog b(8, 0);
  std::string all = Bytes(20, 1);
  b.Append(all.data(), all.size());
  b.Resize(32);
  CHECK(b.size() == 32);
  CHECK(b.histlen() == 8);
  CheckAllReads(b, all, 0);
  const std::string more = Bytes(30, 2);
  b.Append(more.data(), more.size());
  all += more;
  CHECK(b.histlen() == 32);
  CheckAllReads(b, all, 0);
}

TEST_CASE("backlog: shrinking keeps the newest bytes") {
  Backlog b(32, 1000);
  std::string all = Bytes(45, 3);  // wrapped: holds the last 32
  b.Append(all.data(), 20);
  b.Append(all.data() + 20, 25);
  b.Resize(10);
  CHECK(b.size() == 10);
  CHECK(b.histlen() == 10);
  CHECK(b.first_offset() == 1000 + 45 - 10 + 1);
  CheckAllReads(b, all, 1000);
  const std::string more = Bytes(13, 4);
  b.Append(more.data(), more.size());
  all += more;
  CheckAllReads(b, all, 1000);
}

TEST_CASE("backlog: resizing a partly filled backlog keeps what it holds") {
  Backlog b(16, 0);
  std::string all = Bytes(5, 9);
  b.Append(all.data(), all.size());
  b.Resize(4);
  CHECK(b.histlen() == 4);
  CheckAllReads(b, all, 0);
  b.Resize(64);
  CHECK(b.histlen() == 4);
  CheckAllReads(b, all, 0);
}

TEST_CASE("backlog: a huge size takes memory only as the stream arrives") {
  // CONFIG SET repl-backlog-size 1tb must not allocate (or zero) a terabyte up front.
  Backlog b(size_t{1} << 40, 7);
  CHECK(b.size() == size_t{1} << 40);
  std::string all = Bytes(100, 5);
  b.Append(all.data(), all.size());
  CHECK(b.histlen() == 100);
  CheckAllReads(b, all, 7);
  b.Resize(size_t{1} << 50);
  CHECK(b.size() == size_t{1} << 50);
  const std::string more = Bytes(50, 6);
  b.Append(more.data(), more.size());
  all += more;
  CHECK(b.histlen() == 150);
  CheckAllReads(b, all, 7);
}

}  // namespace
}  // namespace plinth::replication
