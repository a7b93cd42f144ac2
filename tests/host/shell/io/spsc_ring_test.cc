// SpscRing: full and empty at the edges, wraparound, who owns queued items, batches, and two
// threads handing over a million sequence numbers. Built under TSan in CI (label "threaded").
#include "host/shell/io/spsc_ring.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using plinth::host::SpscRing;

// Two fields written together: a consumer that saw a half-built item would find them disagree.
struct Item {
  uint64_t seq = 0;
  uint64_t inverse = ~uint64_t{0};
};

}  // namespace

TEST_CASE("spsc ring: a ring of four takes four items, refuses a fifth, and empties in order") {
  SpscRing<int> ring(4);
  CHECK(ring.Capacity() == 4);
  CHECK(ring.Empty());
  int out = -1;
  CHECK_FALSE(ring.TryPop(out));
  for (int i = 0; i < 4; ++i) CHECK(ring.TryPush(i));
  CHECK_FALSE(ring.TryPush(99));
  CHECK_FALSE(ring.Empty());
  for (int i = 0; i < 4; ++i) {
    REQUIRE(ring.TryPop(out));
    CHECK(out == i);
  }
  CHECK_FALSE(ring.TryPop(out));
  CHECK(ring.Empty());
  CHECK(ring.TryPush(5));  // a slot freed by a pop is usable again
}

TEST_CASE("spsc ring: a ring of one alternates between full and empty") {
  SpscRing<int> ring(1);
  int out = 0;
  for (int i = 0; i < 10; ++i) {
    REQUIRE(ring.TryPush(i));
    CHECK_FALSE(ring.TryPush(-1));
    REQUIRE(ring.TryPop(out));
    CHECK(out == i);
    CHECK_FALSE(ring.TryPop(out));
  }
}

TEST_CASE("spsc ring: indices wrap around the slots many times and order holds") {
  SpscRing<uint64_t> ring(8);
  uint64_t pushed = 0, popped = 0;
  bool in_order = true;
  // Uneven push and pop counts, so the ring is full, empty and in between at every slot.
  for (int round = 0; round < 1000; ++round) {
    for (int i = 0; i < 1 + round % 8 && ring.TryPush(pushed); ++i) ++pushed;
    uint64_t v = 0;
    for (int i = 0; i < 1 + (round * 5) % 8 && ring.TryPop(v); ++i) in_order &= v == popped++;
  }
  uint64_t v = 0;
  while (ring.TryPop(v)) in_order &= v == popped++;
  CHECK(in_order);
  CHECK(popped == pushed);
  CHECK(pushed > 100 * ring.Capacity());
}

TEST_CASE(
    "spsc ring: PopAll passes queued items oldest first, at most max, and frees their slots") {
  SpscRing<int> ring(8);
  for (int i = 0; i < 6; ++i) REQUIRE(ring.TryPush(i));
  std::vector<int> got;
  CHECK(ring.PopAll([&](int&& v) { got.push_back(v); }, 4) == 4);
  CHECK(got == std::vector<int>{0, 1, 2, 3});
  for (int i = 6; i < 12; ++i) REQUIRE(ring.TryPush(i));  // the four freed slots and two more
  CHECK_FALSE(ring.TryPush(12));
  got.clear();
  CHECK(ring.PopAll([&](int&& v) { got.push_back(v); }) == 8);
  CHECK(got == std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(ring.PopAll([&](int&&) { FAIL("nothing is queued"); }) == 0);
  CHECK(ring.Empty());
}

TEST_CASE("spsc ring: queued items die with the ring, popped ones belong to the caller") {
  auto token = std::make_shared<int>(7);
  std::shared_ptr<int> out;
  {
    SpscRing<std::shared_ptr<int>> ring(4);
    for (int i = 0; i < 3; ++i) REQUIRE(ring.TryPush(token));
    CHECK(token.use_count() == 4);
    REQUIRE(ring.TryPop(out));
    CHECK(token.use_count() == 4);  // moved out, not copied
  }
  CHECK(token.use_count() == 2);  // token and out; the two left queued were destroyed
}

TEST_CASE("spsc ring: a push into a full ring leaves a move-only item with the caller") {
  SpscRing<std::unique_ptr<int>> ring(1);
  REQUIRE(ring.TryPush(std::make_unique<int>(1)));
  auto second = std::make_unique<int>(2);
  CHECK_FALSE(ring.TryPush(std::move(second)));
  REQUIRE(second != nullptr);
  CHECK(*second == 2);
}

TEST_CASE("spsc ring: an item whose PopAll callback throws is consumed exactly once") {
  auto token = std::make_shared<int>(0);
  SpscRing<std::shared_ptr<int>> ring(4);
  for (int i = 0; i < 3; ++i) REQUIRE(ring.TryPush(token));
  int calls = 0;
  CHECK_THROWS_AS(ring.PopAll([&](std::shared_ptr<int>&&) {
    if (++calls == 2) throw std::runtime_error("second item");
  }),
                  std::runtime_error);
  CHECK(token.use_count() == 2);  // the first two are gone, the third is still queued
  CHECK(ring.PopAll([](std::shared_ptr<int>&&) {}) == 1);
  CHECK(token.use_count() == 1);
}

TEST_CASE("spsc ring: two threads hand over a million items, each once and in order") {
  constexpr uint64_t kItems = 1'000'000;
  SpscRing<Item> ring(1024);
  std::thread producer([&] {
    for (uint64_t i = 0; i < kItems;) {
      if (ring.TryPush(Item{i, ~i})) {
        ++i;
      } else {
        std::this_thread::yield();
      }
    }
  });
  uint64_t next = 0;
  bool in_order = true, whole = true;
  bool batch = false;  // alternate TryPop and PopAll, so both paths race with the producer
  while (next < kItems) {
    auto take = [&](Item&& item) {
      in_order &= item.seq == next++;
      whole &= item.inverse == ~item.seq;
    };
    std::size_t got = 0;
    if (batch) {
      got = ring.PopAll(take, 100);
    } else if (Item item; ring.TryPop(item)) {
      take(std::move(item));
      got = 1;
    }
    batch = !batch;
    if (got == 0) std::this_thread::yield();
  }
  producer.join();
  CHECK(in_order);
  CHECK(whole);
  CHECK(ring.Empty());
}
