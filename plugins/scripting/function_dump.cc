// The DUMP payload of function libraries (Redis's rdbSaveFunctions / verifyDumpPayload).
#include "scripting/function_dump.h"

#include <cstring>
#include <plinth/text.hpp>

#include "common/rdb/crc64.h"
#include "common/rdb/lzf.h"
#include "scripting/function_load.h"
#include "scripting/shebang.h"

namespace plinth::scripting {
namespace {

constexpr unsigned char kOpFunction2 = 0xF5;
constexpr unsigned char kOpFunction = 0xF6;
constexpr int kRdbVersion = 10;

void AppendLen(std::string* out, uint64_t n) {
  if (n < (1u << 6)) {
    out->push_back(static_cast<char>(n));
  } else if (n < (1u << 14)) {
    out->push_back(static_cast<char>(0x40 | (n >> 8)));
    out->push_back(static_cast<char>(n & 0xff));
  } else if (n <= 0xffffffffu) {
    out->push_back(static_cast<char>(0x80));
    for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  } else {
    out->push_back(static_cast<char>(0x81));
    for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  }
}

void AppendString(std::string* out, std::string_view s) {
  std::string packed;
  if (s.size() > 20 && rdb::LzfCompress(s.data(), s.size(), &packed) &&
      packed.size() <= s.size() - 4) {
    out->push_back(static_cast<char>(0xC3));
    AppendLen(out, packed.size());
    AppendLen(out, s.size());
    out->append(packed);
    return;
  }
  AppendLen(out, s.size());
  out->append(s);
}

struct Reader {
  std::string_view in;
  size_t pos = 0;
  bool Byte(unsigned char* b) {
    if (pos >= in.size()) return false;
    *b = static_cast<unsigned char>(in[pos++]);
    return true;
  }
  // A length, or an encoding id in *enc (then *n is unset).
  bool Len(uint64_t* n, int* enc) {
    unsigned char b = 0;
    *enc = -1;
    if (!Byte(&b)) return false;
    switch (b >> 6) {
      case 0:
        *n = b & 0x3f;
        return true;
      case 1: {
        unsigned char b2 = 0;
        if (!Byte(&b2)) return false;
        *n = (uint64_t(b & 0x3f) << 8) | b2;
        return true;
      }
      case 2: {
        int bytes = b == 0x80 ? 4 : b == 0x81 ? 8 : 0;
        if (!bytes) return false;
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) {
          unsigned char x = 0;
          if (!Byte(&x)) return false;
          v = (v << 8) | x;
        }
        *n = v;
        return true;
      }
      default:
        *enc = b & 0x3f;
        return true;
    }
  }
  bool String(std::string* out) {
    uint64_t n = 0;
    int enc = -1;
    if (!Len(&n, &enc)) return false;
    if (enc < 0) {
      if (n > in.size() - pos) return false;
      out->assign(in.substr(pos, n));
      pos += n;
      return true;
    }
    if (enc <= 2) {  // an integer of 1, 2 or 4 bytes, little endian
      int bytes = 1 << enc;
      int64_t v = 0;
      for (int i = 0; i < bytes; ++i) {
        unsigned char x = 0;
        if (!Byte(&x)) return false;
        v |= int64_t(x) << (8 * i);
      }
      if (bytes < 8 && (v & (int64_t(1) << (8 * bytes - 1)))) v -= int64_t(1) << (8 * bytes);
      *out = std::to_string(v);
      return true;
    }
    if (enc != 3) return false;
    uint64_t clen = 0, len = 0;
    int e2 = -1;
    if (!Len(&clen, &e2) || e2 >= 0 || !Len(&len, &e2) || e2 >= 0) return false;
    if (clen > in.size() - pos || len > rdb::LzfMaxExpansion(clen)) return false;
    out->assign(len, '\0');
    if (!rdb::LzfDecompress(in.data() + pos, clen, out->data(), len)) return false;
    pos += clen;
    return true;
  }
};

}  // namespace

std::string DumpLibraries(Runtime* rt) {
  std::string out;
  for (const auto& [name, lib] : rt->libraries()) {
    out.push_back(static_cast<char>(kOpFunction2));
    AppendString(&out, lib.code);
  }
  out.push_back(static_cast<char>(kRdbVersion & 0xff));
  out.push_back(static_cast<char>((kRdbVersion >> 8) & 0xff));
  uint64_t crc = rdb::Crc64(0, out.data(), out.size());
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return out;
}

bool ParseDump(std::string_view payload, std::vector<std::string>* codes, std::string* error) {
  const size_t n = payload.size();
  if (n < 10) {
    *error = "DUMP payload version or checksum are wrong";
    return false;
  }
  const auto* f = reinterpret_cast<const unsigned char*>(payload.data() + n - 10);
  int version = f[0] | (f[1] << 8);
  uint64_t crc = 0;
  for (int i = 7; i >= 0; --i) crc = (crc << 8) | f[2 + i];
  if (version > kRdbVersion || rdb::Crc64(0, payload.data(), n - 8) != crc) {
    *error = "DUMP payload version or checksum are wrong";
    return false;
  }
  Reader r{payload.substr(0, n - 10)};
  while (r.pos < r.in.size()) {
    unsigned char type = 0;
    r.Byte(&type);
    if (type == kOpFunction) {
      *error = "Pre-GA function format not supported";
      return false;
    }
    if (type != kOpFunction2) {
      *error = "given type is not a function";
      return false;
    }
    std::string code;
    if (!r.String(&code)) {
      *error = "failed loading the given functions payload";
      return false;
    }
    codes->push_back(std::move(code));
  }
  return true;
}

void RestoreCommand(sdk::Call& c) {
  if (c.argc() > 4) {
    c.Error(
        "ERR unknown subcommand or wrong number of arguments for 'restore'. Try FUNCTION "
        "HELP.");
    return;
  }
  enum { kAppend, kReplace, kFlush } policy = kAppend;
  if (c.argc() == 4) {
    std::string_view p = c.arg(3);
    if (text::EqualsNoCase(p, "append")) {
      policy = kAppend;
    } else if (text::EqualsNoCase(p, "replace")) {
      policy = kReplace;
    } else if (text::EqualsNoCase(p, "flush")) {
      policy = kFlush;
    } else {
      c.Error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
      return;
    }
  }
  std::vector<std::string> codes;
  std::string error;
  if (!ParseDump(c.arg(2), &codes, &error)) {
    c.Error("ERR " + error);
    return;
  }
  Runtime* rt = TheRuntime();
  std::vector<std::string> before;
  for (const auto& [name, lib] : rt->libraries()) before.push_back(lib.code);
  if (policy == kFlush) FlushLibraries(rt);
  for (const std::string& code : codes) {
    std::string name;
    LibraryMeta meta;
    if (policy == kAppend && ParseLibraryMeta(code, &meta, &error) &&
        rt->libraries().count(meta.name)) {
      error = "ERR Library " + meta.name + " already exists";
    } else if (LoadLibrary(rt, code, policy != kAppend, &name, &error)) {
      continue;
    }
    // All or nothing: put back the libraries there were.
    FlushLibraries(rt);
    for (const std::string& old : before) LoadLibrary(rt, old, true, &name, &error);
    c.Error(error.empty() ? "ERR failed loading the given functions payload" : error);
    return;
  }
  sdk::Api().replicate_verbatim(c.raw());
  c.Ok();
}

}  // namespace plinth::scripting
