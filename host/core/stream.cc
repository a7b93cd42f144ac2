// The propagation stream's encoding: RESP multibulk written straight into one growable buffer,
// its room reserved once per command and the lengths written with a digit loop rather than
// snprintf, since every write command of a server with an AOF passes here.
#include "host/core/stream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace plinth::host {
namespace {

constexpr size_t kHeaderMax = 1 + 20 + 2;  // '*' or '$', a 64-bit count, CRLF

// Writes prefix, the decimal n and CRLF at p; returns the end.
char* Header(char* p, char prefix, uint64_t n) {
  char tmp[20];
  char* d = tmp + sizeof tmp;
  do {
    *--d = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n);
  *p++ = prefix;
  const size_t len = static_cast<size_t>(tmp + sizeof tmp - d);
  std::memcpy(p, d, len);
  p += len;
  *p++ = '\r';
  *p++ = '\n';
  return p;
}

}  // namespace

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
  size_t need = kHeaderMax + (head ? kHeaderMax + headlen + 2 : 0);
  for (int32_t i = 0; i < argc; ++i) need += kHeaderMax + argvlen[i] + 2;
  char* const start = Room(need);
  auto bulk = [](char* p, const char* data, size_t len) {
    p = Header(p, '$', data ? len : 0);  // replicate() unchecked: a NULL argument is empty
    if (data) {
      std::memcpy(p, data, len);
      p += len;
    }
    *p++ = '\r';
    *p++ = '\n';
    return p;
  };
  char* p = Header(start, '*', static_cast<uint64_t>(argc) + (head ? 1 : 0));
  if (head) p = bulk(p, head, headlen);
  for (int32_t i = 0; i < argc; ++i) p = bulk(p, argv[i], argvlen[i]);
  size_ += static_cast<size_t>(p - start);
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
  static constexpr char kMulti[] = "*1\r\n$5\r\nMULTI\r\n";
  constexpr size_t n = sizeof kMulti - 1;
  Room(n);
  std::memmove(buf_ + at + n, buf_ + at, size_ - at);
  std::memcpy(buf_ + at, kMulti, n);
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
