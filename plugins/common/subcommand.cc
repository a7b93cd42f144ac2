// Container-command dispatch and the error texts clients parse (Redis 7.0 wording).
#include "subcommand.h"

namespace plinth::common {
namespace {

char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool ArityFits(int32_t arity, int argc) { return arity >= 0 ? argc == arity : argc >= -arity; }

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

std::string ErrorArg(std::string_view s, size_t max) {
  std::string out(s.substr(0, max));
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

int FindSubcommand(std::string_view container, const SubcommandDef* defs, size_t n,
                   std::string_view sub, int argc, std::string* error) {
  for (size_t i = 0; i < n; ++i) {
    if (!EqualsNoCase(defs[i].name, sub)) continue;
    if (ArityFits(defs[i].arity, argc)) return static_cast<int>(i);
    *error = "ERR wrong number of arguments for '";
    error->append(container).append("|").append(defs[i].name).append("' command");
    return -1;
  }
  std::string upper(container);
  for (char& c : upper) c = Upper(c);
  *error = "ERR unknown subcommand '" + ErrorArg(sub) + "'. Try " + upper + " HELP.";
  return -1;
}

}  // namespace plinth::common
