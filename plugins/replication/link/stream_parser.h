// Cuts the primary's replication stream (RESP multibulk commands, "*N\r\n$len\r\n...\r\n") into
// whole commands, each with the stream offset just past it. Fed in chunks of any size; a command
// split across chunks waits for its rest. Used by the link's thread; pure, no IO, no ABI types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "replication/link/link.h"

namespace plinth::replication {

class StreamParser {
 public:
  static constexpr int64_t kMaxArgc = 1024 * 1024;
  static constexpr int64_t kMaxBulk = 512LL * 1024 * 1024;

  // offset: the stream offset the first byte follows (the replica's offset before it).
  explicit StreamParser(uint64_t offset) : offset_(offset) {}

  // Appends bytes and moves every command they complete onto *out, in order. Returns false on
  // malformed input (a byte other than '*' or '$' where one is due, a bad or absurd length, a
  // bulk not followed by CRLF) with the reason in *error; whole commands before the fault are
  // still on *out, and the parser must not be fed again. Allocates no more than the bytes fed
  // (plus one command's argv). THREAD: one at a time.
  bool Feed(std::string_view bytes, std::vector<StreamCommand>* out, std::string* error);

  // The offset just past the last whole command.
  uint64_t offset() const { return offset_; }

 private:
  enum class State { kArgc, kBulkLen, kBulkData };
  // Finds a header line ("*N" or "$N") at pos_. Returns 1 with *value set, 0 when the line is
  // not complete yet, -1 on a malformed line (reason in *error).
  int ReadHeader(char type, int64_t max, int64_t* value, std::string* error);
  void Compact();

  std::string buf_;
  size_t pos_ = 0;  // parse position in buf_
  State state_ = State::kArgc;
  int64_t argc_left_ = 0;
  int64_t bulk_len_ = 0;
  uint64_t cmd_bytes_ = 0;  // bytes of the command in progress parsed so far
  StreamCommand cur_;
  uint64_t offset_;
};

}  // namespace plinth::replication
