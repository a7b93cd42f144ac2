// The RESP request state machine. Progress between calls is kept as offsets into the caller's
// buffer (which may move), so a request split anywhere is parsed in one pass over its bytes.
// Error texts follow Redis/Valkey so clients and tests that match them keep working.
#include "resp/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <plinth/text.hpp>

#include "resp/inline_args.h"

namespace plinth::resp {
namespace {

constexpr std::string_view kInvalidMultibulk = "Protocol error: invalid multibulk length";
constexpr std::string_view kUnauthMultibulk = "Protocol error: unauthenticated multibulk length";
constexpr std::string_view kTooBigCount = "Protocol error: too big mbulk count string";
constexpr std::string_view kInvalidBulk = "Protocol error: invalid bulk length";
constexpr std::string_view kUnauthBulk = "Protocol error: unauthenticated bulk length";
constexpr std::string_view kTooBigBulkCount = "Protocol error: too big bulk count string";
constexpr std::string_view kInvalidCrlf = "Protocol error: invalid CRLF in request";
constexpr std::string_view kTooBigInline = "Protocol error: too big inline request";
constexpr std::string_view kUnbalanced = "Protocol error: unbalanced quotes in request";
constexpr std::string_view kNulInline = "Protocol error: NUL byte in inline request";

// Vectors grown past this by one huge request are released when the next one starts.
constexpr size_t kKeepArgCapacity = 4096;

}  // namespace

void Parser::Reset() {
  state_ = State::kStart;
  seen_len_ = 0;
  line_ = 0;
  scan_ = 0;
  remaining_ = 0;
  bulk_len_ = 0;
  arg_off_.clear();
  arg_len_.clear();
  argv_.clear();
}

void Parser::BeginRequest() {
  if (arg_off_.capacity() > kKeepArgCapacity) {
    std::vector<size_t>().swap(arg_off_);
    std::vector<size_t>().swap(arg_len_);
    std::vector<const char*>().swap(argv_);
  }
  arg_off_.clear();
  arg_len_.clear();
  argv_.clear();
  remaining_ = 0;
  bulk_len_ = 0;
}

ParseResult Parser::Fail(std::string_view message) {
  error_.assign(message);
  Reset();
  return {ParseStatus::kError, 0, 0};
}

ParseResult Parser::Done(ParseStatus status, size_t consumed) {
  state_ = State::kStart;
  seen_len_ = 0;
  return {status, consumed, 0};
}

// Looks for the CRLF that ends the line starting at line_, resuming at scan_. Only the first
// kInlineMaxSize + 1 bytes of a line are searched: a longer line is refused whether it arrived
// whole or in pieces, which keeps the outcome independent of how the bytes were split.
Parser::Line Parser::FindCrlf(const char* buf, size_t len, size_t* cr) {
  const size_t window_end = std::min(len, line_ + kInlineMaxSize + 1);
  if (scan_ < window_end) {
    // Length lines are a few bytes: a plain loop over the first ones beats a memchr call.
    const char* hit = nullptr;
    const size_t quick_end = std::min(window_end, scan_ + 24);
    for (size_t i = scan_; i < quick_end; i++) {
      if (buf[i] == '\r') {
        hit = buf + i;
        break;
      }
    }
    if (hit == nullptr && quick_end < window_end) {
      hit = static_cast<const char*>(std::memchr(buf + quick_end, '\r', window_end - quick_end));
    }
    if (hit != nullptr) {
      const size_t at = static_cast<size_t>(hit - buf);
      scan_ = at;
      if (at + 1 >= len) return Line::kNeedMore;
      if (buf[at + 1] != '\n') return Line::kBadCrlf;
      *cr = at;
      return Line::kFound;
    }
    scan_ = window_end;
  }
  return len - line_ > kInlineMaxSize ? Line::kTooBig : Line::kNeedMore;
}

ParseResult Parser::Parse(const char* buf, size_t len, const ParseLimits& limits) {
  if (state_ != State::kStart && len < seen_len_) Reset();
  if (state_ == State::kStart) {
    BeginRequest();
    if (len == 0) return {ParseStatus::kNeedMore, 0, 0};
    line_ = 0;
    if (buf[0] == '*') {
      state_ = State::kCount;
      scan_ = 1;
    } else {
      state_ = State::kInline;
      scan_ = 0;
    }
  }
  for (;;) {
    std::optional<ParseResult> r;
    switch (state_) {
      case State::kCount:
        r = ParseCount(buf, len, limits);
        break;
      case State::kBulkHeader:
        r = ParseBulkHeader(buf, len, limits);
        break;
      case State::kBulkPayload:
        r = ParseBulkPayload(buf, len);
        break;
      case State::kInline:
        r = ParseInline(buf, len);
        break;
      case State::kStart:
        return {ParseStatus::kNeedMore, 0, 0};  // not reached: every step sets a state
    }
    if (!r) continue;  // the step moved on to the next element
    if (r->status == ParseStatus::kNeedMore) seen_len_ = len;
    return *r;
  }
}

namespace {
constexpr std::nullopt_t kContinue = std::nullopt;
constexpr ParseResult kWait{ParseStatus::kNeedMore, 0, 0};
}  // namespace

std::optional<ParseResult> Parser::ParseCount(const char* buf, size_t len,
                                              const ParseLimits& limits) {
  size_t cr = 0;
  switch (FindCrlf(buf, len, &cr)) {
    case Line::kNeedMore:
      return kWait;
    case Line::kTooBig:
      return Fail(kTooBigCount);
    case Line::kBadCrlf:
      return Fail(kInvalidCrlf);
    case Line::kFound:
      break;
  }
  int64_t count = 0;
  if (!text::ParseInt64(std::string_view(buf + 1, cr - 1), &count) || count > kMaxMultibulkLen) {
    return Fail(kInvalidMultibulk);
  }
  if (limits.unauthenticated && count > kUnauthMultibulkLen) return Fail(kUnauthMultibulk);
  if (count <= 0) return Done(ParseStatus::kEmpty, cr + 2);
  remaining_ = count;
  // Grow with the arguments that actually arrive; a huge count alone reserves little.
  const size_t reserve = static_cast<size_t>(std::min<int64_t>(count, 1024));
  arg_off_.reserve(reserve);
  arg_len_.reserve(reserve);
  line_ = cr + 2;
  scan_ = line_ + 1;
  state_ = State::kBulkHeader;
  return kContinue;
}

std::optional<ParseResult> Parser::ParseBulkHeader(const char* buf, size_t len,
                                                   const ParseLimits& limits) {
  if (line_ >= len) return kWait;
  const char first = buf[line_];
  if (first != '$') {
    // Like Redis, show the byte; CR, LF (and NUL, which would end the text) become a space.
    const char shown = (first == '\r' || first == '\n' || first == '\0') ? ' ' : first;
    std::string message = "Protocol error: expected '$', got '";
    message.push_back(shown);
    message.push_back('\'');
    return Fail(message);
  }
  size_t cr = 0;
  switch (FindCrlf(buf, len, &cr)) {
    case Line::kNeedMore:
      return kWait;
    case Line::kTooBig:
      return Fail(kTooBigBulkCount);
    case Line::kBadCrlf:
      return Fail(kInvalidCrlf);
    case Line::kFound:
      break;
  }
  int64_t n = 0;
  // The length must also leave room for its CRLF after line_ (checked even when a caller's
  // limit is past the option's range).
  if (!text::ParseInt64(std::string_view(buf + line_ + 1, cr - line_ - 1), &n) || n < 0 ||
      n > limits.max_bulk_len || static_cast<uint64_t>(n) > SIZE_MAX - 2 - (cr + 2)) {
    return Fail(kInvalidBulk);
  }
  if (limits.unauthenticated && n > kUnauthBulkLen) return Fail(kUnauthBulk);
  bulk_len_ = static_cast<size_t>(n);
  line_ = cr + 2;
  state_ = State::kBulkPayload;
  return kContinue;
}

std::optional<ParseResult> Parser::ParseBulkPayload(const char* buf, size_t len) {
  const size_t end = line_ + bulk_len_;
  if (len < end + 2) return ParseResult{ParseStatus::kNeedMore, 0, end + 2};
  if (buf[end] != '\r' || buf[end + 1] != '\n') return Fail(kInvalidCrlf);
  arg_off_.push_back(line_);
  arg_len_.push_back(bulk_len_);
  line_ = end + 2;
  if (--remaining_ > 0) {
    scan_ = line_ + 1;
    state_ = State::kBulkHeader;
    return kContinue;
  }
  argv_.resize(arg_off_.size());
  for (size_t i = 0; i < arg_off_.size(); i++) argv_[i] = buf + arg_off_[i];
  return Done(ParseStatus::kOk, line_);
}

std::optional<ParseResult> Parser::ParseInline(const char* buf, size_t len) {
  const size_t window_end = std::min(len, kInlineMaxSize + 1);
  size_t newline = len;
  if (scan_ < window_end) {
    const void* hit = std::memchr(buf + scan_, '\n', window_end - scan_);
    const size_t stop =
        hit != nullptr ? static_cast<size_t>(static_cast<const char*>(hit) - buf) : window_end;
    if (std::memchr(buf + scan_, '\0', stop - scan_) != nullptr) return Fail(kNulInline);
    if (hit != nullptr) newline = stop;
    scan_ = stop;
  }
  if (newline == len) return len > kInlineMaxSize ? Fail(kTooBigInline) : kWait;
  size_t end = newline;
  if (end > 0 && buf[end - 1] == '\r') end--;
  inline_store_.clear();
  inline_store_.reserve(end);
  if (!SplitInlineArgs(buf, end, &inline_store_, &arg_off_, &arg_len_)) return Fail(kUnbalanced);
  if (arg_off_.empty()) return Done(ParseStatus::kEmpty, newline + 1);
  argv_.resize(arg_off_.size());
  for (size_t i = 0; i < arg_off_.size(); i++) argv_[i] = inline_store_.data() + arg_off_[i];
  return Done(ParseStatus::kOk, newline + 1);
}

}  // namespace plinth::resp
