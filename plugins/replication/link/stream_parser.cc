// The replication stream's command cutter: a three-state machine over a buffer holding only the
// unparsed tail, so a large bulk that arrives in many chunks is copied once, not per chunk.
#include "replication/link/stream_parser.h"

#include <algorithm>

namespace plinth::replication {

namespace {

// A header line is "*" or "$", at most 19 digits, CRLF: anything longer is not a header.
constexpr size_t kMaxHeaderLine = 32;

}  // namespace

int StreamParser::ReadHeader(char type, int64_t max, int64_t* value, std::string* error) {
  const size_t avail = buf_.size() - pos_;
  if (avail == 0) return 0;
  if (buf_[pos_] != type) {
    *error = std::string("protocol error: expected '") + type + "', got byte " +
             std::to_string(static_cast<unsigned char>(buf_[pos_]));
    return -1;
  }
  const size_t nl = buf_.find('\n', pos_);
  if (nl == std::string::npos) {
    if (avail > kMaxHeaderLine) {
      *error = "protocol error: header line too long";
      return -1;
    }
    return 0;
  }
  const size_t len = nl - pos_ + 1;
  if (len > kMaxHeaderLine || len < 4 || buf_[nl - 1] != '\r') {
    *error = "protocol error: malformed header line";
    return -1;
  }
  int64_t v = 0;
  for (size_t i = pos_ + 1; i < nl - 1; ++i) {
    const char c = buf_[i];
    if (c < '0' || c > '9') {
      *error = std::string("protocol error: bad ") + (type == '*' ? "argument count" : "length");
      return -1;
    }
    v = v * 10 + (c - '0');
    if (v > max) {
      *error = std::string("protocol error: ") + (type == '*' ? "argument count" : "bulk length") +
               " over " + std::to_string(max);
      return -1;
    }
  }
  if (type == '*' && v == 0) {
    *error = "protocol error: empty command";
    return -1;
  }
  *value = v;
  pos_ += len;
  cmd_bytes_ += len;
  return 1;
}

bool StreamParser::Feed(std::string_view bytes, std::vector<StreamCommand>* out,
                        std::string* error) {
  buf_.append(bytes);
  for (;;) {
    if (state_ == State::kArgc) {
      const int r = ReadHeader('*', kMaxArgc, &argc_left_, error);
      if (r < 0) return false;
      if (r == 0) break;
      cur_.argv.clear();
      cur_.argv.reserve(static_cast<size_t>(std::min<int64_t>(argc_left_, 64)));
      state_ = State::kBulkLen;
    } else if (state_ == State::kBulkLen) {
      const int r = ReadHeader('$', kMaxBulk, &bulk_len_, error);
      if (r < 0) return false;
      if (r == 0) break;
      state_ = State::kBulkData;
    } else {
      const size_t need = static_cast<size_t>(bulk_len_) + 2;
      if (buf_.size() - pos_ < need) break;
      if (buf_[pos_ + need - 2] != '\r' || buf_[pos_ + need - 1] != '\n') {
        *error = "protocol error: bulk not terminated by CRLF";
        return false;
      }
      cur_.argv.emplace_back(buf_, pos_, static_cast<size_t>(bulk_len_));
      pos_ += need;
      cmd_bytes_ += need;
      state_ = State::kBulkLen;
      if (--argc_left_ == 0) {
        offset_ += cmd_bytes_;
        cmd_bytes_ = 0;
        cur_.end_offset = offset_;
        out->push_back(std::move(cur_));
        cur_ = StreamCommand();
        state_ = State::kArgc;
      }
    }
  }
  Compact();
  return true;
}

void StreamParser::Compact() {
  if (pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  } else if (pos_ > 0) {
    // Only the unparsed tail stays. While a bulk waits for its rest pos_ sits at its start,
    // so after this one move later chunks only append.
    buf_.erase(0, pos_);
    pos_ = 0;
  }
}

}  // namespace plinth::replication
