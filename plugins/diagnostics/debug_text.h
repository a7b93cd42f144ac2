// The pure parts of DEBUG: its HELP lines, the seconds DEBUG SLEEP reads, the sizes of the RDB
// encodings DEBUG OBJECT's serializedlength adds up, and the line DEBUG OBJECT answers. No ABI
// types; called by debug_commands.cc and the unit tests. Any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::diagnostics {

// DEBUG HELP's lines in Redis 7's words: the subcommands of the diagnostics plugin, plus
// CHANGE-REPL-ID and RELOAD when with_change_repl_id / with_reload (their plugins registered
// them).
std::vector<std::string_view> DebugHelpLines(bool with_change_repl_id, bool with_reload);

// DEBUG SLEEP's seconds as Redis reads them (strtod: decimals allowed, a text that is no
// number is 0). A negative or NaN value is 0.
double SleepSeconds(std::string_view arg);

// DEBUG SET-ACTIVE-EXPIRE's argument as Redis reads it (atoi: "x" is 0): whether it turns the
// active expiry cycle on.
bool ActiveExpireOn(std::string_view arg);

// Bytes of an RDB length (1, 2, 5 or 9).
size_t RdbLengthBytes(uint64_t n);

// Bytes of an RDB string without compression: the integer encodings (2, 3 or 5 bytes) for a
// canonical decimal that fits 32 bits, else its length and its bytes.
size_t RdbStringBytes(std::string_view s);

// DEBUG OBJECT's reply: "Value at:<addr> refcount:1 encoding:<enc> serializedlength:<n>
// lru:<lru> lru_seconds_idle:<idle>", lru being Redis's 24-bit clock in seconds at the last
// access (now_ms less idle_ms).
std::string DebugObjectLine(const void* addr, std::string_view encoding, size_t serialized,
                            int64_t now_ms, int64_t idle_ms);

}  // namespace plinth::diagnostics
