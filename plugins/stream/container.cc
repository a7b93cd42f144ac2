// Container-command emulation (see subcommand.h).
#include "subcommand.h"

#include <plinth/text.hpp>
#include <string>

namespace plinth::stream {

int FindSubcommand(const sdk::Call& c, const char* container,
                   std::initializer_list<Subcommand> subs) {
  const std::string_view sub = c.arg(1);
  int idx = 0;
  for (const Subcommand& s : subs) {
    if (text::EqualsNoCase(sub, s.name)) {
      const int argc = c.argc();
      if ((s.arity > 0 && argc != s.arity) || (s.arity < 0 && argc < -s.arity)) {
        c.Error("ERR wrong number of arguments for '" + std::string(container) + "|" +
                text::ToLower(s.name) + "' command");
        return -1;
      }
      return idx;
    }
    ++idx;
  }
  std::string upper = text::ToUpper(container);
  c.Error("ERR unknown subcommand '" + std::string(sub.substr(0, 128)) + "'. Try " + upper +
          " HELP.");
  return -1;
}

void SubcommandSyntaxError(const sdk::Call& c, const char* container_upper) {
  c.Error("ERR unknown subcommand or wrong number of arguments for '" +
          std::string(c.arg(1).substr(0, 128)) + "'. Try " + container_upper + " HELP.");
}

void ReplyHelp(const sdk::Call& c, const char* container_upper,
               std::initializer_list<const char*> lines) {
  c.Array(static_cast<int64_t>(lines.size() + 3));
  c.Simple(std::string(container_upper) +
           " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (const char* l : lines) c.Simple(l);
  c.Simple("HELP");
  c.Simple("    Prints this help.");
}

}  // namespace plinth::stream
