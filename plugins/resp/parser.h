// plinth::resp::Parser: the per-connection, incremental RESP request parser (multibulk and
// inline). Called by the protocol hooks on any thread, one connection at a time.
#ifndef PLINTH_PLUGINS_RESP_PARSER_H
#define PLINTH_PLUGINS_RESP_PARSER_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::resp {

// Longest inline line, and longest pending multibulk/bulk count line, before a protocol error.
inline constexpr size_t kInlineMaxSize = 64 * 1024;
// Largest multibulk count accepted: INT_MAX, as Redis 7.0 (the arguments are waited for, not
// reserved; the query buffer limit bounds what a client can send).
inline constexpr int64_t kMaxMultibulkLen = 2147483647LL;
// Tighter limits for a client that has not authenticated yet.
inline constexpr int64_t kUnauthMultibulkLen = 10;
inline constexpr int64_t kUnauthBulkLen = 16384;
// Default of proto-max-bulk-len (512mb).
inline constexpr int64_t kDefaultMaxBulkLen = 512LL * 1024 * 1024;
// The range of proto-max-bulk-len. Redis 7.0 takes 1mb up to LONG_MAX, and a bulk header near
// LONG_MAX then wraps the size arithmetic of its query buffer; 1 PiB is more than any host
// holds and leaves every sum and product on a length (plus framing, doubled, in bits) far
// inside 64 bits.
inline constexpr int64_t kMinMaxBulkLen = 1024LL * 1024;
inline constexpr int64_t kMaxMaxBulkLen = 1LL << 50;

enum class ParseStatus {
  kOk,        // a request is ready: argc()/argv()/argvlen(); consumed bytes form it
  kNeedMore,  // call again with the same bytes plus more; consumed is 0
  kError,     // error() holds the protocol error; the connection should close
  kEmpty,     // consumed bytes held no command (blank line, *0, *-1)
};

struct ParseLimits {
  int64_t max_bulk_len = kDefaultMaxBulkLen;  // proto-max-bulk-len
  bool unauthenticated = false;               // apply kUnauth* limits
};

struct ParseResult {
  ParseStatus status = ParseStatus::kNeedMore;
  size_t consumed = 0;   // bytes of buf used (kOk, kEmpty); 0 otherwise
  size_t need_hint = 0;  // kNeedMore inside a bulk: total bytes the request needs; else 0
};

class Parser {
 public:
  // Parses one request from buf[0, len). Resume contract: after kNeedMore the next call must
  // pass the same bytes again (possibly at another address) plus any that arrived; progress is
  // kept as offsets, so no byte is scanned twice and a request costs O(its size) however it is
  // split. A call with fewer bytes than the previous kNeedMore call restarts the request.
  // After kOk the arguments point into buf (multibulk) or into this parser (inline) and stay
  // valid until the next Parse or Reset. Never throws except std::bad_alloc.
  ParseResult Parse(const char* buf, size_t len, const ParseLimits& limits);

  // The request of the last kOk.
  int argc() const { return argc_; }
  const char* const* argv() const { return argv_.data(); }
  const size_t* argvlen() const { return out_len_.data(); }

  // The error of the last kError: "Protocol error: ..." without CR, LF or NUL.
  const std::string& error() const { return error_; }

  // Forgets any partial request.
  void Reset();

  // Argument slots currently allocated (to check that a huge count preallocates nothing).
  size_t ArgCapacityForTest() const { return std::max(arg_off_.capacity(), argv_.capacity()); }

 private:
  enum class State { kStart, kCount, kBulkHeader, kBulkPayload, kInline };
  enum class Line { kFound, kNeedMore, kTooBig, kBadCrlf };

  // Each step returns a result for the caller, or nullopt after moving to the next state.
  std::optional<ParseResult> ParseCount(const char* buf, size_t len, const ParseLimits& limits);
  std::optional<ParseResult> ParseBulkHeader(const char* buf, size_t len,
                                             const ParseLimits& limits);
  std::optional<ParseResult> ParseBulkPayload(const char* buf, size_t len);
  std::optional<ParseResult> ParseInline(const char* buf, size_t len);
  // The common case in one pass: a whole multibulk request of at most kWholeMaxArgs arguments
  // at the start of buf, every length written plainly (no sign, no leading zero, within the
  // limits). Returns false, having changed nothing the general path reads, for anything else:
  // the state machine then parses the same bytes and gives the same result or error.
  bool ParseWhole(const char* buf, size_t len, const ParseLimits& limits, ParseResult* out);
  // Makes argv_/out_len_ hold at least n slots (never shrinks them; no per-request zeroing).
  void Reserve(size_t n);
  // The general path's kOk: argv_/out_len_ from the argument offsets into base.
  void Finish(const char* base);
  Line FindCrlf(const char* buf, size_t len, size_t* cr);
  ParseResult Fail(std::string_view message);
  ParseResult Done(ParseStatus status, size_t consumed);
  void BeginRequest();

  State state_ = State::kStart;
  size_t seen_len_ = 0;          // len of the previous kNeedMore call
  size_t line_ = 0;              // start of the current count line or element
  size_t scan_ = 0;              // where the search for the line end resumes
  int64_t remaining_ = 0;        // elements still expected
  size_t bulk_len_ = 0;          // length of the bulk being read (kBulkPayload)
  std::vector<size_t> arg_off_;  // argument offsets into buf (multibulk) or inline_store_
  std::vector<size_t> arg_len_;
  // The last kOk request: argc_ arguments in the first slots of argv_ and out_len_.
  int argc_ = 0;
  std::vector<const char*> argv_;
  std::vector<size_t> out_len_;
  std::string inline_store_;
  std::string error_;
};

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_PARSER_H
