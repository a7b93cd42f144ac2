// The set plugin's command handlers and their registration. Each handler is one Redis 7.0
// command; files: basic_commands.cc (SADD, SREM, SMEMBERS, SISMEMBER, SMISMEMBER, SCARD, SMOVE),
// random_commands.cc (SPOP, SRANDMEMBER), algebra_commands.cc (SINTER, SINTERCARD, SUNION, SDIFF
// and the STORE forms), scan_commands.cc (SSCAN). THREAD: main.
#ifndef PLINTH_SET_COMMANDS_H
#define PLINTH_SET_COMMANDS_H

#include <plinth/plugin.hpp>

namespace plinth::set {

using sdk::Call;

void SAdd(Call& c);
void SRem(Call& c);
void SMembers(Call& c);
void SIsMember(Call& c);
void SMIsMember(Call& c);
void SCard(Call& c);
void SMove(Call& c);
void SPop(Call& c);
void SRandMember(Call& c);
void SInter(Call& c);
void SInterCard(Call& c);
void SUnion(Call& c);
void SDiff(Call& c);
void SInterStore(Call& c);
void SUnionStore(Call& c);
void SDiffStore(Call& c);
void SScan(Call& c);

}  // namespace plinth::set

#endif  // PLINTH_SET_COMMANDS_H
