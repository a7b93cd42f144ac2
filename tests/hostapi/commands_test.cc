// Command lookup errors, in Redis's words: an unknown command names itself and quotes its
// first arguments, each cut so the list stays near 128 bytes; a wrong argument count names the
// command. Texts confirmed with Debian's redis-server 7.0.15.
#include "case_support.h"

namespace plinth::hostapi {

// Redis 7.0: nosuch x y -> "ERR unknown command 'nosuch', with args beginning with: 'x' 'y' ".
HOSTAPI_CASE("unknown command: Redis's text quotes the arguments") {
  T t;
  CHECK(Run(t, {"nosuch", "x", "y"}) ==
        "(error) ERR unknown command 'nosuch', with args beginning with: 'x' 'y' ");
  CHECK(Run(t, {"nosuch"}) == "(error) ERR unknown command 'nosuch', with args beginning with: ");
}

// Redis 7.0, a 200-byte name and two 200-byte arguments: the name cut to 128 bytes, the first
// argument cut to 128, and no second argument.
HOSTAPI_CASE("unknown command: a long name and long arguments are cut at 128 bytes") {
  T t;
  const std::string n(200, 'n'), a(200, 'a'), b(200, 'b');
  CHECK(Run(t, {n, a, b}) == "(error) ERR unknown command '" + std::string(128, 'n') +
                                 "', with args beginning with: '" + std::string(128, 'a') + "' ");
}

// Redis 7.0, arguments of 100 and 100 bytes then "c": 'a'x100 then 'b'x25 (128 less the 103
// bytes already listed), and "c" is not reached.
HOSTAPI_CASE("unknown command: each argument is cut to what is left of 128 bytes") {
  T t;
  CHECK(Run(t, {"nosuch", std::string(100, 'a'), std::string(100, 'b'), "c"}) ==
        "(error) ERR unknown command 'nosuch', with args beginning with: '" +
            std::string(100, 'a') + "' '" + std::string(25, 'b') + "' ");
}

// Redis 7.0: GET -> "ERR wrong number of arguments for 'get' command".
HOSTAPI_CASE("agreement: a wrong number of arguments gets Redis's text") {
  T t;
  CHECK(Run(t, {"GET"}) == "(error) ERR wrong number of arguments for 'get' command");
  CHECK(Run(t, {"probe.stream", "extra"}) ==
        "(error) ERR wrong number of arguments for 'probe.stream' command");
}

}  // namespace plinth::hostapi
