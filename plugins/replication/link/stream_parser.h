// Cuts the primary's replication stream (RESP multibulk commands, "*N\r\n$len\r\n...\r\n") into
// whole commands, each with the stream offset just past it. Fed in chunks of any size; a command
// split across chunks waits for its rest. The SDK's parser of the stream's command form
// (plinth/command_form.hpp) does the cutting; this keeps the bytes, the offset and the wording.
// Used by the link's thread; pure, no IO, no ABI types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <plinth/command_form.hpp>
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
  explicit StreamParser(uint64_t offset);

  // Appends bytes and moves every command they complete onto *out, in order. Returns false on
  // malformed input (a byte other than '*' or '$' where one is due, a bad or absurd length, a
  // bulk not followed by CRLF) with the reason in *error; whole commands before the fault are
  // still on *out, and the parser must not be fed again. Allocates no more than the bytes fed
  // (plus one command's argv). THREAD: one at a time.
  bool Feed(std::string_view bytes, std::vector<StreamCommand>* out, std::string* error);

  // The offset just past the last whole command.
  uint64_t offset() const { return offset_; }

 private:
  std::string buf_;  // from the first byte of the command in progress on
  form::CommandParser parser_;
  std::vector<std::string_view> argv_;  // the command parser_ returned last (views into buf_)
  uint64_t offset_;
};

}  // namespace plinth::replication
