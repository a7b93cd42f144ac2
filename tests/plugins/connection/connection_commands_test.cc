// PING, ECHO, SELECT, AUTH, HELLO, QUIT, RESET and CLIENT through the fake host (its one client
// has id 0 and address fake:0). Reply texts were checked against Redis 7.0.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace {

struct Fixture {
  explicit Fixture(const char* requirepass = nullptr) {
    if (requirepass) REQUIRE(host.SetOption("requirepass", requirepass));
    REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "connection.so"), host.LoadError());
  }
  std::string Run(const std::vector<std::string>& argv) { return host.Call(argv).ToString(); }
  plinth::fakehost::FakeHost host;
};

}  // namespace

TEST_CASE("connection commands: PING, ECHO and SELECT") {
  Fixture f;
  CHECK(f.Run({"ping"}) == "PONG");
  CHECK(f.Run({"ping", "hi"}) == "\"hi\"");
  CHECK(f.Run({"ping", "a", "b"}) == "(error) ERR wrong number of arguments for 'ping' command");
  CHECK(f.Run({"echo", "x y"}) == "\"x y\"");
  CHECK(f.Run({"select", "3"}) == "OK");
  CHECK(f.host.CurrentDb() == 3);
  CHECK(f.Run({"select", "16"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"select", "-1"}) == "(error) ERR DB index is out of range");
  CHECK(f.Run({"select", "01"}) == "(error) ERR value is not an integer or out of range");
  CHECK(f.host.CurrentDb() == 3);
}

TEST_CASE("connection commands: AUTH without a configured password explains itself") {
  Fixture f;
  CHECK(f.Run({"auth", "x"}) ==
        "(error) ERR AUTH <password> called without any password configured for the default "
        "user. Are you sure your configuration is correct?");
  CHECK(f.Run({"auth", "default", "anything"}) == "OK");
  CHECK(f.Run({"auth", "alice", "x"}) ==
        "(error) WRONGPASS invalid username-password pair or user is disabled.");
  CHECK(f.Run({"auth", "a", "b", "c"}) == "(error) ERR syntax error");
}

TEST_CASE("connection commands: AUTH checks requirepass and authenticates the client") {
  Fixture f("s3cret");
  f.host.SetAuthenticated(false);
  CHECK(f.Run({"echo", "x"}) == "(error) NOAUTH Authentication required.");
  CHECK(f.Run({"auth", "wrong"}) ==
        "(error) WRONGPASS invalid username-password pair or user is disabled.");
  CHECK(f.Run({"auth", "s3cret"}) == "OK");
  CHECK(f.Run({"echo", "x"}) == "\"x\"");
  f.host.SetAuthenticated(false);
  CHECK(f.Run({"auth", "default", "s3cret"}) == "OK");
}

TEST_CASE("connection commands: HELLO switches protocol and replies with the server map") {
  Fixture f;
  plinth::fakehost::Reply r = f.host.Call({"hello", "3", "setname", "app"});
  REQUIRE(r.type == plinth::fakehost::ReplyType::kMap);
  REQUIRE(r.elements.size() == 14);
  CHECK(r.elements[0].str == "server");
  CHECK(r.elements[1].str == "redis");
  CHECK(r.elements[3].str == "7.0.15");
  CHECK(r.elements[4].str == "proto");
  CHECK(r.elements[5].integer == 3);
  CHECK(r.elements[9].str == "standalone");
  CHECK(r.elements[11].str == "master");
  CHECK(r.elements[13].elements.empty());
  CHECK(f.host.Protocol() == 3);
  CHECK(f.Run({"client", "getname"}) == "\"app\"");
  CHECK(f.host.Call({"hello"}).elements[5].integer == 3);
  CHECK(f.Run({"hello", "4"}) == "(error) NOPROTO unsupported protocol version");
  CHECK(f.Run({"hello", "2", "foo"}) == "(error) ERR Syntax error in HELLO option 'foo'");
  CHECK(f.host.Protocol() == 3);
}

TEST_CASE("connection commands: HELLO needs authentication or its AUTH option") {
  Fixture f("pw");
  f.host.SetAuthenticated(false);
  // Redis 7.0's text (7.2 added "<proto>" after HELLO).
  CHECK(f.Run({"hello", "3"}) ==
        "(error) NOAUTH HELLO must be called with the client already authenticated, otherwise "
        "the HELLO AUTH <user> <pass> option can be used to authenticate the client and select "
        "the RESP protocol version at the same time");
  CHECK(f.host.Protocol() == 2);
  CHECK(f.Run({"hello", "3", "auth", "default", "bad"}) ==
        "(error) WRONGPASS invalid username-password pair or user is disabled.");
  CHECK(f.host.Call({"hello", "3", "auth", "default", "pw"}).type ==
        plinth::fakehost::ReplyType::kMap);
  CHECK(f.host.Protocol() == 3);
}

TEST_CASE("connection commands: RESET restores db 0, RESP2, no name and no auth") {
  Fixture f("pw");
  f.Run({"select", "5"});
  f.Run({"hello", "3", "setname", "x"});
  CHECK(f.Run({"reset"}) == "RESET");
  CHECK(f.host.CurrentDb() == 0);
  CHECK(f.host.Protocol() == 2);
  CHECK(f.Run({"client", "getname"}) == "(error) NOAUTH Authentication required.");
  CHECK(f.Run({"auth", "pw"}) == "OK");
  CHECK(f.Run({"client", "getname"}) == "(nil)");
}

TEST_CASE("connection commands: QUIT answers OK and asks the host to close") {
  Fixture f;
  CHECK(f.Run({"quit"}) == "OK");
  CHECK(f.host.CloseRequested());
}

TEST_CASE("connection commands: CLIENT SETNAME, GETNAME, ID, INFO and LIST") {
  Fixture f;
  CHECK(f.Run({"client", "getname"}) == "(nil)");
  CHECK(f.Run({"client", "setname", "a b"}) ==
        "(error) ERR Client names cannot contain spaces, newlines or special characters.");
  CHECK(f.Run({"client", "setname", "web"}) == "OK");
  CHECK(f.Run({"client", "getname"}) == "\"web\"");
  CHECK(f.Run({"client", "setname", ""}) == "OK");
  CHECK(f.Run({"client", "getname"}) == "(nil)");
  CHECK(f.Run({"client", "id"}) == "(integer) 1");
  CHECK(f.Run({"client", "setinfo", "lib-name", "redis-py"}) == "OK");
  CHECK(f.Run({"client", "setinfo", "lib-ver", "a b"}) ==
        "(error) ERR lib-ver cannot contain spaces, newlines or special characters.");
  CHECK(f.Run({"client", "setinfo", "foo", "x"}) == "(error) ERR Unrecognized option 'foo'");
  plinth::fakehost::Reply list = f.host.Call({"client", "list"});
  CHECK(list.type == plinth::fakehost::ReplyType::kVerbatim);
  CHECK(list.format == "txt");
  CHECK(list.str.find("lib-name=redis-py") != std::string::npos);
  CHECK(list.str.back() == '\n');
  CHECK(f.host.Call({"client", "list", "type", "normal"}).str == list.str);
  CHECK(f.host.Call({"client", "list", "type", "pubsub"}).str.empty());
  CHECK(f.Run({"client", "list", "type", "foo"}) == "(error) ERR Unknown client type 'foo'");
  CHECK(f.Run({"client", "list", "id", "x"}) == "(error) ERR Invalid client ID");
  CHECK(f.Run({"client", "list", "foo"}) == "(error) ERR syntax error");
  CHECK(f.Run({"client", "no-evict", "ON"}) == "OK");
  CHECK(f.Run({"client", "no-evict", "maybe"}) == "(error) ERR syntax error");
  CHECK(f.Run({"client", "nope"}) == "(error) ERR unknown subcommand 'nope'. Try CLIENT HELP.");
  CHECK(f.Run({"client", "id", "x"}) ==
        "(error) ERR wrong number of arguments for 'client|id' command");
}

TEST_CASE("connection commands: CLIENT KILL forms and errors") {
  Fixture f;
  CHECK(f.Run({"client", "kill", "1.2.3.4:5"}) == "(error) ERR No such client");
  CHECK(f.Run({"client", "kill", "addr", "1.2.3.4:5", "skipme", "no"}) == "(integer) 0");
  CHECK(f.Run({"client", "kill", "id", "0"}) == "(error) ERR client-id should be greater than 0");
  CHECK(f.Run({"client", "kill", "type", "foo"}) == "(error) ERR Unknown client type 'foo'");
  CHECK(f.Run({"client", "kill", "user", "bob"}) == "(error) ERR No such user 'bob'");
  CHECK(f.Run({"client", "kill", "foo", "bar"}) == "(error) ERR syntax error");
}
