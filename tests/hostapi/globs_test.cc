// Glob patterns: KEYS, SCAN MATCH and CONFIG GET all use Redis's matcher (stringmatchlen), in
// which only '^' negates a set ('!' is a plain member), '\' escapes the next byte, and a set
// left unterminated ("[b-") holds what it has read. CONFIG GET ignores case. Every expected
// answer below is what Debian's redis-server 7.0.15 replied to the same commands.
#include "case_support.h"

namespace plinth::hostapi {
namespace {

void SetKeys(Target& t, const std::vector<std::string>& keys) {
  for (const std::string& k : keys) REQUIRE(Run(t, {"SET", k, "1"}) == "OK");
}

// Every key SCAN MATCH pattern visits, sorted.
std::string ScanAll(Target& t, const std::string& pattern) {
  Reply all;
  all.type = ReplyType::kArray;
  std::string cursor = "0";
  for (int round = 0; round < 100; ++round) {
    Reply r = t.Call({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    if (r.type != ReplyType::kArray || r.elements.size() != 2) return r.ToString();
    for (const Reply& k : r.elements[1].elements) all.elements.push_back(k);
    cursor = r.elements[0].str;
    if (cursor == "0") break;
  }
  return SortedStrings(all);
}

}  // namespace

// Redis 7.0: KEYS [!m]axclients -> !axclients maxclients; KEYS [^m]axclients -> !axclients
// naxclients.
HOSTAPI_CASE("globs: KEYS takes ! in a set as a member and ^ as negation") {
  T t;
  SetKeys(t, {"maxclients", "naxclients", "!axclients"});
  CHECK(SortedStrings(t.Call({"KEYS", "[!m]axclients"})) == "!axclients maxclients");
  CHECK(SortedStrings(t.Call({"KEYS", "[^m]axclients"})) == "!axclients naxclients");
}

// Redis 7.0: KEYS a\*b -> a*b only; KEYS a*b -> a*b ab axb.
HOSTAPI_CASE("globs: KEYS with a backslash matches the next byte literally") {
  T t;
  SetKeys(t, {"a*b", "axb", "ab"});
  CHECK(SortedStrings(t.Call({"KEYS", "a\\*b"})) == "a*b");
  CHECK(SortedStrings(t.Call({"KEYS", "a*b"})) == "a*b ab axb");
}

// Redis 7.0: KEYS a[b- -> a- ab; KEYS x[ -> (empty array) with a key "x[" present.
HOSTAPI_CASE("globs: KEYS with an unterminated set matches what the set has read") {
  T t;
  SetKeys(t, {"ab", "a-", "axb", "x["});
  CHECK(SortedStrings(t.Call({"KEYS", "a[b-"})) == "a- ab");
  CHECK(SortedStrings(t.Call({"KEYS", "x["})) == "");
}

HOSTAPI_CASE("globs: SCAN MATCH uses the same matcher as KEYS") {
  T t;
  SetKeys(t, {"maxclients", "naxclients", "!axclients", "a*b", "axb", "ab", "a-"});
  CHECK(ScanAll(t, "[!m]axclients") == "!axclients maxclients");
  CHECK(ScanAll(t, "a\\*b") == "a*b");
  CHECK(ScanAll(t, "a[b-") == "a- ab");
}

// Redis 7.0: CONFIG GET [!m]axclients -> maxclients 10000 ('!' is a member of the set). The
// same with an option of the core, which both hosts have.
HOSTAPI_CASE("globs: CONFIG GET [!d]atabases finds databases") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "[!d]atabases"}) == "1) \"databases\"\n2) \"16\"");
}

// Redis 7.0: [!p]roto-max-bulk-len -> proto-max-bulk-len 536870912; [^p]... -> (empty array).
HOSTAPI_CASE("globs: CONFIG GET takes ! in a set as a member and ^ as negation") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "[!p]roto-max-bulk-len"}) ==
        "1) \"proto-max-bulk-len\"\n2) \"536870912\"");
  CHECK(Run(t, {"CONFIG", "GET", "[^p]roto-max-bulk-len"}) == "(empty array)");
}

// Redis 7.0: proto\-max-bulk-le? -> proto-max-bulk-len 536870912; proto-max-bulk-le\? ->
// (empty array), the escaped '?' matching only itself.
HOSTAPI_CASE("globs: CONFIG GET with a backslash matches the next byte literally") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "proto\\-max-bulk-le?"}) ==
        "1) \"proto-max-bulk-len\"\n2) \"536870912\"");
  CHECK(Run(t, {"CONFIG", "GET", "proto-max-bulk-le\\?"}) == "(empty array)");
}

// Redis 7.0: proto-max-bulk-le[n- -> proto-max-bulk-len 536870912.
HOSTAPI_CASE("globs: CONFIG GET with an unterminated set matches what the set has read") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "proto-max-bulk-le[n-"}) ==
        "1) \"proto-max-bulk-len\"\n2) \"536870912\"");
}

// Redis 7.0: PROTO-MAX-BULK-* -> proto-max-bulk-len 536870912 (the option's own name).
HOSTAPI_CASE("globs: CONFIG GET patterns ignore case") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "PROTO-MAX-BULK-*"}) ==
        "1) \"proto-max-bulk-len\"\n2) \"536870912\"");
}

// Redis 7.0 looks a name without glob characters up directly and answers under the name as
// the client wrote it: CONFIG GET PROTO-MAX-BULK-LEN -> PROTO-MAX-BULK-LEN 536870912.
HOSTAPI_CASE("globs: CONFIG GET of an exact name in capitals answers under that name") {
  T t;
  CHECK(Run(t, {"CONFIG", "GET", "PROTO-MAX-BULK-LEN"}) ==
        "1) \"PROTO-MAX-BULK-LEN\"\n2) \"536870912\"");
}

}  // namespace plinth::hostapi
