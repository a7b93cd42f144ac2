// The stream command handlers, one family per file: write_commands.cc (XADD, XTRIM, XDEL, XSETID),
// read_commands.cc (XRANGE, XREVRANGE, XLEN), xread_commands.cc (XREAD, XREADGROUP and blocking),
// group_commands.cc (XGROUP, XACK), pending_commands.cc (XPENDING), claim_commands.cc (XCLAIM,
// XAUTOCLAIM) and info_commands.cc (XINFO). Main thread.
#ifndef PLINTH_STREAM_COMMANDS_H
#define PLINTH_STREAM_COMMANDS_H

#include <plinth/plugin.hpp>

namespace plinth::stream {

using sdk::Call;

void XAdd(Call& c);
void XTrim(Call& c);
void XDel(Call& c);
void XSetId(Call& c);
void XRange(Call& c);
void XRevRange(Call& c);
void XLen(Call& c);
void XRead(Call& c);
void XReadGroup(Call& c);
void XGroup(Call& c);
void XAck(Call& c);
void XPending(Call& c);
void XClaim(Call& c);
void XAutoClaim(Call& c);
void XInfo(Call& c);

// Forgets a closed client's blocked XREAD ids. Init only.
bool RegisterReadListener();

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_COMMANDS_H
