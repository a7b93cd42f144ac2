// Registration of the sorted-set command families; each lives in its own file:
// write_commands.cc (ZADD, ZINCRBY, ZREM, ZREMRANGEBY*), read_commands.cc (ZSCORE, ZCARD,
// ZCOUNT, ZRANK, ZRANDMEMBER, ...), range_commands.cc (ZRANGE and its variants, ZRANGESTORE),
// pop_commands.cc (ZPOPMIN/MAX, ZMPOP and the blocking forms), setop_commands.cc (ZUNION,
// ZINTER, ZDIFF, their STORE forms, ZINTERCARD) and scan_commands.cc (ZSCAN). Init only.
#ifndef PLINTH_ZSET_COMMANDS_H
#define PLINTH_ZSET_COMMANDS_H

namespace plinth::zset {

// Each registers its family; false when the host refused a command.
bool RegisterWriteCommands();
bool RegisterReadCommands();
bool RegisterRangeCommands();
bool RegisterPopCommands();
bool RegisterSetOpCommands();
bool RegisterScanCommand();

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_COMMANDS_H
