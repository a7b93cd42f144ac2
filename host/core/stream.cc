// The propagation stream's encoding: RESP multibulk, the lengths written with a digit table
// rather than snprintf, since every write command of a server with an AOF passes here.
#include "host/core/stream.h"

#include <cstring>
#include <string_view>

namespace plinth::host {
namespace {

// Appends prefix, the decimal n, then CRLF.
void Header(std::string& out, char prefix, uint64_t n) {
  char tmp[24];
  char* end = tmp + sizeof tmp;
  char* p = end;
  *--p = '\n';
  *--p = '\r';
  do {
    *--p = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n);
  *--p = prefix;
  out.append(p, static_cast<size_t>(end - p));
}

void Command(std::string& out, int32_t argc, const char* const* argv, const size_t* argvlen) {
  Header(out, '*', static_cast<uint64_t>(argc));
  for (int32_t i = 0; i < argc; ++i) {
    Header(out, '$', argvlen[i]);
    out.append(argv[i], argvlen[i]);
    out.append("\r\n", 2);
  }
}

}  // namespace

void Stream::Append(int32_t db, int32_t argc, const char* const* argv, const size_t* argvlen) {
  if (db != db_) {
    const std::string n = std::to_string(db);
    const char* sel[2] = {"SELECT", n.data()};
    const size_t len[2] = {6, n.size()};
    Command(buf_, 2, sel, len);
    db_ = db;
  }
  Command(buf_, argc, argv, argvlen);
}

plinth_stream_batch_t Stream::Batch() const {
  plinth_stream_batch_t b{};
  b.struct_size = sizeof b;
  b.offset = delivered_;
  b.data = buf_.data();
  b.len = buf_.size();
  return b;
}

void Stream::Delivered() {
  delivered_ += buf_.size();
  // A burst (a huge MSET, a big transaction) should not pin its buffer forever.
  if (buf_.capacity() > (1u << 20)) {
    std::string().swap(buf_);
  } else {
    buf_.clear();
  }
}

}  // namespace plinth::host
