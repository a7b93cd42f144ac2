// plinth/command_form.hpp - header-only C++17 encoder and parser of the propagation stream's
// command form: a RESP array of bulk strings, "*<argc>\r\n" then "$<len>\r\n<bytes>\r\n" for
// each argument. The host encodes its stream with it; stream consumers (on_batch), the AOF
// reader and a replica's link parse it with it.
//
// Standard library only, no ABI types. The functions are pure and THREAD: any; one
// CommandParser is used by one thread at a time.
#ifndef PLINTH_COMMAND_FORM_HPP
#define PLINTH_COMMAND_FORM_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one (Host::api above all).
#pragma GCC visibility push(hidden)
namespace plinth::form {

// ---- encoding --------------------------------------------------------------------------------
// A command is an optional head argument (head not null: a command name kept apart from its
// arguments) then argv[0..argc). A null argv[i] is an empty argument.

// The number of decimal digits of n. THREAD: any.
inline size_t DecimalSize(uint64_t n) {
  size_t d = 1;
  for (;;) {
    if (n < 10) return d;
    if (n < 100) return d + 1;
    if (n < 1000) return d + 2;
    if (n < 10000) return d + 3;
    n /= 10000;
    d += 4;
  }
}

namespace detail {

// Writes prefix, the decimal n and CRLF at p; returns the end.
inline char* WriteHeader(char* p, char prefix, uint64_t n) {
  const size_t digits = DecimalSize(n);
  *p = prefix;
  char* d = p + 1 + digits;
  do {
    *--d = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n);
  p += 1 + digits;
  p[0] = '\r';
  p[1] = '\n';
  return p + 2;
}

// Writes one argument ("$len\r\n<bytes>\r\n") at p; returns the end.
inline char* WriteBulk(char* p, const char* data, size_t len) {
  if (!data) len = 0;
  p = WriteHeader(p, '$', len);
  if (len) std::memcpy(p, data, len);
  p += len;
  p[0] = '\r';
  p[1] = '\n';
  return p + 2;
}

inline size_t BulkSize(const char* data, size_t len) {
  if (!data) len = 0;
  return 1 + DecimalSize(len) + 2 + len + 2;
}

}  // namespace detail

// The exact number of bytes Encode writes for the command. The arguments are in memory, so the
// sum cannot overflow. THREAD: any.
inline size_t EncodedSize(const char* head, size_t headlen, size_t argc, const char* const* argv,
                          const size_t* argvlen) {
  size_t n = 1 + DecimalSize(argc + (head ? 1 : 0)) + 2;
  if (head) n += detail::BulkSize(head, headlen);
  for (size_t i = 0; i < argc; ++i) n += detail::BulkSize(argv[i], argvlen[i]);
  return n;
}

// Writes the command at out, which has room for EncodedSize(...) bytes; returns the end of
// what it wrote. No allocation. THREAD: any.
inline char* Encode(char* out, const char* head, size_t headlen, size_t argc,
                    const char* const* argv, const size_t* argvlen) {
  out = detail::WriteHeader(out, '*', argc + (head ? 1 : 0));
  if (head) out = detail::WriteBulk(out, head, headlen);
  for (size_t i = 0; i < argc; ++i) out = detail::WriteBulk(out, argv[i], argvlen[i]);
  return out;
}

// Appends the command to *out (one resize). THREAD: any.
inline void AppendCommand(std::string* out, const char* head, size_t headlen, size_t argc,
                          const char* const* argv, const size_t* argvlen) {
  const size_t at = out->size();
  out->resize(at + EncodedSize(head, headlen, argc, argv, argvlen));
  Encode(&(*out)[at], head, headlen, argc, argv, argvlen);
}

// Appends the command whose arguments are args (a container of anything std::string_view can
// be made from: std::string, std::string_view, const char*) to *out (one resize). THREAD: any.
template <typename Args>
void AppendCommand(std::string* out, const Args& args) {
  size_t n = 0, argc = 0;
  for (const auto& a : args) {
    const std::string_view s(a);
    n += detail::BulkSize(s.data(), s.size());
    ++argc;
  }
  const size_t at = out->size();
  out->resize(at + 1 + DecimalSize(argc) + 2 + n);
  char* p = detail::WriteHeader(&(*out)[at], '*', argc);
  for (const auto& a : args) {
    const std::string_view s(a);
    p = detail::WriteBulk(p, s.data(), s.size());
  }
}

// ---- parsing ---------------------------------------------------------------------------------

// What a parser accepts. A count or length over its bound is an error as soon as the digit
// that crosses it arrives, so nothing is ever sized from a declared length.
struct Limits {
  uint64_t max_args = uint64_t{1} << 20;    // arguments in one command (at least 1)
  uint64_t max_bulk = uint64_t{512} << 20;  // bytes in one argument
  size_t max_digits = 20;                   // digits of a count or length, leading zeros too
};

// Why bytes are not a command. Each names the first byte that cannot be right.
enum class Fault {
  kNone,
  kExpectedArray,  // a byte other than '*' where a command starts
  kExpectedBulk,   // a byte other than '$' where an argument starts
  kBadNumber,      // a count or length without digits, or a byte other than a digit or CR in it
  kBadLineEnd,     // the CR after a count or length is not followed by LF
  kTooManyDigits,  // a count or length with more than max_digits digits
  kTooLarge,       // a count over max_args or a length over max_bulk (limit says which)
  kEmptyCommand,   // a count of 0 (offset: its first digit)
  kBadBulkEnd,     // an argument's bytes not followed by CRLF
};

// A parse error: the fault, where (offset from the command's first byte), the byte found
// there, whether it is in the count ('*' line) or an argument, and for kTooLarge the bound.
struct Error {
  Fault fault = Fault::kNone;
  size_t offset = 0;
  char byte = 0;
  bool in_count = false;
  uint64_t limit = 0;
};

// A generic English description of e ("expected '$', got 'x'"), without the offset, for a
// caller with no wording of its own. THREAD: any.
inline std::string Describe(const Error& e) {
  std::string byte = "'";
  const auto u = static_cast<unsigned char>(e.byte);
  if (u >= 0x20 && u < 0x7f) {
    byte += e.byte;
  } else {
    const char* hex = "0123456789abcdef";
    byte += "\\x";
    byte += hex[u >> 4];
    byte += hex[u & 15];
  }
  byte += "'";
  const char* what = e.in_count ? "argument count" : "bulk length";
  switch (e.fault) {
    case Fault::kNone:
      return "no error";
    case Fault::kExpectedArray:
      return "expected '*', got " + byte;
    case Fault::kExpectedBulk:
      return "expected '$', got " + byte;
    case Fault::kBadNumber:
      return std::string("invalid ") + what + ": unexpected " + byte;
    case Fault::kBadLineEnd:
      return "invalid CRLF: expected '\\n', got " + byte;
    case Fault::kTooManyDigits:
      return std::string(what) + " has too many digits";
    case Fault::kTooLarge:
      return std::string(what) + " over " + std::to_string(e.limit);
    case Fault::kEmptyCommand:
      return "empty command";
    case Fault::kBadBulkEnd:
      return "invalid CRLF after a bulk: got " + byte;
  }
  return "unknown error";
}

// Cuts commands out of bytes, incrementally. Each Parse call is given the bytes from the first
// byte of the command in progress on; when they hold only a prefix of it, the parser keeps its
// place, and the next call (given the same bytes, maybe moved, with more after them) goes on
// from there, so a command that arrives in many pieces is scanned once. It is strict: it tells
// "need more bytes" from an error at the first byte no valid command could have, and that
// verdict does not depend on how the bytes were split. Memory: the argument list of the command
// in progress, growing with the arguments that arrived, never with a declared count.
class CommandParser {
 public:
  enum class Status {
    kCommand,   // *argv holds the command (views into data); size() bytes of data were it
    kNeedMore,  // data is a prefix of a command (or empty): call again with more
    kError,     // error() says what; every later call returns kError until Reset
  };

  explicit CommandParser(const Limits& limits = Limits()) : limits_(limits) {}

  // Parses the command at the start of data (see the class comment for what data must hold).
  // On kCommand the parser is ready for the next command, which starts at data[size()].
  // OWNERSHIP: the views in *argv borrow data. THREAD: one at a time.
  Status Parse(std::string_view data, std::vector<std::string_view>* argv);

  // After kCommand: the bytes the command took.
  size_t size() const { return size_; }
  // After kError: what and where.
  const Error& error() const { return error_; }
  // Forgets the command in progress and any error.
  void Reset() {
    state_ = State::kArray;
    pos_ = 0;
    spans_.clear();
    error_ = Error();
  }

 private:
  enum class State {
    kArray,
    kCount,
    kCountLf,
    kBulk,
    kLength,
    kLengthLf,
    kBody,
    kBodyCr,
    kBodyLf,
    kFailed
  };
  struct Span {
    size_t offset;
    size_t len;
  };

  Status Fail(Fault fault, size_t offset, char byte, bool in_count, uint64_t limit = 0) {
    error_ = Error{fault, offset, byte, in_count, limit};
    state_ = State::kFailed;
    return Status::kError;
  }
  // Reads the digits and CR of a count or length from pos_ on into value_. Returns true when
  // the CR was read; false with *stop set to kNeedMore or kError otherwise.
  bool Digits(std::string_view data, uint64_t max, bool in_count, Status* stop);

  Limits limits_;
  State state_ = State::kArray;
  size_t pos_ = 0;  // the next byte to read, from the command's first byte
  uint64_t value_ = 0;
  size_t digits_ = 0;
  size_t number_at_ = 0;  // where the count's digits start
  uint64_t args_left_ = 0;
  std::vector<Span> spans_;  // the arguments read so far
  size_t size_ = 0;
  Error error_;
};

inline bool CommandParser::Digits(std::string_view data, uint64_t max, bool in_count,
                                  Status* stop) {
  for (; pos_ < data.size(); ++pos_) {
    const char c = data[pos_];
    if (c >= '0' && c <= '9') {
      const auto d = static_cast<uint64_t>(c - '0');
      if (digits_ == limits_.max_digits) {
        *stop = Fail(Fault::kTooManyDigits, pos_, c, in_count);
        return false;
      }
      // value_ * 10 + d > max, without overflowing.
      if (d > max || value_ > (max - d) / 10) {
        *stop = Fail(Fault::kTooLarge, pos_, c, in_count, max);
        return false;
      }
      value_ = value_ * 10 + d;
      ++digits_;
      continue;
    }
    if (digits_ == 0 || c != '\r') {
      *stop = Fail(Fault::kBadNumber, pos_, c, in_count);
      return false;
    }
    ++pos_;
    return true;
  }
  *stop = Status::kNeedMore;
  return false;
}

inline CommandParser::Status CommandParser::Parse(std::string_view data,
                                                  std::vector<std::string_view>* argv) {
  const size_t n = data.size();
  if (pos_ > n) return Status::kNeedMore;  // fewer bytes than last time: a caller's bug, not a read
  for (;;) {
    switch (state_) {
      case State::kFailed:
        return Status::kError;
      case State::kArray:
        if (pos_ == n) return Status::kNeedMore;
        if (data[pos_] != '*') return Fail(Fault::kExpectedArray, pos_, data[pos_], true);
        ++pos_;
        value_ = 0;
        digits_ = 0;
        number_at_ = pos_;
        state_ = State::kCount;
        break;
      case State::kCount:
      case State::kLength: {
        const bool count = state_ == State::kCount;
        Status stop;
        if (!Digits(data, count ? limits_.max_args : limits_.max_bulk, count, &stop)) return stop;
        state_ = count ? State::kCountLf : State::kLengthLf;
        break;
      }
      case State::kCountLf:
      case State::kLengthLf: {
        const bool count = state_ == State::kCountLf;
        if (pos_ == n) return Status::kNeedMore;
        if (data[pos_] != '\n') return Fail(Fault::kBadLineEnd, pos_, data[pos_], count);
        ++pos_;
        if (!count) {
          state_ = State::kBody;
        } else if (value_ == 0) {
          return Fail(Fault::kEmptyCommand, number_at_, '0', true);
        } else {
          args_left_ = value_;
          spans_.clear();
          state_ = State::kBulk;
        }
        break;
      }
      case State::kBulk:
        if (pos_ == n) return Status::kNeedMore;
        if (data[pos_] != '$') return Fail(Fault::kExpectedBulk, pos_, data[pos_], false);
        ++pos_;
        value_ = 0;
        digits_ = 0;
        state_ = State::kLength;
        break;
      case State::kBody:
        // value_ (at most max_bulk) is compared before any size is formed from it.
        if (static_cast<uint64_t>(n - pos_) < value_) return Status::kNeedMore;
        spans_.push_back(Span{pos_, static_cast<size_t>(value_)});
        pos_ += static_cast<size_t>(value_);
        state_ = State::kBodyCr;
        break;
      case State::kBodyCr:
      case State::kBodyLf: {
        const char want = state_ == State::kBodyCr ? '\r' : '\n';
        if (pos_ == n) return Status::kNeedMore;
        if (data[pos_] != want) return Fail(Fault::kBadBulkEnd, pos_, data[pos_], false);
        ++pos_;
        if (want == '\r') {
          state_ = State::kBodyLf;
        } else if (--args_left_ != 0) {
          state_ = State::kBulk;
        } else {
          argv->clear();
          for (const Span& s : spans_) argv->emplace_back(data.data() + s.offset, s.len);
          size_ = pos_;
          pos_ = 0;
          state_ = State::kArray;
          return Status::kCommand;
        }
        break;
      }
    }
  }
}

}  // namespace plinth::form
#pragma GCC visibility pop

#endif  // PLINTH_COMMAND_FORM_HPP
