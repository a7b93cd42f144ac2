// plinth-check-aof's logic: a valid set, a truncated last incr (reported, then fixed), and
// corruption that --fix must not touch.
#include "aof/check/checker.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "aof/aof_reader.h"
#include "aof/fs_util.h"

using namespace plinth::aof;

namespace {

struct Set {
  std::string dir;
  Set() {
    char tmpl[] = "/tmp/aof_check_XXXXXX";
    const char* d = mkdtemp(tmpl);
    REQUIRE(d != nullptr);
    dir = d;
    Write("appendonly.aof.manifest",
          "file appendonly.aof.1.base.aof seq 1 type b\n"
          "file appendonly.aof.1.incr.aof seq 1 type i\n"
          "file appendonly.aof.2.incr.aof seq 2 type i\n");
    Write("appendonly.aof.1.base.aof", Cmd({"SET", "a", "1"}));
    Write("appendonly.aof.1.incr.aof", Cmd({"SELECT", "0"}) + Cmd({"INCR", "a"}));
    Write("appendonly.aof.2.incr.aof", Cmd({"SELECT", "0"}) + Cmd({"INCR", "a"}));
  }
  static std::string Cmd(std::vector<std::string_view> argv) {
    std::string out;
    AppendCommand(&out, argv);
    return out;
  }
  void Write(const std::string& name, const std::string& data) {
    std::ofstream(JoinPath(dir, name), std::ios::binary | std::ios::trunc) << data;
  }
  std::string Manifest() const { return JoinPath(dir, "appendonly.aof.manifest"); }
};

}  // namespace

TEST_CASE("plinth-check-aof: a valid set is valid") {
  Set s;
  std::ostringstream out;
  CHECK(CheckAof(s.Manifest(), false, out) == 0);
  CHECK(out.str().find("AOF is valid") != std::string::npos);
}

TEST_CASE("plinth-check-aof: a truncated last incr is reported, then cut by --fix") {
  Set s;
  const std::string good = Set::Cmd({"SELECT", "0"});
  s.Write("appendonly.aof.2.incr.aof", good + "*2\r\n$4\r\nINCR\r\n$1\r");
  std::ostringstream out;
  CHECK(CheckAof(s.Manifest(), false, out) == 1);
  CHECK(out.str().find("truncated command at offset " + std::to_string(good.size())) !=
        std::string::npos);
  std::ostringstream fixed;
  CHECK(CheckAof(s.Manifest(), true, fixed) == 0);
  CHECK(fixed.str().find("to offset " + std::to_string(good.size())) != std::string::npos);
  CHECK(FileSize(JoinPath(s.dir, "appendonly.aof.2.incr.aof")) ==
        static_cast<int64_t>(good.size()));
  std::ostringstream again;
  CHECK(CheckAof(s.Manifest(), false, again) == 0);
}

TEST_CASE("plinth-check-aof: corruption and truncation before the last file are not fixed") {
  Set s;
  s.Write("appendonly.aof.1.incr.aof", "*1\r\n$4\r\nPIN");
  std::ostringstream out;
  CHECK(CheckAof(s.Manifest(), true, out) == 1);
  CHECK(out.str().find("not the last file") != std::string::npos);
  Set t;
  t.Write("appendonly.aof.2.incr.aof", "*1\r\n$4\r\nPINGxx");
  std::ostringstream out2;
  CHECK(CheckAof(t.Manifest(), true, out2) == 1);
  CHECK(out2.str().find("invalid CRLF after a bulk: got 'x' at offset 12") != std::string::npos);
  CHECK(FileSize(JoinPath(t.dir, "appendonly.aof.2.incr.aof")) == 14);
}

TEST_CASE("plinth-check-aof: a bad manifest and a missing file are errors") {
  Set s;
  s.Write("appendonly.aof.manifest", "file x seq 1 type q\n");
  std::ostringstream out;
  CHECK(CheckAof(s.Manifest(), false, out) == 1);
  CHECK(out.str().find("at line 1 (offset 0)") != std::string::npos);
  Set t;
  unlink(JoinPath(t.dir, "appendonly.aof.1.incr.aof").c_str());
  std::ostringstream out2;
  CHECK(CheckAof(t.Manifest(), false, out2) == 1);
}

TEST_CASE("plinth-check-aof: a single AOF file is checked as the last file") {
  Set s;
  std::ostringstream out;
  CHECK(CheckAof(JoinPath(s.dir, "appendonly.aof.1.base.aof"), false, out) == 0);
}
