// The plinth_rdb_io_t a visitor reads a collection through: the value in its plain RDB form
// (a length, then strings, with doubles after zset members), whatever form the file holds.
// StreamReplay reads a plain-form value straight from the file; MemoryReplay replays a
// value decoded from compact blobs. Only the read functions work; the write functions fail.
// Used by one thread at a time, for the duration of one Visitor::Collection call.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/rdb/input.h"

namespace plinth::rdb {

// The strings a plain value of `plain_type` holding `count` elements is made of (twice the
// count for hashes and zsets, whose doubles count as atoms too).
uint64_t AtomCount(uint32_t plain_type, uint64_t count);

class StreamReplay {
 public:
  // OWNERSHIP: in is borrowed. string_scores: the zset scores are type 3 text scores.
  StreamReplay(Input* in, uint32_t plain_type, uint64_t count, bool string_scores);
  plinth_rdb_io_t* io() { return &io_; }
  // Reads and drops what the visitor left unread, so the next item starts where it should.
  // Returns false with the input's error set.
  bool Drain();

  // The io's callbacks (ctx is the object).
  static int32_t ReadLen(plinth_rdb_io_t* io, uint64_t* n);
  static int32_t ReadString(plinth_rdb_io_t* io, const char** s, size_t* len);
  static int32_t ReadDouble(plinth_rdb_io_t* io, double* v);

 private:
  bool NextIsDouble() const { return type_ == PLINTH_RDB_ZSET_2 && pos_ % 2 == 1; }

  Input* in_;
  uint32_t type_;
  uint64_t count_;
  uint64_t atoms_;
  uint64_t pos_ = 0;
  bool len_read_ = false;
  bool string_scores_;
  std::string buf_;
  plinth_rdb_io_t io_{};
};

// A quicklist node as read from the file: a ziplist (type 14), a listpack (type 18 packed)
// or one element (type 18 plain).
struct QuicklistNode {
  enum Kind { kZiplist, kListpack, kPlain } kind;
  std::string blob;
};

// Appends a node's elements to *out; false with *error when the blob is malformed.
bool DecodeNode(const QuicklistNode& node, std::vector<std::string>* out, std::string* error);

class MemoryReplay {
 public:
  // Replays atoms in order (zset: member, score text, member, ...; scores already checked
  // with ParseScore).
  MemoryReplay(uint32_t plain_type, uint64_t count, std::vector<std::string> atoms);
  // Replays a list held as nodes that DecodeNode accepted, decoding one node at a time.
  // OWNERSHIP: nodes is borrowed.
  MemoryReplay(uint64_t count, const std::vector<QuicklistNode>* nodes);
  plinth_rdb_io_t* io() { return &io_; }

  // The io's callbacks (ctx is the object).
  static int32_t ReadLen(plinth_rdb_io_t* io, uint64_t* n);
  static int32_t ReadString(plinth_rdb_io_t* io, const char** s, size_t* len);
  static int32_t ReadDouble(plinth_rdb_io_t* io, double* v);

 private:
  // The next atom, loading the next node when the current one is used up.
  const std::string* Next();

  uint32_t type_;
  uint64_t count_;
  uint64_t atoms_;
  uint64_t pos_ = 0;
  bool len_read_ = false;
  std::vector<std::string> batch_;
  size_t batch_pos_ = 0;
  const std::vector<QuicklistNode>* nodes_ = nullptr;
  size_t node_ = 0;
  plinth_rdb_io_t io_{};
};

}  // namespace plinth::rdb
