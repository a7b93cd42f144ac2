// Container commands XGROUP and XINFO (see container.h).
#include "stream/container.h"

#include <plinth/text.hpp>
#include <string>

namespace plinth::stream {

int FindSubcommand(const sdk::Call& c, const char* container,
                   std::initializer_list<Subcommand> subs) {
  std::string error;
  const int i =
      common::FindSubcommand(container, subs.begin(), subs.size(), c.arg(1), c.argc(), &error);
  if (i < 0) c.Error(error);
  return i;
}

void SubcommandSyntaxError(const sdk::Call& c, const char* container_upper) {
  c.Error(common::SubcommandSyntaxError(container_upper, c.arg(1)));
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
