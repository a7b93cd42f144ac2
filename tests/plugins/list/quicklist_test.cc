// Unit tests of QuickList, the list type's packed node chain: every operation against a
// std::deque model under several node limits, and the node limits themselves.
#include "list/quicklist.h"

#include <doctest/doctest.h>

#include <deque>
#include <memory>
#include <random>
#include <string>

namespace plinth::list {
namespace {

std::deque<std::string> Contents(const QuickList& l) {
  std::deque<std::string> out;
  if (l.empty()) return out;
  QuickList::Pos p = l.Locate(0);
  do {
    out.emplace_back(l.Get(p));
  } while (l.Next(&p));
  return out;
}

std::deque<std::string> ContentsBackwards(const QuickList& l) {
  std::deque<std::string> out;
  if (l.empty()) return out;
  QuickList::Pos p = l.Locate(l.size() - 1);
  do {
    out.emplace_front(l.Get(p));
  } while (l.Prev(&p));
  return out;
}

// A value of random length: mostly short, sometimes longer than a node.
std::string RandomValue(std::mt19937& rng) {
  const int kind = static_cast<int>(rng() % 20);
  size_t len = kind == 0 ? 9000 + rng() % 3000 : kind < 4 ? rng() % 300 : rng() % 12;
  return std::string(len, static_cast<char>('a' + rng() % 4));
}

void CheckSame(const QuickList& l, const std::deque<std::string>& model) {
  REQUIRE(l.size() == model.size());
  REQUIRE(Contents(l) == model);
  REQUIRE(ContentsBackwards(l) == model);
  for (size_t i = 0; i < model.size(); i += 1 + model.size() / 7) REQUIRE(l.At(i) == model[i]);
}

void RandomOps(int64_t fill, uint32_t seed) {
  std::mt19937 rng(seed);
  QuickList l;
  std::deque<std::string> model;
  const NodeLimit limit{fill};
  for (int step = 0; step < 3000; ++step) {
    const int op = static_cast<int>(rng() % 10);
    std::string v = RandomValue(rng);
    if (op <= 2 || model.empty()) {
      if (rng() % 2) {
        l.PushFront(v, limit);
        model.push_front(v);
      } else {
        l.PushBack(v, limit);
        model.push_back(v);
      }
    } else if (op == 3) {
      std::string out;
      l.PopFront(&out);
      REQUIRE(out == model.front());
      model.pop_front();
    } else if (op == 4) {
      std::string out;
      l.PopBack(&out);
      REQUIRE(out == model.back());
      model.pop_back();
    } else if (op == 5) {
      const size_t i = rng() % model.size();
      l.Set(i, v, limit);
      model[i] = v;
    } else if (op == 6) {
      const size_t i = rng() % model.size();
      const bool after = rng() % 2;
      l.Insert(i, after, v, limit);
      model.insert(model.begin() + static_cast<long>(i + (after ? 1 : 0)), v);
    } else if (op == 7 && step % 5 == 0) {
      const std::string target = model[rng() % model.size()];
      const uint64_t max = rng() % 3;
      const bool tail = rng() % 2;
      uint64_t expect = 0;
      if (tail) {
        for (size_t i = model.size(); i-- > 0 && (max == 0 || expect < max);)
          if (model[i] == target) model.erase(model.begin() + static_cast<long>(i)), ++expect;
      } else {
        for (size_t i = 0; i < model.size() && (max == 0 || expect < max);)
          if (model[i] == target) {
            model.erase(model.begin() + static_cast<long>(i));
            ++expect;
          } else {
            ++i;
          }
      }
      REQUIRE(l.RemoveMatching(target, max, tail) == expect);
    } else if (op == 8 && step % 7 == 0 && model.size() > 2) {
      const size_t start = rng() % (model.size() / 2);
      const size_t keep = 1 + rng() % (model.size() - start);
      l.Keep(start, keep);
      model.erase(model.begin() + static_cast<long>(start + keep), model.end());
      model.erase(model.begin(), model.begin() + static_cast<long>(start));
    }
    if (step % 97 == 0) CheckSame(l, model);
  }
  CheckSame(l, model);
  std::unique_ptr<QuickList> copy(l.Clone());
  REQUIRE(copy);
  CheckSame(*copy, model);
}

TEST_CASE("quicklist: random operations match a deque with 8 KiB nodes") { RandomOps(-2, 1); }

TEST_CASE("quicklist: random operations match a deque with 4 KiB and 64 KiB nodes") {
  RandomOps(-1, 2);
  RandomOps(-5, 3);
  RandomOps(-100, 4);
}

TEST_CASE("quicklist: random operations match a deque with count-limited nodes") {
  RandomOps(1, 5);
  RandomOps(3, 6);
  RandomOps(0, 7);
  RandomOps(128, 8);
}

TEST_CASE("quicklist: node limits follow list-max-listpack-size") {
  CHECK_FALSE(NodeLimit{-2}.Exceeded(8192, 1000));
  CHECK(NodeLimit{-2}.Exceeded(8193, 2));
  CHECK(NodeLimit{-1}.Exceeded(4097, 2));
  CHECK_FALSE(NodeLimit{-5}.Exceeded(65536, 2));
  CHECK_FALSE(NodeLimit{-9}.Exceeded(65536, 2));
  CHECK(NodeLimit{4}.Exceeded(100, 5));
  CHECK_FALSE(NodeLimit{4}.Exceeded(100, 4));
  CHECK(NodeLimit{1000}.Exceeded(8193, 10));  // the 8 KiB safety limit
  CHECK(NodeLimit{0}.Exceeded(10, 2));
}

TEST_CASE("quicklist: pushes fill nodes up to the limit") {
  QuickList l;
  for (int i = 0; i < 10; ++i) l.PushBack("x", NodeLimit{4});
  CHECK(l.nodes() == 3);
  QuickList small;
  for (int i = 0; i < 1000; ++i) small.PushFront("abc", NodeLimit{-2});
  CHECK(small.nodes() == 1);  // 5 bytes an entry: 1000 fit in 8 KiB
  CHECK(small.MemoryUsage() < 8000);
  for (int i = 0; i < 2000; ++i) small.PushFront("abc", NodeLimit{-2});
  CHECK(small.nodes() == 2);
}

TEST_CASE("quicklist: an entry larger than a node gets its own node") {
  QuickList l;
  l.PushBack("a", NodeLimit{-2});
  l.PushBack(std::string(20000, 'b'), NodeLimit{-2});
  l.PushBack("c", NodeLimit{-2});
  CHECK(l.nodes() == 3);
  CHECK(l.At(1).size() == 20000);
  l.Set(0, std::string(30000, 'z'), NodeLimit{-2});
  CHECK(l.At(0).size() == 30000);
  CHECK(l.At(2) == "c");
}

TEST_CASE("quicklist: empty and binary values survive") {
  QuickList l;
  l.PushBack("", NodeLimit{-2});
  l.PushBack(std::string("a\0b", 3), NodeLimit{-2});
  l.PushBack(std::string(200, '\xff'), NodeLimit{-2});
  CHECK(l.At(0).empty());
  CHECK(l.At(1) == std::string_view("a\0b", 3));
  CHECK(l.At(2) == std::string(200, '\xff'));
  std::string out;
  l.PopBack(&out);
  CHECK(out == std::string(200, '\xff'));
}

TEST_CASE("quicklist: emptying removes every node") {
  QuickList l;
  for (int i = 0; i < 5000; ++i) l.PushBack(std::to_string(i), NodeLimit{-1});
  CHECK(l.nodes() > 1);
  CHECK(l.RemoveMatching("17", 0, false) == 1);
  l.Keep(10, 20);
  CHECK(l.size() == 20);
  CHECK(l.At(0) == "10");
  std::string out;
  while (!l.empty()) l.PopFront(&out);
  CHECK(l.nodes() == 0);
  CHECK(out == "30");
}

}  // namespace
}  // namespace plinth::list
