// DEBUG's texts and RDB size arithmetic (debug_text.h).
#include "diagnostics/debug_text.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <plinth/text.hpp>

namespace plinth::diagnostics {

std::vector<std::string_view> DebugHelpLines(bool with_change_repl_id, bool with_reload) {
  std::vector<std::string_view> lines = {
      "DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"};
  if (with_change_repl_id) {
    lines.insert(lines.end(),
                 {"CHANGE-REPL-ID", "    Change the replication IDs of the instance.",
                  "    Dangerous: should be used only for testing the replication subsystem."});
  }
  lines.insert(lines.end(),
               {"OBJECT <key>", "    Show low level info about `key` and associated value."});
  if (with_reload) {
    lines.insert(lines.end(), {"RELOAD", "    Save the RDB on disk and reload it back to memory."});
  }
  lines.insert(
      lines.end(),
      {"SET-ACTIVE-EXPIRE <0|1>",
       "    Setting it to 0 disables expiring keys in background when they are not",
       "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
       "    default.", "SLEEP <seconds>", "    Stop the server for <seconds>. Decimals allowed.",
       "HELP", "    Prints this help."});
  return lines;
}

double SleepSeconds(std::string_view arg) {
  const std::string s(arg.substr(0, arg.find('\0')));  // Redis reads a C string
  const double d = std::strtod(s.c_str(), nullptr);
  return std::isnan(d) || d < 0 ? 0 : d;
}

bool ActiveExpireOn(std::string_view arg) {
  const std::string s(arg.substr(0, arg.find('\0')));
  return std::atoi(s.c_str()) != 0;
}

size_t RdbLengthBytes(uint64_t n) {
  if (n < (1u << 6)) return 1;
  if (n < (1u << 14)) return 2;
  if (n <= UINT32_MAX) return 5;
  return 9;
}

size_t RdbStringBytes(std::string_view s) {
  // Redis tries the integer encodings for strings of up to 11 characters that print back the
  // same (no leading zeros, no "+").
  int64_t v = 0;
  if (s.size() <= 11 && text::ParseInt64(s, &v) && std::to_string(v) == s) {
    if (v >= INT8_MIN && v <= INT8_MAX) return 2;
    if (v >= INT16_MIN && v <= INT16_MAX) return 3;
    if (v >= INT32_MIN && v <= INT32_MAX) return 5;
  }
  return RdbLengthBytes(s.size()) + s.size();
}

std::string DebugObjectLine(const void* addr, std::string_view encoding, size_t serialized,
                            int64_t now_ms, int64_t idle_ms) {
  const int64_t lru = ((now_ms - idle_ms) / 1000) & ((1 << 24) - 1);  // LRU_CLOCK_MAX
  char buf[128];
  std::snprintf(buf, sizeof buf, "Value at:%p refcount:1 encoding:", addr);
  std::string out = buf;
  out.append(encoding);
  std::snprintf(buf, sizeof buf, " serializedlength:%zu lru:%" PRId64 " lru_seconds_idle:%" PRId64,
                serialized, lru, idle_ms / 1000);
  return out + buf;
}

}  // namespace plinth::diagnostics
