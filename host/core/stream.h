// The propagation stream: the server's effects encoded once as RESP multibulk commands, with a
// SELECT wherever the database changes, in a buffer every batch consumer shares, and the
// stream offset (bytes appended since start). The core appends; the shell delivers what is
// pending as one batch before it writes replies. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>

namespace plinth::host {

class Stream {
 public:
  Stream() = default;
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Appends head (when non-null) and argv[0..argc) as one command run in db, preceded by
  // SELECT db when the stream is in another database (or was told to reselect). No allocation
  // per argument: the buffer grows. Returns where the command starts in the pending bytes
  // (after the SELECT), for InsertMulti.
  size_t Append(int32_t db, const char* head, size_t headlen, int32_t argc, const char* const* argv,
                const size_t* argvlen);
  // Inserts MULTI at pending position at (a value Append returned), moving what follows: the
  // unit that began there turned out to hold more than one effect.
  void InsertMulti(size_t at);
  // The next Append starts with a SELECT.
  void Reselect() { db_ = -1; }
  // The database the stream is in (-1: none yet, or told to reselect).
  int32_t db() const { return db_; }
  // Whether bytes wait for delivery.
  bool Pending() const { return size_ != 0; }
  // Bytes appended since the stream began (delivered or not).
  uint64_t Offset() const { return delivered_ + size_; }
  // The pending bytes as a batch. OWNERSHIP: borrowed until Delivered.
  plinth_stream_batch_t Batch() const;
  // The pending bytes went to every consumer: the next batch starts after them.
  void Delivered();

 private:
  // Room for n more bytes at the end of the buffer (throws std::bad_alloc).
  char* Room(size_t n);
  // Appends one RESP multibulk command: head (when non-null), then argv[0..argc).
  void Command(const char* head, size_t headlen, int32_t argc, const char* const* argv,
               const size_t* argvlen);

  char* buf_ = nullptr;  // malloc'd
  size_t size_ = 0;
  size_t cap_ = 0;
  uint64_t delivered_ = 0;  // offset of buf_[0]
  int32_t db_ = -1;         // the database the stream is in, -1: none yet
};

}  // namespace plinth::host
