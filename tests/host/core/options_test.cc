// Option registry: typed parsing, configured values, runtime mutability, rollback.
#include "host/core/options.h"

#include <doctest/doctest.h>

using plinth::host::Options;

namespace {
plinth_option_spec_t Spec(const char* name, uint32_t type, const char* def, uint32_t flags = 0) {
  plinth_option_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.type = type;
  s.flags = flags;
  s.default_value = def;
  s.min = 0;
  s.max = 1000000000000LL;
  return s;
}
}  // namespace

TEST_CASE("options: memory values accept Redis's units") {
  Options o;
  std::string err;
  auto spec = Spec("mem", PLINTH_OPT_MEMORY, "100", PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE);
  REQUIRE(o.Register(&spec, "host", &err));
  CHECK(o.Find("mem")->int_value == 100);
  for (auto [text, bytes] :
       {std::pair<const char*, int64_t>{"1k", 1000}, {"1kb", 1024}, {"5MB", 5 * 1024 * 1024}}) {
    CAPTURE(text);
    REQUIRE(o.Set("mem", text, true, &err));
    CHECK(o.Find("mem")->int_value == bytes);
    CHECK(o.Find("mem")->value == std::to_string(bytes));
  }
  CHECK_FALSE(o.Set("mem", "5 mb", true, &err));
  CHECK(err == "argument must be a memory value");
  CHECK_FALSE(o.Set("mem", "mb", true, &err));
  CHECK_FALSE(o.Set("mem", "99999999999gb", true, &err));
}

TEST_CASE("options: a plugin option is prefixed unless it asks for a global name") {
  Options o;
  std::string err;
  auto a = Spec("backlog", PLINTH_OPT_INT, "511");
  auto b = Spec("port", PLINTH_OPT_INT, "6379", PLINTH_OPT_GLOBAL_NAME);
  REQUIRE(o.Register(&a, "tcp", &err));
  REQUIRE(o.Register(&b, "tcp", &err));
  CHECK(o.Find("tcp.backlog"));
  CHECK(o.Find("port")->int_value == 6379);
  CHECK_FALSE(o.Register(&b, "other", &err));
  CHECK(err.find("already registered") != std::string::npos);
}

TEST_CASE("options: configured values apply at registration, and bad ones refuse it") {
  Options o;
  std::string err;
  o.SetPending("port", "7000");
  o.SetPending("backlog", "12", "tcp");
  o.SetPending("flag", "maybe");
  auto port = Spec("port", PLINTH_OPT_INT, "6379", PLINTH_OPT_GLOBAL_NAME);
  auto backlog = Spec("backlog", PLINTH_OPT_INT, "511");
  auto flag = Spec("flag", PLINTH_OPT_BOOL, "no", PLINTH_OPT_GLOBAL_NAME);
  REQUIRE(o.Register(&port, "tcp", &err));
  REQUIRE(o.Register(&backlog, "tcp", &err));
  CHECK(o.Find("port")->int_value == 7000);
  CHECK(o.Find("tcp.backlog")->int_value == 12);
  CHECK_FALSE(o.Register(&flag, "x", &err));
  CHECK(err == "option 'flag': argument must be 'yes' or 'no'");
  CHECK(o.Find("flag") == nullptr);
  o.SetPending("nobody", "1");
  auto unused = o.UnusedPending();
  CHECK(std::find(unused.begin(), unused.end(), "nobody") != unused.end());
}

TEST_CASE("options: CONFIG SET refuses immutable options and out-of-range values") {
  Options o;
  std::string err;
  auto fixed = Spec("databases", PLINTH_OPT_INT, "16", PLINTH_OPT_GLOBAL_NAME);
  auto mut = Spec("timeout", PLINTH_OPT_INT, "0", PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE);
  mut.max = 100;
  REQUIRE(o.Register(&fixed, "host", &err));
  REQUIRE(o.Register(&mut, "host", &err));
  CHECK_FALSE(o.Set("databases", "4", true, &err));
  CHECK(err == "can't set immutable config");
  CHECK_FALSE(o.Set("timeout", "101", true, &err));
  CHECK(o.Set("TIMEOUT", "5", true, &err));
  CHECK(o.Find("timeout")->int_value == 5);
  o.UnregisterOwner("host");
  CHECK(o.Find("timeout") == nullptr);
}

TEST_CASE("options: enums are matched case-insensitively and report their index") {
  Options o;
  std::string err;
  auto e = Spec("loglevel", PLINTH_OPT_ENUM, "notice", PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE);
  e.enum_values = "debug|verbose|notice|warning";
  REQUIRE(o.Register(&e, "host", &err));
  CHECK(o.Find("loglevel")->int_value == 2);
  CHECK(o.Set("loglevel", "WARNING", true, &err));
  CHECK(o.Find("loglevel")->value == "warning");
  CHECK_FALSE(o.Set("loglevel", "loud", true, &err));
}

TEST_CASE("options: a plugin takes over a host placeholder and gets its configured value") {
  Options o;
  std::string err;
  o.SetPending("appendonly", "yes");
  auto holder = Spec("appendonly", PLINTH_OPT_BOOL, "no",
                     PLINTH_OPT_GLOBAL_NAME | plinth::host::kOptPlaceholder);
  holder.apply = [](void*, const char*, const char* v, size_t n, int64_t, char*, size_t) {
    return std::string_view(v, n) == "no" ? PLINTH_OK : PLINTH_ERR;
  };
  REQUIRE(o.Register(&holder, "host", &err));          // leaves "yes" to the real plugin
  const plinth_option* handle = o.Find("appendonly");  // as option_find gives it
  CHECK(o.Find("appendonly")->value == "no");
  CHECK(o.UnusedPending().size() == 1);
  std::string why;
  CHECK_FALSE(o.Set("appendonly", "yes", false, &why));
  auto real = Spec("appendonly", PLINTH_OPT_BOOL, "no", PLINTH_OPT_GLOBAL_NAME);
  REQUIRE(o.Register(&real, "aof", &err));
  CHECK(o.Find("appendonly")->owner == "aof");
  CHECK(o.Find("appendonly")->int_value == 1);
  CHECK(o.Find("appendonly") == handle);  // a handle found before the takeover still reads it
  CHECK(handle->int_value == 1);
  CHECK_FALSE(o.Register(&real, "other", &err));
}

TEST_CASE("options: a protected option is set from the config only, unless the caller may") {
  Options o;
  std::string err;
  auto dir = Spec("dir", PLINTH_OPT_STRING, ".",
                  PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE | PLINTH_OPT_PROTECTED);
  auto fixed =
      Spec("logfile", PLINTH_OPT_STRING, "", PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_PROTECTED);
  o.SetPending("dir", "/var/lib/plinth");
  REQUIRE(o.Register(&dir, "rdb", &err));
  REQUIRE(o.Register(&fixed, "host", &err));
  CHECK(o.Find("dir")->value == "/var/lib/plinth");  // the config file may
  CHECK(o.Set("dir", "/srv", false, &err));          // and so may the host itself
  CHECK_FALSE(o.Set("dir", "/tmp", true, &err));     // CONFIG SET by a client may not
  CHECK(err == "can't set protected config");
  CHECK(o.Find("dir")->value == "/srv");
  CHECK(o.Set("DIR", "/tmp", true, &err, true));  // enable-protected-configs allows this one
  CHECK(o.Find("dir")->value == "/tmp");
  // Immutable and protected: Redis says immutable.
  CHECK_FALSE(o.Set("logfile", "/tmp/x", true, &err, true));
  CHECK(err == "can't set immutable config");
}

TEST_CASE("options: bits a plugin sets that no ABI minor defines change nothing") {
  Options o;
  std::string err;
  o.SetPending("p.loose", "7");
  // 0x100: undefined; 0x80000000: the host-only placeholder bit, which a plugin cannot claim.
  auto loose = Spec("loose", PLINTH_OPT_INT, "1", PLINTH_OPT_MUTABLE | 0x100u | 0x80000000u);
  REQUIRE(o.Register(&loose, "p", &err));
  CHECK(o.Find("p.loose")->int_value == 7);  // a placeholder would have left it pending
  CHECK(o.Find("p.loose")->flags == PLINTH_OPT_MUTABLE);
  CHECK(o.UnusedPending().empty());
  CHECK(o.Set("p.loose", "9", true, &err));
  CHECK(o.Find("p.loose")->int_value == 9);
}
