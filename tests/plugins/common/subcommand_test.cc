// Container-command dispatch: lookups, arity errors and unknown-subcommand texts.
#include "common/subcommand.h"

#include <doctest/doctest.h>

#include <string>

using plinth::common::ErrorArg;
using plinth::common::FindSubcommand;
using plinth::common::SubcommandDef;

namespace {
constexpr SubcommandDef kDefs[] = {{"encoding", 3}, {"help", 2}, {"list", -2}};
}

TEST_CASE("subcommand: finds a subcommand in any case") {
  std::string err;
  CHECK(FindSubcommand("object", kDefs, "ENCODING", 3, &err) == 0);
  CHECK(FindSubcommand("object", kDefs, "Help", 2, &err) == 1);
  CHECK(FindSubcommand("object", kDefs, "list", 7, &err) == 2);
}

TEST_CASE("subcommand: a wrong argument count names container|sub in lower case") {
  std::string err;
  CHECK(FindSubcommand("object", kDefs, "ENCODING", 4, &err) == -1);
  CHECK(err == "ERR wrong number of arguments for 'object|encoding' command");
  CHECK(FindSubcommand("object", kDefs, "list", 1, &err) == -1);
  CHECK(err == "ERR wrong number of arguments for 'object|list' command");
}

TEST_CASE("subcommand: an unknown subcommand is quoted as typed, container upper-cased") {
  std::string err;
  CHECK(FindSubcommand("client", kDefs, "FoO", 2, &err) == -1);
  CHECK(err == "ERR unknown subcommand 'FoO'. Try CLIENT HELP.");
}

TEST_CASE("subcommand: error arguments lose line breaks and are cut at 128 bytes") {
  CHECK(ErrorArg("a\r\nb") == "a  b");
  CHECK(ErrorArg(std::string(300, 'x')).size() == 128);
  std::string err;
  FindSubcommand("client", kDefs, "x\ny", 2, &err);
  CHECK(err == "ERR unknown subcommand 'x y'. Try CLIENT HELP.");
}
