// INFO, TIME, CONFIG, PLUGIN/MODULE LIST and SHUTDOWN through the fake host.
#include <string>

#include "server_fixture.h"

using plinth::fakehost::FakeHost;
using plinth::fakehost::Reply;
using plinth::fakehost::ReplyType;
using plinth::server::test::Field;
using plinth::server::test::Fixture;

TEST_CASE("server commands: INFO renders sections as verbatim text, several at once") {
  Fixture f;
  Reply all = f.Call({"info"});
  CHECK(all.type == ReplyType::kVerbatim);
  CHECK(all.format == "txt");
  // The host's sections first, then the plugins' in registration order.
  CHECK(all.str.find("# Server\r\n") == 0);
  CHECK(all.str.find("\r\n\r\n# Helper\r\nhelper_field:1\r\n\r\n# Other\r\nother_field:x\r\n") !=
        std::string::npos);
  CHECK(f.Call({"info", "other"}).str == "# Other\r\nother_field:x\r\n");
  CHECK(f.Call({"info", "OTHER", "helper", "other"}).str ==
        "# Other\r\nother_field:x\r\n\r\n# Helper\r\nhelper_field:1\r\n");
  CHECK(f.Call({"info", "nosuch"}).str.empty());
}

TEST_CASE("server commands: TIME splits the clock into seconds and microseconds") {
  Fixture f;
  f.host.SetTimeMs(1700000000123);
  CHECK(f.Run({"time"}) == "1) \"1700000000\"\n2) \"123000\"");
}

TEST_CASE("server commands: CONFIG GET matches patterns and reports each option once") {
  Fixture f;
  Reply r = f.Call({"config", "get", "helper.n*", "HELPER.NUM", "helper.fixed"});
  REQUIRE(r.type == ReplyType::kMap);
  REQUIRE(r.elements.size() == 4);
  CHECK(r.elements[0].str == "helper.num");
  CHECK(r.elements[1].str == "5");
  CHECK(r.elements[2].str == "helper.fixed");
  CHECK(f.Call({"config", "get", "nothing*"}).elements.empty());
  CHECK(f.Run({"config", "get"}) ==
        "(error) ERR wrong number of arguments for 'config|get' command");
}

TEST_CASE("server commands: CONFIG SET sets several options or none") {
  Fixture f;
  CHECK(f.Run({"config", "set", "helper.num", "7", "helper.word", "b"}) == "OK");
  CHECK(f.host.GetOption("helper.num") == "7");
  CHECK(f.host.GetOption("helper.word") == "b");
  CHECK(f.Run({"config", "set", "helper.num", "9", "helper.word", "zzz"})
            .rfind("(error) ERR CONFIG SET failed (possibly related to argument 'helper.word') - ",
                   0) == 0);
  CHECK(f.host.GetOption("helper.num") == "7");  // rolled back
  CHECK(f.Run({"config", "set", "helper.fixed", "y"}) ==
        "(error) ERR CONFIG SET failed (possibly related to argument 'helper.fixed') - can't "
        "set immutable config");
  CHECK(f.Run({"config", "set", "nosuch", "1", "helper.num", "1"}) ==
        "(error) ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
  CHECK(f.Run({"config", "set", "helper.num", "1", "HELPER.NUM", "2"}) ==
        "(error) ERR CONFIG SET failed (possibly related to argument 'HELPER.NUM') - duplicate "
        "parameter");
  CHECK(f.Run({"config", "set", "helper.num", "1", "helper.word"}) ==
        "(error) ERR wrong number of arguments for 'config|set' command");
  CHECK(f.host.GetOption("helper.num") == "7");
  CHECK(f.Run({"config", "resetstat"}) == "OK");
  CHECK(f.Run({"config", "nosuch"}) == "(error) ERR unknown subcommand 'nosuch'. Try CONFIG HELP.");
}

TEST_CASE("server commands: PLUGIN LIST and MODULE LIST describe every loaded plugin") {
  Fixture f;
  Reply r = f.Call({"plugin", "list"});
  REQUIRE(r.elements.size() == 2);
  const Reply& helper = r.elements[1];
  CHECK(Field(helper, "name")->str == "helper");
  CHECK(Field(helper, "ver")->integer == 10203);
  CHECK(Field(helper, "path")->str == "helper.so");
  CHECK(Field(helper, "args")->elements.empty());
  CHECK(Field(helper, "abi")->str == "1." + std::to_string(PLINTH_TARGET_MINOR));
  CHECK(Field(helper, "version")->str == "1.2.3");
  CHECK(f.Run({"module", "list"}) == f.Run({"plugin", "list"}));
  CHECK(f.Run({"module", "load", "/x.so"}).rfind("(error) ERR MODULE load is not supported", 0) ==
        0);
  CHECK(f.Run({"module", "foo"}) == "(error) ERR unknown subcommand 'foo'. Try MODULE HELP.");
}

TEST_CASE(
    "server commands: SHUTDOWN stops the server without a reply, and ABORT has none to stop") {
  Fixture f;
  CHECK(f.Run({"shutdown", "save", "nosave"}) == "(error) ERR syntax error");
  CHECK(f.Run({"shutdown", "abort"}) == "(error) ERR No shutdown in progress.");
  CHECK_FALSE(f.host.ShutdownRequested());
  Reply r = f.Call({"shutdown", "nosave", "now"});
  CHECK(f.host.ShutdownRequested());
  CHECK(r.IsNull());  // no reply of its own, like Redis: the server closes the connection
}

TEST_CASE("server commands: CONFIG REWRITE without a config file answers as Redis") {
  Fixture f;
  CHECK(f.Run({"config", "rewrite"}) == "(error) ERR The server is running without a config file");
  CHECK(f.Run({"config", "rewrite", "now"}) ==
        "(error) ERR wrong number of arguments for 'config|rewrite' command");
  const Reply help = f.Call({"config", "help"});
  bool listed = false;
  for (const Reply& line : help.elements) listed = listed || line.str == "REWRITE";
  CHECK(listed);
}
