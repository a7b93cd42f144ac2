// Unit tests of the two sorted-set encodings against a std::set model: inserts, updates,
// erases, ranks, range counts, cursors both ways, and the listpack -> skiplist conversion.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "zset/zset.h"

namespace plinth::zset {
namespace {

using Model = std::set<std::pair<double, std::string>>;

void CheckSame(const ZSet& z, const Model& m) {
  REQUIRE(z.Size() == m.size());
  size_t r = 0;
  Cursor c = z.At(0);
  for (const auto& [score, member] : m) {
    REQUIRE(c.Valid());
    CHECK(c.Member() == member);
    CHECK(c.Score() == score);
    size_t rank = 99999;
    CHECK(z.Rank(member, &rank));
    CHECK(rank == r);
    c.Next();
    ++r;
  }
  CHECK_FALSE(c.Valid());
  // Backwards from the last entry.
  Cursor b = z.At(m.size() - 1);
  for (auto it = m.rbegin(); it != m.rend(); ++it, b.Prev()) {
    REQUIRE(b.Valid());
    CHECK(b.Member() == it->second);
  }
  CHECK_FALSE(b.Valid());
}

void RunModel(size_t max_entries, int ops, uint32_t seed) {
  CurrentLimits().max_entries = max_entries;
  ZSet z(0, 0);
  Model m;
  std::mt19937 rng(seed);
  std::map<std::string, double> scores;
  for (int i = 0; i < ops; ++i) {
    const std::string member = "m" + std::to_string(rng() % 300);
    const double score = static_cast<double>(rng() % 50);
    const int op = static_cast<int>(rng() % 10);
    auto it = scores.find(member);
    if (op < 6) {
      if (it == scores.end()) {
        z.Insert(member, score);
        m.insert({score, member});
        scores[member] = score;
      } else {
        m.erase({it->second, member});
        z.Update(member, score);
        m.insert({score, member});
        it->second = score;
      }
    } else if (op < 9) {
      CHECK(z.Erase(member) == (it != scores.end()));
      if (it != scores.end()) {
        m.erase({it->second, member});
        scores.erase(it);
      }
    } else if (!m.empty()) {
      const size_t from = rng() % m.size();
      const size_t to = from + rng() % 5;
      z.EraseRanks(from, to);
      auto a = m.begin();
      std::advance(a, from);
      for (size_t k = from; k < to && a != m.end(); ++k) {
        scores.erase(a->second);
        a = m.erase(a);
      }
    }
  }
  if (!m.empty()) CheckSame(z, m);
  for (double s : {-1.0, 0.0, 10.0, 25.5, 49.0, 60.0}) {
    size_t below = 0, below_eq = 0;
    for (const auto& e : m) {
      below += e.first < s;
      below_eq += e.first <= s;
    }
    CHECK(z.CountScoreBelow(s, false) == below);
    CHECK(z.CountScoreBelow(s, true) == below_eq);
  }
  ZSet copy(z);
  if (!m.empty()) CheckSame(copy, m);
  CurrentLimits() = Limits{};
}

TEST_CASE("zset encoding: a listpack matches the model") { RunModel(100000, 2000, 1); }

TEST_CASE("zset encoding: a skiplist matches the model") {
  RunModel(0, 5000, 2);
  RunModel(0, 20000, 3);
}

TEST_CASE("zset encoding: a listpack converts to skiplist past the entry limit and never back") {
  CurrentLimits().max_entries = 3;
  ZSet z(0, 0);
  z.Insert("a", 1);
  z.Insert("b", 2);
  z.Insert("c", 3);
  CHECK(z.IsListpack());
  z.Insert("d", 4);
  CHECK_FALSE(z.IsListpack());
  CHECK(std::string(z.EncodingName()) == "skiplist");
  z.Erase("a");
  z.Erase("b");
  CHECK_FALSE(z.IsListpack());
  CurrentLimits() = Limits{};
}

TEST_CASE("zset encoding: a long member converts at once") {
  ZSet z(0, 0);
  z.Insert(std::string(64, 'x'), 1);
  CHECK(z.IsListpack());
  z.Insert(std::string(65, 'y'), 2);
  CHECK_FALSE(z.IsListpack());
}

TEST_CASE("zset encoding: listpack members of 255 bytes and more walk both ways") {
  CurrentLimits().max_value = 1000;
  ZSet z(0, 0);
  Model m;
  for (int i = 0; i < 20; ++i) {
    const std::string member(static_cast<size_t>(250 + i), static_cast<char>('a' + i));
    z.Insert(member, i % 3);
    m.insert({i % 3, member});
  }
  CHECK(z.IsListpack());
  CheckSame(z, m);
  CurrentLimits() = Limits{};
}

TEST_CASE("zset encoding: lex counts follow member order") {
  for (size_t limit : {size_t{128}, size_t{0}}) {
    CurrentLimits().max_entries = limit;
    ZSet z(0, 0);
    for (const char* m : {"a", "b", "c", "d"}) z.Insert(m, 0);
    CHECK(z.CountLexBelow("b", false) == 1);
    CHECK(z.CountLexBelow("b", true) == 2);
    CHECK(z.CountLexBelow("bb", false) == 2);
    CHECK(z.CountLexBelow("z", true) == 4);
  }
  CurrentLimits() = Limits{};
}

TEST_CASE("zset encoding: FromSorted picks the encoding by size") {
  std::vector<std::pair<std::string_view, double>> small = {{"a", 1}, {"b", 2}};
  CHECK(ZSet::FromSorted(small)->IsListpack());
  CurrentLimits().max_entries = 1;
  auto big = ZSet::FromSorted(small);
  CHECK_FALSE(big->IsListpack());
  double s = 0;
  CHECK(big->Score("b", &s));
  CHECK(s == 2);
  CurrentLimits() = Limits{};
}

}  // namespace
}  // namespace plinth::zset
