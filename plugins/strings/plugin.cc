// The strings plugin's descriptor: registers the Redis string and bitmap command families.
// The only file that touches the descriptor; the commands live in strings.cc, counters.cc,
// substrings.cc and bitmap_commands.cc.
#include <plinth/plugin.hpp>

#include "strings/commands.h"
#include "strings/string_values.h"

namespace {

bool Init() {
  plinth::strings::FindOptions();
  return plinth::strings::RegisterStringCommands() && plinth::strings::RegisterBitmapCommands();
}

}  // namespace

PLINTH_PLUGIN("strings", "0.1.0", "Redis string and bitmap commands (GET, SET, INCR, BITOP, ...)",
              &Init, nullptr)
