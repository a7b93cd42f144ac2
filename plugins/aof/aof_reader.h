// A strict reader of append-only files: RESP multibulk commands only ("*N\r\n$L\r\n...\r\n"),
// plus Redis 7's "#..." annotation lines between commands. It tells a tail cut short
// (truncated: the bytes are a prefix of a valid command, or a MULTI lacks its EXEC at the end)
// from corruption (a byte no valid file could have there), with exact byte offsets. Commands are
// cut by the SDK's parser of the stream's command form (plinth/command_form.hpp); this adds the
// annotations, MULTI/EXEC, and the messages. Pure C++ over a byte span; one reader per thread.
#ifndef PLINTH_AOF_AOF_READER_H
#define PLINTH_AOF_AOF_READER_H

#include <cstddef>
#include <plinth/command_form.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::aof {

class AofReader {
 public:
  // Reads data from byte start on (after an RDB preamble, say). OWNERSHIP: data is borrowed
  // and must outlive the reader and the views it returns.
  explicit AofReader(std::string_view data, size_t start = 0);

  enum class Status {
    kCommand,    // *argv holds the next command (views into data)
    kEnd,        // the data ended after a whole unit
    kTruncated,  // the data ends inside a command or a MULTI without EXEC (see valid_prefix)
    kError,      // corruption at error_offset()
  };
  // Reads the next command. After kEnd, kTruncated or kError it keeps returning the same.
  Status Next(std::vector<std::string_view>* argv);

  // Where the command last returned starts, and the offset just after it.
  size_t command_offset() const { return cmd_start_; }
  size_t offset() const { return pos_; }
  // Bytes from 0 that hold only whole units: what a truncated file is cut back to.
  size_t valid_prefix() const { return valid_; }
  // Commands returned so far.
  size_t commands() const { return commands_; }
  // After kTruncated or kError: what is wrong ("... at offset N") and the offset it refers to
  // (the first byte that cannot be right, or where the unfinished command or MULTI starts).
  const std::string& error() const { return error_; }
  size_t error_offset() const { return error_offset_; }

 private:
  Status ParseOne(std::vector<std::string_view>* argv);
  Status Finish(Status s, std::string why, size_t offset);

  std::string_view data_;
  form::CommandParser parser_;
  size_t pos_;
  size_t cmd_start_;
  size_t valid_;
  size_t commands_ = 0;
  bool in_multi_ = false;
  size_t multi_start_ = 0;
  Status done_ = Status::kCommand;  // kCommand: not finished yet
  std::string error_;
  size_t error_offset_ = 0;
};

// The outcome of reading a whole file: how it ended and how many commands it held.
struct ScanResult {
  AofReader::Status status = AofReader::Status::kEnd;
  size_t commands = 0;
  size_t valid_prefix = 0;
  size_t error_offset = 0;
  std::string error;
};

// Reads every command of data from start on without running them (plinth-check-aof, tests).
ScanResult ScanAof(std::string_view data, size_t start = 0);

// Appends argv as one RESP multibulk command to *out.
void AppendCommand(std::string* out, const std::vector<std::string_view>& argv);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_AOF_READER_H
