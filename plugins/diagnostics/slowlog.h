// The slow log: the newest commands that ran longer than slowlog-log-slower-than, at most
// slowlog-max-len of them, newest first, each with a unique id. Pure; main thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace plinth::diagnostics {

struct SlowlogEntry {
  int64_t id = 0;
  int64_t unix_s = 0;             // when it started
  int64_t duration_us = 0;        // how long it ran
  std::vector<std::string> args;  // SlowlogArgs
  std::string addr, client_name;
};

class Slowlog {
 public:
  // Adds e as the newest entry (its id assigned here), dropping the oldest past max_len.
  void Add(SlowlogEntry e);
  // Keeps at most n entries from now on (slowlog-max-len), dropping the oldest now.
  void SetMaxLen(size_t n);
  // Forgets every entry; ids keep counting (SLOWLOG RESET).
  void Reset() { entries_.clear(); }
  // Newest first.
  const std::deque<SlowlogEntry>& entries() const { return entries_; }

 private:
  std::deque<SlowlogEntry> entries_;
  size_t max_len_ = 128;
  int64_t next_id_ = 0;
};

}  // namespace plinth::diagnostics
