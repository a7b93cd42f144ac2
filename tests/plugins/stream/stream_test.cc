// Unit tests of the stream value: node layout and splitting, deletion, trimming, ranges, the
// radix-tree node count and copies with consumer groups.
#include "stream/stream.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace plinth::stream {
namespace {

std::vector<std::string_view> Fv(std::initializer_list<std::string_view> l) { return l; }

std::vector<StreamId> Ids(const Stream& s, bool rev = false) {
  std::vector<StreamId> out;
  s.Range(StreamId{}, StreamId::Max(), rev, 0, [&](const NodeEntry& e) {
    out.push_back(e.id);
    return true;
  });
  return out;
}

TEST_CASE("stream value: entries with the master's fields are compressed") {
  Stream s;
  s.Append({1, 1}, Fv({"a", "1", "b", "x"}));
  s.Append({1, 2}, Fv({"a", "2", "b", "y"}));
  s.Append({1, 3}, Fv({"c", "3"}));
  REQUIRE(s.nodes.size() == 1);
  std::vector<NodeEntry> e = node::Parse(s.nodes.begin()->second, {1, 1}, true);
  REQUIRE(e.size() == 3);
  CHECK(e[1].flags == kFlagSameFields);
  CHECK(e[2].flags == 0);
  CHECK(e[1].fields[1].second.Text() == "y");
  CHECK(e[2].fields[0].first.Text() == "c");
  int64_t live = 0;
  StreamId last;
  CHECK(node::Validate(s.nodes.begin()->second, {1, 1}, &live, &last));
  CHECK(live == 3);
  CHECK(last == StreamId{1, 3});
}

TEST_CASE("stream value: nodes split on stream-node-max-entries and max-bytes") {
  NodeLimits saved = CurrentLimits();
  CurrentLimits().max_entries = 2;
  Stream s;
  for (uint64_t i = 1; i <= 5; ++i) s.Append({i, 0}, Fv({"f", "v"}));
  CHECK(s.nodes.size() == 3);
  CurrentLimits().max_entries = 0;
  CurrentLimits().max_bytes = 30;
  Stream b;
  b.Append({1, 0}, Fv({"f", "0123456789"}));
  b.Append({2, 0}, Fv({"f", "0123456789"}));
  CHECK(b.nodes.size() == 2);
  CurrentLimits() = saved;
}

TEST_CASE("stream value: deletion marks entries and drops empty nodes") {
  NodeLimits saved = CurrentLimits();
  CurrentLimits().max_entries = 2;
  Stream s;
  for (uint64_t i = 1; i <= 4; ++i) s.Append({i, 0}, Fv({"f", "v"}));
  CHECK(s.Delete({2, 0}));
  CHECK_FALSE(s.Delete({2, 0}));
  CHECK_FALSE(s.Exists({2, 0}));
  CHECK(s.Delete({1, 0}));
  CHECK(s.nodes.size() == 1);
  CHECK(s.length == 2);
  CHECK(Ids(s, true) == std::vector<StreamId>{{4, 0}, {3, 0}});
  CurrentLimits() = saved;
}

TEST_CASE("stream value: exact and approximate trims") {
  NodeLimits saved = CurrentLimits();
  CurrentLimits().max_entries = 3;
  Stream s;
  for (uint64_t i = 1; i <= 9; ++i) s.Append({i, 0}, Fv({"f", "v"}));
  TrimArgs approx{TrimStrategy::kMaxLen, true, 5, {}, 0};
  CHECK(s.Trim(approx) == 3);  // only whole nodes
  CHECK(s.length == 6);
  TrimArgs exact{TrimStrategy::kMaxLen, false, 4, {}, 0};
  CHECK(s.Trim(exact) == 2);
  CHECK(s.first_id == StreamId{6, 0});
  TrimArgs minid{TrimStrategy::kMinId, false, 0, {8, 0}, 0};
  CHECK(s.Trim(minid) == 2);
  CHECK(Ids(s) == std::vector<StreamId>{{8, 0}, {9, 0}});
  TrimArgs limited{TrimStrategy::kMaxLen, true, 0, {}, 1};
  CHECK(s.Trim(limited) == 0);
  CurrentLimits() = saved;
}

TEST_CASE("stream value: the radix tree node count follows Redis's rax") {
  Stream s;
  CHECK(s.RaxNodes() == 1);
  NodeLimits saved = CurrentLimits();
  CurrentLimits().max_entries = 1;
  s.Append({1, 1}, Fv({"f", "v"}));
  CHECK(s.RaxNodes() == 2);
  s.Append({1, 2}, Fv({"f", "v"}));
  CHECK(s.RaxNodes() == 4);  // a shared prefix, a branch, two leaves
  CurrentLimits() = saved;
}

TEST_CASE("stream value: a copy owns its groups and their PELs") {
  Stream s;
  s.Append({1, 0}, Fv({"f", "v"}));
  auto g = std::make_unique<Group>(StreamId{}, 0);
  Consumer* c = g->Create("alice", 5);
  g->Deliver({1, 0}, c, 10);
  s.groups.emplace("g", std::move(g));
  Stream copy(s);
  Group* cg = copy.FindGroup("g");
  REQUIRE(cg);
  CHECK(cg->pel.at({1, 0})->consumer == cg->Find("alice"));
  CHECK(cg->Find("alice") != c);
  CHECK(cg->Ack({1, 0}));
  CHECK(s.FindGroup("g")->pel.size() == 1);
  CHECK(cg->Find("alice")->pel.empty());
}

}  // namespace
}  // namespace plinth::stream
