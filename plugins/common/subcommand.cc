// Container-command dispatch and the error texts clients parse (Redis 7.0 wording).
#include "common/subcommand.h"

#include <algorithm>
#include <plinth/errors.hpp>
#include <plinth/text.hpp>

namespace plinth::common {

bool ArityFits(int32_t arity, int argc) { return arity >= 0 ? argc == arity : argc >= -arity; }

std::string SubcommandSyntaxError(std::string_view container, std::string_view sub) {
  return "ERR unknown subcommand or wrong number of arguments for '" + ErrorArg(sub) + "'. Try " +
         text::ToUpper(container) + " HELP.";
}

std::string ErrorArg(std::string_view s, size_t max) {
  std::string out(s.substr(0, std::min(max, s.find('\0'))));  // Redis quotes a C string
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

int FindSubcommand(std::string_view container, const SubcommandDef* defs, size_t n,
                   std::string_view sub, int argc, std::string* error) {
  for (size_t i = 0; i < n; ++i) {
    if (!text::EqualsNoCase(defs[i].name, sub)) continue;
    if (ArityFits(defs[i].arity, argc)) return static_cast<int>(i);
    *error = errors::kWrongArgumentsPrefix;
    error->append(container).append("|").append(defs[i].name).append("' command");
    return -1;
  }
  *error =
      "ERR unknown subcommand '" + ErrorArg(sub) + "'. Try " + text::ToUpper(container) + " HELP.";
  return -1;
}

}  // namespace plinth::common
