// The commands an AOF-format base file (aof-use-rdb-preamble no) holds for each key: SET for a
// string, RPUSH / SADD / HSET / ZADD in batches of kItemsPerCommand built from a collection's
// plain RDB form (captured from value_rdb_save), then PEXPIREAT for a key with a TTL. Pure C++
// over captured data; any thread (the rewrite child runs it).
#ifndef PLINTH_AOF_REWRITE_FORM_H
#define PLINTH_AOF_REWRITE_FORM_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::aof {

// Members per emitted command, as Redis's AOF_REWRITE_ITEMS_PER_CMD.
inline constexpr size_t kItemsPerCommand = 64;

// A value's plain RDB form as the sequence of lengths, strings and doubles its type wrote.
struct PlainForm {
  enum class Kind { kLen, kString, kDouble };
  struct Item {
    Kind kind;
    uint64_t len = 0;  // kLen
    std::string str;   // kString
    double dbl = 0;    // kDouble
  };
  std::vector<Item> items;
};

// Appends the commands that rebuild key from form, whose type is rdb_type (PLINTH_RDB_LIST,
// _SET, _HASH, _ZSET_2). Returns false, appending nothing, when the type is not one of those or
// the form does not match it (a count that disagrees with the items, an item of the wrong kind).
bool AppendCollectionCommands(std::string* out, std::string_view key, uint32_t rdb_type,
                              const PlainForm& form);

// Appends SET key value.
void AppendStringCommand(std::string* out, std::string_view key, std::string_view value);

// Appends PEXPIREAT key when_ms.
void AppendExpireCommand(std::string* out, std::string_view key, int64_t when_ms);

// Appends SELECT db.
void AppendSelectCommand(std::string* out, int32_t db);

// A score as ZADD reads it back exactly: "%.17g", "inf", "-inf".
std::string FormatScore(double score);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_REWRITE_FORM_H
