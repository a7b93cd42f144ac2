// A streaming RDB reader (file versions 1 to 11). It pulls bytes from a Source, checks every
// length, the checksum and the format, and reports what it finds to a Visitor: aux fields, db
// changes, and keys, with every collection presented in its plain RDB form whatever encoding
// the file holds. Step() reads one item, so a loader can work in slices. Used by one thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/rdb/input.h"
#include "common/rdb/source.h"

namespace plinth::rdb {

// A key as the file describes it.
struct KeyInfo {
  std::string_view name;
  int64_t expire_ms = -1;  // absolute unix time in ms; -1 none; a negative stored time is 0
  uint8_t rdb_type = 0;    // the value's type byte in the file (16: a listpack hash, ...)
  uint64_t db = 0;         // the db the last SELECTDB named
  int64_t idle_s = -1;     // the IDLE (LRU) opcode before the key, or -1
  int32_t freq = -1;       // the FREQ (LFU) opcode before the key, or -1
};

// What the reader reports to. A method returning false stops the reader, whose error is then
// Error() followed by " at offset N". OWNERSHIP: every view is valid only during the call.
class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual bool Aux(std::string_view /*name*/, std::string_view /*value*/) { return true; }
  virtual bool SelectDb(uint64_t /*db*/) { return true; }
  virtual bool ResizeDb(uint64_t /*keys*/, uint64_t /*expires*/) { return true; }
  // A string key.
  virtual bool String(const KeyInfo& key, std::string_view value) = 0;
  // A collection key, never empty (the reader skips empty ones, as Redis does). plain_type is
  // PLINTH_RDB_LIST, SET, HASH or ZSET_2, and plain's read_len/read_string/read_double yield
  // the value in that form, as a type's rdb_load expects; or a stream form
  // (PLINTH_RDB_STREAM_LISTPACKS, _2, _3), passed through as the file holds it (read_raw for
  // its 8- and 16-byte fields). What the visitor leaves unread is skipped. OWNERSHIP: plain is
  // valid only during the call.
  virtual bool Collection(const KeyInfo& key, uint32_t plain_type, plinth_rdb_io_t* plain) = 0;
  // Why the last method returned false.
  virtual std::string Error() const { return "the loader refused the key"; }
};

class Reader {
 public:
  enum class Status { kMore, kDone, kError };

  // OWNERSHIP: source and visitor are borrowed and must outlive the reader.
  Reader(Source* source, Visitor* visitor) : in_(source), visitor_(visitor) {}

  // Reads the next item (the header, one opcode, or one key with its value) and reports it.
  // kMore: call again; kDone: the EOF opcode and checksum were read; kError: see error().
  // After kDone or kError every call returns the same status.
  Status Step();
  // Steps until kDone or kError.
  Status Run();

  // The first error, ending "at offset N", or "".
  const std::string& error() const { return in_.error(); }
  // N of the error: the offset where the bad item starts.
  uint64_t error_offset() const { return in_.error_offset(); }
  // Bytes consumed so far.
  uint64_t offset() const { return in_.offset(); }
  // The file's version, 0 before the header is read.
  int version() const { return version_; }
  // True when the file carried a checksum (not zero) and it matched.
  bool checksum_verified() const { return checksum_verified_; }
  // Collections skipped because they hold no element.
  uint64_t empty_keys_skipped() const { return empty_keys_skipped_; }

 private:
  bool Header();
  bool Opcode(uint8_t op);
  bool Eof();
  bool Key(uint8_t type);
  bool Refuse(uint8_t type);
  bool StreamValue(uint8_t type);
  bool Plain(uint32_t plain_type, bool string_scores);
  bool Blob(uint8_t type);
  bool Quicklist(uint8_t type);
  // Hands a decoded collection to the visitor.
  bool Replay(uint32_t plain_type, std::vector<std::string> atoms);
  bool VisitorFailed() { return in_.Fail(visitor_->Error()); }

  Input in_;
  Visitor* visitor_;
  Status status_ = Status::kMore;
  int version_ = 0;
  uint64_t db_ = 0;
  KeyInfo pending_;  // what the opcodes before a key said about it
  KeyInfo current_;  // the key being read
  std::string key_;
  std::string value_;
  bool checksum_verified_ = false;
  uint64_t empty_keys_skipped_ = 0;
};

}  // namespace plinth::rdb
