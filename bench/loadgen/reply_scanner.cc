// RESP reply framing: a header line, then a payload (bulk types) or nested elements
// (aggregates). Only lengths are parsed; payload bytes are skipped.
#include "reply_scanner.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace plinth::loadgen {
namespace {

constexpr int kMaxDepth = 64;

// Finds the CRLF that ends the line at buf[pos]. Returns its offset or -1 when not there yet.
long FindCrlf(const char* buf, size_t len, size_t pos) {
  for (size_t i = pos; i + 1 < len; ++i) {
    if (buf[i] == '\r' && buf[i + 1] == '\n') return static_cast<long>(i);
  }
  return -1;
}

bool ParseLength(const char* p, const char* end, long long* out) {
  if (p == end) return false;
  bool neg = *p == '-';
  if (neg) ++p;
  if (p == end) return false;
  long long v = 0;
  for (; p < end; ++p) {
    if (*p < '0' || *p > '9' || v > (1LL << 50)) return false;
    v = v * 10 + (*p - '0');
  }
  *out = neg ? -v : v;
  return true;
}

Scan ScanAt(const char* buf, size_t len, size_t pos, int depth, size_t* end, bool* is_error) {
  if (depth > kMaxDepth) return Scan::kMalformed;
  if (pos >= len) return Scan::kNeedMore;
  const char type = buf[pos];
  const long cr = FindCrlf(buf, len, pos + 1);
  if (cr < 0) return Scan::kNeedMore;
  const size_t after = static_cast<size_t>(cr) + 2;
  long long n = 0;
  switch (type) {
    case '+':
    case ':':
    case '_':
    case ',':
    case '#':
    case '(':
      *end = after;
      return Scan::kComplete;
    case '-':
      if (depth == 0) *is_error = true;
      *end = after;
      return Scan::kComplete;
    case '$':
    case '=':
    case '!':
      if (!ParseLength(buf + pos + 1, buf + cr, &n)) return Scan::kMalformed;
      if (type == '!' && depth == 0) *is_error = true;
      if (n < 0) {
        *end = after;
        return Scan::kComplete;
      }
      if (len < after + static_cast<size_t>(n) + 2) return Scan::kNeedMore;
      *end = after + static_cast<size_t>(n) + 2;
      return Scan::kComplete;
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      if (!ParseLength(buf + pos + 1, buf + cr, &n)) return Scan::kMalformed;
      if (type == '%' || type == '|') n *= 2;
      size_t at = after;
      for (long long i = 0; i < n; ++i) {
        Scan s = ScanAt(buf, len, at, depth + 1, &at, is_error);
        if (s != Scan::kComplete) return s;
      }
      *end = at;
      // An attribute ('|') precedes the reply it describes: that reply follows.
      if (type == '|') return ScanAt(buf, len, at, depth, end, is_error);
      return Scan::kComplete;
    }
    default:
      return Scan::kMalformed;
  }
}

}  // namespace

Scan ScanReply(const char* buf, size_t len, size_t* used, bool* is_error) {
  *is_error = false;
  size_t end = 0;
  Scan s = ScanAt(buf, len, 0, 0, &end, is_error);
  if (s == Scan::kComplete) *used = end;
  return s;
}

int ReplyScannerSelfTest() {
  struct Case {
    std::string bytes;
    bool error;
  };
  const Case cases[] = {
      {"+OK\r\n", false},
      {"-ERR unknown command 'x'\r\n", true},
      {":12345\r\n", false},
      {"$-1\r\n", false},
      {"$0\r\n\r\n", false},
      {"$5\r\nhel\r\n\r\n", false},  // CRLF inside a bulk payload
      {"*-1\r\n", false},
      {"*2\r\n$1\r\na\r\n*1\r\n:1\r\n", false},
      {"%1\r\n+k\r\n$1\r\nv\r\n", false},
      {"_\r\n", false},
      {"!3\r\nERR\r\n", true},
      {"|1\r\n+a\r\n+b\r\n:7\r\n", false},
  };
  int failures = 0;
  auto fail = [&](const std::string& what, const std::string& bytes) {
    std::fprintf(stderr, "reply scanner self-test: %s for %zu bytes starting '%c'\n", what.c_str(),
                 bytes.size(), bytes.empty() ? '?' : bytes[0]);
    ++failures;
  };
  for (const Case& c : cases) {
    const std::string two = c.bytes + "+NEXT\r\n";
    size_t used = 0;
    bool err = false;
    if (ScanReply(two.data(), two.size(), &used, &err) != Scan::kComplete) {
      fail("not complete", c.bytes);
      continue;
    }
    if (used != c.bytes.size()) fail("wrong size", c.bytes);
    if (err != c.error) fail("wrong error flag", c.bytes);
    for (size_t cut = 0; cut < c.bytes.size(); ++cut) {
      if (ScanReply(c.bytes.data(), cut, &used, &err) != Scan::kNeedMore)
        fail("prefix of " + std::to_string(cut) + " bytes not kNeedMore", c.bytes);
    }
  }
  size_t used = 0;
  bool err = false;
  if (ScanReply("?x\r\n", 4, &used, &err) != Scan::kMalformed) fail("junk accepted", "?x");
  if (ScanReply("$x\r\n", 4, &used, &err) != Scan::kMalformed) fail("bad length accepted", "$x");
  return failures;
}

}  // namespace plinth::loadgen
