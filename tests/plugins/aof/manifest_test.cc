// The AOF manifest: Redis 7's line format, quoting, and strict refusals with line and offset.
#include "aof/manifest.h"

#include <doctest/doctest.h>

using namespace plinth::aof;

TEST_CASE("aof manifest: parses Redis 7's layout and formats it back identically") {
  const std::string text =
      "file appendonly.aof.2.base.rdb seq 2 type b\n"
      "file appendonly.aof.1.incr.aof seq 1 type h\n"
      "file appendonly.aof.3.incr.aof seq 3 type i\n"
      "file appendonly.aof.4.incr.aof seq 4 type i\n";
  Manifest m;
  std::string err;
  REQUIRE(ParseManifest(text, &m, &err));
  REQUIRE(m.base);
  CHECK(m.base->name == "appendonly.aof.2.base.rdb");
  CHECK(m.base->seq == 2);
  REQUIRE(m.incrs.size() == 2);
  CHECK(m.incrs[1].name == "appendonly.aof.4.incr.aof");
  CHECK(m.history.size() == 1);
  CHECK(m.LastIncrSeq() == 4);
  CHECK(FormatManifest(m) == text);
}

TEST_CASE("aof manifest: keys in any order, comments and unknown keys are accepted") {
  Manifest m;
  std::string err;
  REQUIRE(ParseManifest("# comment\ntype i seq 7 file a.aof future x\n", &m, &err));
  REQUIRE(m.incrs.size() == 1);
  CHECK(m.incrs[0] == ManifestFile{"a.aof", 7, FileType::kIncr});
}

TEST_CASE("aof manifest: names with spaces and odd bytes are quoted and round trip") {
  Manifest m;
  m.base = ManifestFile{"my file\".aof.1.base.aof", 1, FileType::kBase};
  m.incrs.push_back({"x\x01y\\z.aof", 1, FileType::kIncr});
  const std::string text = FormatManifest(m);
  CHECK(text.find("\"my file\\\".aof.1.base.aof\"") != std::string::npos);
  CHECK(text.find("\"x\\x01y\\\\z.aof\"") != std::string::npos);
  Manifest back;
  std::string err;
  REQUIRE(ParseManifest(text, &back, &err));
  CHECK(back == m);
  CHECK(QuoteIfNeeded("plain.aof") == "plain.aof");
}

TEST_CASE("aof manifest: refuses bad lines with the line number and byte offset") {
  Manifest m;
  std::string err;
  const std::string good = "file a.1.base.rdb seq 1 type b\n";
  struct Case {
    std::string tail;
    const char* reason;
  } cases[] = {
      {"file b seq 2\n", "invalid AOF manifest line format"},
      {"file b seq 2 type x\n", "unknown AOF file type"},
      {"file b seq -2 type i\n", "invalid AOF file sequence number"},
      {"file b seq 02 type i\n", "invalid AOF file sequence number"},
      {"file \"b seq 2 type i\n", "unbalanced quotes"},
      {"file \"b\"x seq 2 type i\n", "unbalanced quotes"},
      {"file c/d seq 2 type i\n", "invalid AOF file name"},
      {"file b seq 2 type b\n", "duplicate base"},
      {"name b seq 2 type i\n", "incomplete"},
      {"file b seq 2 type i", "ends without a newline"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.tail);
    CHECK_FALSE(ParseManifest(good + c.tail, &m, &err));
    CHECK(err.find(c.reason) != std::string::npos);
    CHECK(err.find("at line 2 (offset 31)") != std::string::npos);
  }
  CHECK_FALSE(ParseManifest("file a seq 2 type i\nfile b seq 2 type i\n", &m, &err));
  CHECK(err == "found a non-monotonic incr sequence number at line 2 (offset 20)");
  CHECK_FALSE(ParseManifest("", &m, &err));
  CHECK(err.find("empty AOF manifest") != std::string::npos);
  CHECK_FALSE(ParseManifest("# only a comment\n", &m, &err));
}

TEST_CASE("aof manifest: file names of the layout") {
  CHECK(BaseFileName("appendonly.aof", 1, true) == "appendonly.aof.1.base.rdb");
  CHECK(BaseFileName("appendonly.aof", 3, false) == "appendonly.aof.3.base.aof");
  CHECK(IncrFileName("appendonly.aof", 12) == "appendonly.aof.12.incr.aof");
  CHECK(ManifestFileName("appendonly.aof") == "appendonly.aof.manifest");
  CHECK_FALSE(IsPlainFileName("../x"));
  CHECK_FALSE(IsPlainFileName(""));
  CHECK(IsPlainFileName("appendonly.aof"));
}
