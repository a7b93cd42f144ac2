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
// ParseWhole's reach: requests of more arguments take the general path.
constexpr uint64_t kWholeMaxArgs = 64;
// A length ParseWhole reads has at most this many digits (and is then checked against the
// limits); a longer one takes the general path.
constexpr size_t kWholeMaxDigits = 15;

// Reads a plain decimal at buf[*i, len) followed by CRLF: 1 to kWholeMaxDigits digits, no
// leading zero unless it is "0". Returns false (with *i anywhere) for anything else.
inline bool WholeNumber(const char* buf, size_t len, size_t* i, uint64_t* out) {
  size_t p = *i;
  const size_t start = p;
  uint64_t v = 0;
  while (p < len && p - start < kWholeMaxDigits && static_cast<unsigned char>(buf[p] - '0') < 10)
    v = v * 10 + static_cast<uint64_t>(buf[p++] - '0');
  const size_t digits = p - start;
  if (digits == 0 || (digits > 1 && buf[start] == '0')) return false;
  if (len - p < 2 || buf[p] != '\r' || buf[p + 1] != '\n') return false;
  *i = p + 2;
  *out = v;
  return true;
}

}  // namespace

void Parser::Reserve(size_t n) {
  if (argv_.size() < n) {
    argv_.resize(n);
    out_len_.resize(n);
  }
}

bool Parser::ParseWhole(const char* buf, size_t len, const ParseLimits& limits, ParseResult* out) {
  size_t i = 1;  // past '*'
  uint64_t count = 0;
  if (!WholeNumber(buf, len, &i, &count) || count == 0 || count > kWholeMaxArgs ||
      (limits.unauthenticated && count > static_cast<uint64_t>(kUnauthMultibulkLen)))
    return false;
  const uint64_t max_bulk = static_cast<uint64_t>(
      limits.unauthenticated ? std::min(limits.max_bulk_len, kUnauthBulkLen) : limits.max_bulk_len);
  Reserve(count);
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t n = 0;
    if (i >= len || buf[i] != '$') return false;
    ++i;
    // n < 10^15 and i <= len: the sums below stay far inside 64 bits.
    if (!WholeNumber(buf, len, &i, &n) || n > max_bulk || len - i < n + 2) return false;
    if (buf[i + n] != '\r' || buf[i + n + 1] != '\n') return false;
    argv_[k] = buf + i;
    out_len_[k] = n;
    i += n + 2;
  }
  argc_ = static_cast<int>(count);
  *out = {ParseStatus::kOk, i, 0};
  return true;
}

void Parser::Reset() {
  state_ = State::kStart;
  seen_len_ = 0;
  line_ = 0;
  scan_ = 0;
  remaining_ = 0;
  bulk_len_ = 0;
  arg_off_.clear();
  arg_len_.clear();
  argc_ = 0;
}

void Parser::BeginRequest() {
  if (arg_off_.capacity() > kKeepArgCapacity || argv_.capacity() > kKeepArgCapacity) {
    std::vector<size_t>().swap(arg_off_);
    std::vector<size_t>().swap(arg_len_);
    std::vector<const char*>().swap(argv_);
    std::vector<size_t>().swap(out_len_);
  }
  arg_off_.clear();
  arg_len_.clear();
  argc_ = 0;
  remaining_ = 0;
  bulk_len_ = 0;
}

void Parser::Finish(const char* base) {
  const size_t n = arg_off_.size();
  Reserve(n);
  for (size_t i = 0; i < n; i++) {
    argv_[i] = base + arg_off_[i];
    out_len_[i] = arg_len_[i];
  }
  argc_ = static_cast<int>(n);
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
    ParseResult whole;
    if (len > 0 && buf[0] == '*' && ParseWhole(buf, len, limits, &whole)) return whole;
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
  Finish(buf);
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
  Finish(inline_store_.data());
  return Done(ParseStatus::kOk, newline + 1);
}

}  // namespace plinth::resp
