// Command handlers of the keys plugin, one family per .cc file, registered by plugin.cc.
// All run on the main thread through the host API (plinth::sdk::Call).
#ifndef PLINTH_KEYS_HANDLERS_H
#define PLINTH_KEYS_HANDLERS_H

#include <initializer_list>
#include <plinth/plugin.hpp>
#include <string_view>
#include <vector>

namespace plinth::keys {

using sdk::Call;

// Arguments from index "from" to the end, borrowed for the handler's duration.
std::vector<std::string_view> ArgsFrom(const Call& c, int from);

// Appends "command args..." to the propagation stream in place of the verbatim command.
void Replicate(const Call& c, const char* command, std::initializer_list<std::string_view> args);

// Marks the call as having changed nothing (suppresses verbatim propagation).
void NoPropagate(const Call& c);

// Raises the generic keyspace event (PLINTH_NOTIFY_GENERIC) event on key in the call's
// database ("del", "expire", "rename_from", ...), as Redis 7.0's generic commands do.
void NotifyGeneric(const Call& c, const char* event, std::string_view key);
// The same in database db: MOVE's "move_to" and COPY ... DB's "copy_to" happen in another
// database than the call's. The call's database is selected back before it returns.
void NotifyGenericInDb(const Call& c, int32_t db, const char* event, std::string_view key);

// key_commands.cc
void Del(Call& c);
void Unlink(Call& c);
void Exists(Call& c);
void Type(Call& c);
void Touch(Call& c);
void Rename(Call& c);
void RenameNx(Call& c);
void Copy(Call& c);
void Move(Call& c);
void SwapDb(Call& c);

// expire_commands.cc
void Expire(Call& c);
void PExpire(Call& c);
void ExpireAt(Call& c);
void PExpireAt(Call& c);
void ExpireTime(Call& c);
void PExpireTime(Call& c);
void Ttl(Call& c);
void PTtl(Call& c);
void Persist(Call& c);

// scan_commands.cc
void Keys(Call& c);
void Scan(Call& c);
void RandomKey(Call& c);
void DbSize(Call& c);
void FlushDb(Call& c);
void FlushAll(Call& c);

// object_commands.cc
// A help reply: an array of simple strings.
void ReplyHelp(const Call& c, std::initializer_list<std::string_view> lines);
void Object(Call& c);
void Memory(Call& c);

}  // namespace plinth::keys

#endif  // PLINTH_KEYS_HANDLERS_H
