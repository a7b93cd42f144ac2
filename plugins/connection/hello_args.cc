// HELLO's arguments and client names.
#include "connection/hello_args.h"

#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::connection {

using text::EqualsNoCase;

bool ValidClientName(std::string_view name) {
  for (char c : name)
    if (c < '!' || c > '~') return false;
  return true;
}

bool ParseHello(const std::vector<std::string_view>& words, HelloArgs* out, std::string* error) {
  size_t i = 0;
  if (!words.empty()) {
    if (!text::ParseInt64(words[0], &out->proto)) {
      *error = "ERR Protocol version is not an integer or out of range";
      return false;
    }
    if (out->proto < 2 || out->proto > 3) {
      *error = "NOPROTO unsupported protocol version";
      return false;
    }
    i = 1;
  }
  for (; i < words.size(); ++i) {
    size_t more = words.size() - 1 - i;
    if (EqualsNoCase(words[i], "auth") && more >= 2) {
      out->has_auth = true;
      out->user = words[i + 1];
      out->pass = words[i + 2];
      i += 2;
    } else if (EqualsNoCase(words[i], "setname") && more >= 1) {
      if (!ValidClientName(words[i + 1])) {
        *error = kBadClientName;
        return false;
      }
      out->has_name = true;
      out->name = words[i + 1];
      i += 1;
    } else {
      *error = "ERR Syntax error in HELLO option '" +
               common::ErrorArg(words[i], std::string_view::npos) + "'";
      return false;
    }
  }
  return true;
}

}  // namespace plinth::connection
