// Redis 7.0's container-command behaviour for XGROUP and XINFO, which Plinth registers as one
// command each: subcommand lookup and arity errors, and HELP replies. Main thread.
#ifndef PLINTH_STREAM_CONTAINER_H
#define PLINTH_STREAM_CONTAINER_H

#include <initializer_list>
#include <plinth/plugin.hpp>
#include <string_view>

#include "common/subcommand.h"  // plugins/common

namespace plinth::stream {

using Subcommand = common::SubcommandDef;  // lower-case name, arity counting the container

// Finds argv[1] in subs (common::FindSubcommand) and checks its arity. Returns its index, or
// -1 after replying "unknown subcommand" or the wrong-arity error ("<container>|<sub>").
int FindSubcommand(const sdk::Call& c, const char* container,
                   std::initializer_list<Subcommand> subs);
// Replies "unknown subcommand or wrong number of arguments for '<argv[1]>'. Try <C> HELP.".
void SubcommandSyntaxError(const sdk::Call& c, const char* container_upper);
// Replies HELP: the header line, then lines, then the HELP line, as status strings.
void ReplyHelp(const sdk::Call& c, const char* container_upper,
               std::initializer_list<const char*> lines);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_CONTAINER_H
