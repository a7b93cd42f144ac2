// ACL LOG: the latest denials (commands, keys, channels, failed AUTH), newest first. Repeats of
// an entry (same reason, context, object and user) within 60 seconds count on it instead of
// adding one, as Redis does. Main thread.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

namespace plinth::acl {

struct LogEntry {
  uint64_t count = 1;
  std::string reason;   // "command", "key", "channel", "auth"
  std::string context;  // "toplevel", "multi", "lua"
  std::string object;   // the command, key or channel refused; "AUTH"
  std::string username;
  std::string client_info;  // the client's CLIENT LIST line
  int64_t updated_ms = 0;
};

class AclLog {
 public:
  void Add(LogEntry e, int64_t now_ms);
  void Reset() { entries_.clear(); }
  void SetMaxLen(size_t n);
  const std::deque<LogEntry>& entries() const { return entries_; }

 private:
  std::deque<LogEntry> entries_;
  size_t max_len_ = 128;
};

}  // namespace plinth::acl
