// Argument and credential rules of AUTH, HELLO and CLIENT SETNAME/SETINFO (Redis 7.0): name
// validation, the HELLO grammar, and the check of a username/password pair against
// requirepass. Pure logic, no ABI types; main thread.
#ifndef PLINTH_CONNECTION_HELLO_ARGS_H
#define PLINTH_CONNECTION_HELLO_ARGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::connection {

// True when every byte is printable ASCII without space ('!'..'~'), so CLIENT LIST lines stay
// splittable. The empty string is valid (it clears the name).
bool ValidClientName(std::string_view name);

// The error text for an invalid client name.
inline constexpr std::string_view kBadClientName =
    "ERR Client names cannot contain spaces, newlines or special characters.";

// A parsed HELLO request.
struct HelloArgs {
  int64_t proto = 0;  // 0: keep the current protocol
  bool has_auth = false;
  std::string_view user, pass;
  bool has_name = false;
  std::string_view name;
};

// Parses the words after "HELLO": [protover [AUTH username password] [SETNAME clientname]].
// Returns false with Redis's reply error: "ERR Protocol version is not an integer or out of
// range", "NOPROTO unsupported protocol version", "ERR Syntax error in HELLO option 'x'", or the
// client name error.
bool ParseHello(const std::vector<std::string_view>& words, HelloArgs* out, std::string* error);

inline constexpr std::string_view kWrongPass =
    "WRONGPASS invalid username-password pair or user is disabled.";
inline constexpr std::string_view kAuthWithoutPassword =
    "ERR AUTH <password> called without any password configured for the default user. Are you "
    "sure your configuration is correct?";
inline constexpr std::string_view kHelloNoAuth =
    "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
    "AUTH <user> <pass> option can be used to authenticate the client and select the RESP "
    "protocol version at the same time";

}  // namespace plinth::connection

#endif  // PLINTH_CONNECTION_HELLO_ARGS_H
