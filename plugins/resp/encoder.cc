// Reply encoding. Every item reserves its worst case once, then writes with plain stores and
// memcpy; integers go through the digit-pair table in digits.cc, never snprintf.
#include "resp/encoder.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "resp/digits.h"

namespace plinth::resp {
namespace {

// Makes room for n more bytes. Returns false when the buffer cannot grow.
bool Reserve(plinth_outbuf_t* out, size_t n) {
  if (out->cap - out->len >= n) return true;
  if (out->grow == nullptr || out->grow(out, n) != PLINTH_OK) return false;
  return out->cap - out->len >= n;
}

// Writers below assume Reserve already succeeded for the whole item.
char* Put(char* p, const char* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

char* PutCrlf(char* p) {
  p[0] = '\r';
  p[1] = '\n';
  return p + 2;
}

// "<type><n>\r\n"
char* PutHeader(char* p, char type, int64_t n) {
  *p++ = type;
  p += WriteInt64(p, n);
  return PutCrlf(p);
}

constexpr size_t kHeaderMax = 1 + kMaxInt64Chars + 2;

bool AppendHeader(plinth_outbuf_t* out, char type, int64_t n) {
  if (!Reserve(out, kHeaderMax)) return false;
  out->len = static_cast<size_t>(PutHeader(out->data + out->len, type, n) - out->data);
  return true;
}

// "$<len>\r\n<data>\r\n"; also the RESP2 form of the RESP3 string types.
bool AppendBulk(plinth_outbuf_t* out, const char* data, size_t len) {
  if (!Reserve(out, kHeaderMax + len + 2)) return false;
  char* p = PutHeader(out->data + out->len, '$', static_cast<int64_t>(len));
  if (len > 0) p = Put(p, data, len);
  out->len = static_cast<size_t>(PutCrlf(p) - out->data);
  return true;
}

// "<type><text>\r\n" with CR and LF in text turned into spaces so the reply stays one line.
bool AppendLine(plinth_outbuf_t* out, char type, const char* data, size_t len) {
  if (!Reserve(out, 1 + len + 2)) return false;
  char* p = out->data + out->len;
  *p++ = type;
  if (len > 0) {
    std::memcpy(p, data, len);
    if (std::memchr(p, '\r', len) != nullptr || std::memchr(p, '\n', len) != nullptr) {
      for (size_t i = 0; i < len; i++) {
        if (p[i] == '\r' || p[i] == '\n') p[i] = ' ';
      }
    }
    p += len;
  }
  out->len = static_cast<size_t>(PutCrlf(p) - out->data);
  return true;
}

bool AppendLiteral(plinth_outbuf_t* out, const char* s, size_t n) {
  if (!Reserve(out, n)) return false;
  std::memcpy(out->data + out->len, s, n);
  out->len += n;
  return true;
}

bool AppendDouble(plinth_outbuf_t* out, uint32_t proto, double d) {
  char text[kMaxDoubleChars];
  const size_t n = FormatDouble(d, text);
  if (proto != 3) return AppendBulk(out, text, n);
  if (!Reserve(out, 1 + n + 2)) return false;
  char* p = out->data + out->len;
  *p++ = ',';
  p = Put(p, text, n);
  out->len = static_cast<size_t>(PutCrlf(p) - out->data);
  return true;
}

// "=<len+4>\r\n<fmt>:<data>\r\n"; fmt falls back to "txt" unless it is exactly three bytes.
bool AppendVerbatim(plinth_outbuf_t* out, const char* ext, const char* data, size_t len) {
  const char* fmt = (ext != nullptr && strnlen(ext, 4) == 3) ? ext : "txt";
  if (!Reserve(out, kHeaderMax + 4 + len + 2)) return false;
  char* p = PutHeader(out->data + out->len, '=', static_cast<int64_t>(len + 4));
  p = Put(p, fmt, 3);
  *p++ = ':';
  if (len > 0) p = Put(p, data, len);
  out->len = static_cast<size_t>(PutCrlf(p) - out->data);
  return true;
}

}  // namespace

size_t FormatDouble(double d, char* dst) {
  if (std::isnan(d)) return static_cast<size_t>(Put(dst, "nan", 3) - dst);
  if (std::isinf(d)) {
    return d > 0 ? static_cast<size_t>(Put(dst, "inf", 3) - dst)
                 : static_cast<size_t>(Put(dst, "-inf", 4) - dst);
  }
  // to_chars with general format and precision 17 is specified to match printf("%.17g").
  const auto r = std::to_chars(dst, dst + kMaxDoubleChars, d, std::chars_format::general, 17);
  return static_cast<size_t>(r.ptr - dst);
}

bool EncodeReply(uint32_t proto, const plinth_reply_item_t& item, plinth_outbuf_t* out) {
  const bool resp3 = proto == 3;
  switch (item.type) {
    case PLINTH_REPLY_SIMPLE:
      return AppendLine(out, '+', item.data, item.len);
    case PLINTH_REPLY_ERROR:
      return AppendLine(out, '-', item.data, item.len);
    case PLINTH_REPLY_INTEGER:
      return AppendHeader(out, ':', item.integer);
    case PLINTH_REPLY_BULK:
      return AppendBulk(out, item.data, item.len);
    case PLINTH_REPLY_NULL:
      return resp3 ? AppendLiteral(out, "_\r\n", 3) : AppendLiteral(out, "$-1\r\n", 5);
    case PLINTH_REPLY_NULL_ARRAY:
      return resp3 ? AppendLiteral(out, "_\r\n", 3) : AppendLiteral(out, "*-1\r\n", 5);
    case PLINTH_REPLY_ARRAY:
      return AppendHeader(out, '*', item.integer);
    case PLINTH_REPLY_MAP:
      return resp3 ? AppendHeader(out, '%', item.integer)
                   : AppendHeader(out, '*',
                                  static_cast<int64_t>(static_cast<uint64_t>(item.integer) * 2));
    case PLINTH_REPLY_SET:
      return AppendHeader(out, resp3 ? '~' : '*', item.integer);
    case PLINTH_REPLY_DOUBLE:
      return AppendDouble(out, proto, item.dbl);
    case PLINTH_REPLY_BOOL:
      if (resp3) return AppendLiteral(out, item.integer ? "#t\r\n" : "#f\r\n", 4);
      return AppendLiteral(out, item.integer ? ":1\r\n" : ":0\r\n", 4);
    case PLINTH_REPLY_VERBATIM:
      return resp3 ? AppendVerbatim(out, item.ext, item.data, item.len)
                   : AppendBulk(out, item.data, item.len);
    case PLINTH_REPLY_BIGNUM:
      return resp3 ? AppendLine(out, '(', item.data, item.len)
                   : AppendBulk(out, item.data, item.len);
    case PLINTH_REPLY_PUSH:
      return AppendHeader(out, resp3 ? '>' : '*', item.integer);
    default:
      return false;
  }
}

bool FrameBulk(size_t len, plinth_outbuf_t* prefix, plinth_outbuf_t* suffix) {
  if (prefix == suffix) {
    if (!Reserve(prefix, kHeaderMax + 2)) return false;
  } else if (!Reserve(prefix, kHeaderMax) || !Reserve(suffix, 2)) {
    return false;
  }
  prefix->len = static_cast<size_t>(
      PutHeader(prefix->data + prefix->len, '$', static_cast<int64_t>(len)) - prefix->data);
  suffix->len = static_cast<size_t>(PutCrlf(suffix->data + suffix->len) - suffix->data);
  return true;
}

}  // namespace plinth::resp
