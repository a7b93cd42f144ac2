// The propagation stream's encoding: the SDK's command-form encoder (plinth/command_form.hpp,
// inline, no temporaries) writing straight into one growable buffer, its room reserved once per
// command, since every write command of a server with an AOF passes here.
#include "host/core/stream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <plinth/command_form.hpp>

namespace plinth::host {

Stream::~Stream() { std::free(buf_); }

char* Stream::Room(size_t n) {
  if (cap_ - size_ < n) {
    size_t cap = cap_ ? cap_ : 4096;
    while (cap - size_ < n) cap *= 2;
    char* fresh = static_cast<char*>(std::realloc(buf_, cap));
    if (!fresh) throw std::bad_alloc();
    buf_ = fresh;
    cap_ = cap;
  }
  return buf_ + size_;
}

void Stream::Command(const char* head, size_t headlen, int32_t argc, const char* const* argv,
                     const size_t* argvlen) {
  // replicate() unchecked: a NULL argument is empty (the encoder's rule).
  const auto n = static_cast<size_t>(argc);
  char* const start = Room(form::EncodedSize(head, headlen, n, argv, argvlen));
  size_ += static_cast<size_t>(form::Encode(start, head, headlen, n, argv, argvlen) - start);
}

size_t Stream::Append(int32_t db, const char* head, size_t headlen, int32_t argc,
                      const char* const* argv, const size_t* argvlen) {
  if (db != db_) {
    char n[12];
    const int len = std::snprintf(n, sizeof n, "%d", db);
    const char* arg[1] = {n};
    const size_t arglen[1] = {static_cast<size_t>(len)};
    Command("SELECT", 6, 1, arg, arglen);
    db_ = db;
  }
  const size_t at = size_;
  Command(head, headlen, argc, argv, argvlen);
  return at;
}

void Stream::InsertMulti(size_t at) {
  const size_t n = form::EncodedSize("MULTI", 5, 0, nullptr, nullptr);
  Room(n);
  std::memmove(buf_ + at + n, buf_ + at, size_ - at);
  form::Encode(buf_ + at, "MULTI", 5, 0, nullptr, nullptr);
  size_ += n;
}

plinth_stream_batch_t Stream::Batch() const {
  plinth_stream_batch_t b{};
  b.struct_size = sizeof b;
  b.offset = delivered_;
  b.data = buf_;
  b.len = size_;
  return b;
}

void Stream::Delivered() {
  delivered_ += size_;
  size_ = 0;
  // A burst (a huge MSET, a big transaction) should not pin its buffer forever.
  if (cap_ > (1u << 20)) {
    std::free(buf_);
    buf_ = nullptr;
    cap_ = 0;
  }
}

}  // namespace plinth::host
