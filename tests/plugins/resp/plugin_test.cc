// Loads the built resp.so into the fake host (the host's core), and drives the registered
// protocol hooks the way the server does: parse with the resume contract, encode.
#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <cstring>
#include <map>
#include <plinth/fakehost.hpp>
#include <string>

namespace {

plinth::fakehost::FakeHost& Host() {
  static plinth::fakehost::FakeHost host;
  return host;
}

// resp.so loaded the way the server loads it, with proto-max-bulk-len configured to 2mb.
const plinth_protocol_spec_t& LoadResp() {
  static const plinth_protocol_spec_t* protocol = [] {
    REQUIRE(Host().SetOption("proto-max-bulk-len", "2mb"));  // as if configured
    REQUIRE_MESSAGE(Host().LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/resp.so"),
                    Host().LoadError());
    return Host().RegisteredProtocol();
  }();
  REQUIRE(protocol != nullptr);
  return *protocol;
}

struct Request {
  int32_t status;
  size_t consumed, need;
  plinth_request_t req{sizeof(plinth_request_t), 0, nullptr, nullptr};
  char err[128] = "";
};

Request Parse(const plinth_protocol_spec_t& p, void* session, const std::string& buf,
              uint32_t flags = 0) {
  Request r;
  r.status = p.parse(p.ctx, session, buf.data(), buf.size(), flags, &r.consumed, &r.need, &r.req,
                     r.err, sizeof r.err);
  return r;
}

TEST_CASE("resp plugin: registers the protocol and proto-max-bulk-len") {
  const plinth_protocol_spec_t& p = LoadResp();
  CHECK(std::string(p.name) == "resp");
  CHECK(Host().GetOption("proto-max-bulk-len") == "2097152");  // the configured 2mb, in bytes
  plinth::fakehost::FakeHost fresh;  // without a configured value: Redis's default, 512mb
  REQUIRE(fresh.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/resp.so"));
  CHECK(fresh.GetOption("proto-max-bulk-len") == "536870912");
  std::string err;
  CHECK(fresh.SetOption("proto-max-bulk-len", "1mb", &err));  // mutable, down to 1mb
  CHECK_FALSE(fresh.SetOption("proto-max-bulk-len", "1048575", &err));
}

TEST_CASE("resp plugin: parse follows the resume contract and fills the request") {
  const plinth_protocol_spec_t& p = LoadResp();
  void* s = p.session_create(p.ctx);
  REQUIRE(s != nullptr);
  const std::string full = "*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n";
  Request r = Parse(p, s, full.substr(0, 15));
  CHECK(r.status == PLINTH_PARSE_NEED_MORE);
  CHECK(r.need == 0);
  r = Parse(p, s, full.substr(0, 18));
  CHECK(r.status == PLINTH_PARSE_NEED_MORE);
  CHECK(r.consumed == 0);
  CHECK(r.need == 22);
  r = Parse(p, s, full);
  REQUIRE(r.status == PLINTH_PARSE_OK);
  CHECK(r.consumed == full.size());
  REQUIRE(r.req.argc == 2);
  CHECK(std::string(r.req.argv[1], r.req.argvlen[1]) == "key");
  r = Parse(p, s, "\r\n");
  CHECK(r.status == PLINTH_PARSE_EMPTY);
  CHECK(r.consumed == 2);
  r = Parse(p, s, "*11\r\n", PLINTH_PARSE_UNAUTHENTICATED);
  CHECK(r.status == PLINTH_PARSE_ERROR);
  CHECK(std::string(r.err) == "Protocol error: unauthenticated multibulk length");
  p.session_destroy(p.ctx, s);
}

TEST_CASE("resp plugin: proto-max-bulk-len comes from the configured value and CONFIG SET") {
  const plinth_protocol_spec_t& p = LoadResp();
  void* s = p.session_create(p.ctx);
  CHECK(Parse(p, s, "*1\r\n$2097152\r\n").status == PLINTH_PARSE_NEED_MORE);
  p.session_destroy(p.ctx, s);
  s = p.session_create(p.ctx);
  Request r = Parse(p, s, "*1\r\n$2097153\r\n");
  CHECK(r.status == PLINTH_PARSE_ERROR);
  CHECK(std::string(r.err) == "Protocol error: invalid bulk length");
  std::string err;
  REQUIRE(Host().SetOption("proto-max-bulk-len", "3mb", &err));
  CHECK(Parse(p, s, "*1\r\n$2097153\r\n").status == PLINTH_PARSE_NEED_MORE);
  CHECK_FALSE(Host().SetOption("proto-max-bulk-len", "1k", &err));
  CHECK(err == "argument must be between 1048576 and 1125899906842624 inclusive");
  CHECK_FALSE(Host().SetOption("proto-max-bulk-len", "9223372036854775807", &err));
  p.session_destroy(p.ctx, s);
}

TEST_CASE("resp plugin: encode and frame_bulk write RESP") {
  const plinth_protocol_spec_t& p = LoadResp();
  char storage[64];
  plinth_outbuf_t out{sizeof out, storage, 0, sizeof storage, nullptr, nullptr};
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_MAP;
  item.integer = 1;
  REQUIRE(p.encode(p.ctx, 3, &item, &out) == PLINTH_OK);
  REQUIRE(p.encode(p.ctx, 2, &item, &out) == PLINTH_OK);
  CHECK(std::string(out.data, out.len) == "%1\r\n*2\r\n");
  char pre[32], suf[8];
  plinth_outbuf_t prefix{sizeof prefix, pre, 0, sizeof pre, nullptr, nullptr};
  plinth_outbuf_t suffix{sizeof suffix, suf, 0, sizeof suf, nullptr, nullptr};
  REQUIRE(p.frame_bulk(p.ctx, 2, 5, &prefix, &suffix) == PLINTH_OK);
  CHECK(std::string(prefix.data, prefix.len) == "$5\r\n");
  CHECK(std::string(suffix.data, suffix.len) == "\r\n");
}

}  // namespace
