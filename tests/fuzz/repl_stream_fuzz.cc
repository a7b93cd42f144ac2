// libFuzzer target for plinth::replication::StreamParser (plugins/replication/link), the
// replica's cutter of its primary's stream. Input: one control byte (bits 0-1: feeding mode,
// 0 whole, 1 byte by byte, 2 chunks of 0-255 bytes, 3 chunks of 0-255 x 61 bytes, a 0 being an
// empty Feed; bits 2-4: how many chunk-size bytes follow, less one; the byte also picks the
// start offset), the chunk-size bytes in modes 2 and 3 (used in turn), then the stream.
// Checks, trapping on a violation: every command's end_offset rises strictly and equals the
// start offset plus the stream bytes through it; offset() is the last end_offset; after an error
// each later Feed fails again and yields nothing; the stream fed whole gives the same commands
// and the same failure; the bytes a command consumed are that command encoded as a RESP
// multibulk, save for leading zeros in its lengths (the parser accepts "$03"), and that
// canonical encoding parses back to the same argv.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "replication/link/stream_parser.h"

namespace {

using plinth::replication::StreamCommand;
using plinth::replication::StreamParser;

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

// The canonical RESP multibulk of argv: "*N\r\n" then "$len\r\n<bytes>\r\n" per argument.
std::string Encode(const std::vector<std::string>& argv) {
  std::string s = "*" + std::to_string(argv.size()) + "\r\n";
  for (const std::string& a : argv) {
    s += "$" + std::to_string(a.size()) + "\r\n";
    s += a;
    s += "\r\n";
  }
  return s;
}

// Reads a header line "<type><digits>\r\n" at *pos of s; traps unless it is one. Returns its
// value with leading zeros dropped (at most 19 digits count; more would not be a valid header).
uint64_t Header(std::string_view s, size_t* pos, char type) {
  Check(*pos < s.size() && s[*pos] == type);
  ++*pos;
  uint64_t v = 0;
  size_t digits = 0;
  while (*pos < s.size() && s[*pos] >= '0' && s[*pos] <= '9') {
    v = v * 10 + static_cast<uint64_t>(s[*pos] - '0');
    ++*pos;
    if (v != 0) Check(++digits <= 18);
  }
  Check(*pos + 1 < s.size() && s[*pos] == '\r' && s[*pos + 1] == '\n');
  *pos += 2;
  return v;
}

// Re-frames one command's consumed bytes canonically (lengths without leading zeros); traps
// unless they are exactly one well-formed multibulk command.
std::string Canonical(std::string_view s) {
  size_t pos = 0;
  const uint64_t argc = Header(s, &pos, '*');
  Check(argc >= 1 && argc <= static_cast<uint64_t>(StreamParser::kMaxArgc));
  std::string out = "*" + std::to_string(argc) + "\r\n";
  for (uint64_t i = 0; i < argc; ++i) {
    const uint64_t len = Header(s, &pos, '$');
    Check(len <= static_cast<uint64_t>(StreamParser::kMaxBulk));
    Check(len + 2 <= s.size() - pos);
    Check(s[pos + len] == '\r' && s[pos + len + 1] == '\n');
    out += "$" + std::to_string(len) + "\r\n";
    out.append(s.substr(pos, len + 2));
    pos += len + 2;
  }
  Check(pos == s.size());
  return out;
}

bool Same(const StreamCommand& a, const StreamCommand& b) {
  return a.argv == b.argv && a.end_offset == b.end_offset;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t control = data[0];
  const unsigned mode = control & 3u;
  const size_t nsizes = mode >= 2 ? ((control >> 2) & 7u) + 1 : 0;
  if (size < 1 + nsizes) return 0;
  const uint8_t* sizes = data + 1;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1 + nsizes,
                                size - 1 - nsizes);
  const uint64_t start = static_cast<uint64_t>(control) << 24;

  // Split feeding, with the invariants checked after every Feed.
  StreamParser parser(start);
  std::vector<StreamCommand> cmds;
  bool failed = false;
  size_t fed = 0;  // stream bytes fed so far
  size_t turn = 0;
  bool any_nonzero = false;
  for (size_t i = 0; i < nsizes; ++i) any_nonzero |= sizes[i] != 0;
  // Feeds the stream in chunks, then once more with nothing (as after a read of 0 bytes).
  for (bool last = false; !last;) {
    size_t chunk = stream.size() - fed;  // mode 0: all of it
    if (mode == 1) {
      chunk = 1;
    } else if (mode >= 2) {
      chunk = any_nonzero ? sizes[turn++ % nsizes] : 1;  // a 0 is an empty Feed
      if (mode == 3) chunk *= 61;
    }
    last = fed == stream.size();
    chunk = last ? 0 : std::min(chunk, stream.size() - fed);
    const std::string_view piece = stream.substr(fed, chunk);
    fed += chunk;
    const size_t before = cmds.size();
    std::string err;
    const bool ok = parser.Feed(piece, &cmds, &err);
    if (failed) {
      // Once failed, the parser fails again and yields nothing more.
      Check(!ok);
      Check(cmds.size() == before);
    }
    if (!ok) {
      Check(!err.empty());
      failed = true;
    }
    for (size_t i = before; i < cmds.size(); ++i) {
      const uint64_t prev = i == 0 ? start : cmds[i - 1].end_offset;
      Check(cmds[i].end_offset > prev);
      Check(cmds[i].end_offset - start <= fed);  // never past the bytes fed so far
      Check(!cmds[i].argv.empty());
    }
    Check(parser.offset() == (cmds.empty() ? start : cmds.back().end_offset));
  }

  // The bytes each command consumed, re-framed canonically, are its encoding; that encoding
  // parses back to the same argv, ending exactly where it ends.
  for (size_t i = 0; i < cmds.size(); ++i) {
    const uint64_t from = (i == 0 ? start : cmds[i - 1].end_offset) - start;
    const uint64_t to = cmds[i].end_offset - start;
    const std::string enc = Encode(cmds[i].argv);
    Check(Canonical(stream.substr(from, to - from)) == enc);
    StreamParser back(start);
    std::vector<StreamCommand> again;
    std::string err;
    Check(back.Feed(enc, &again, &err));
    Check(again.size() == 1);
    Check(again[0].argv == cmds[i].argv);
    Check(again[0].end_offset == start + enc.size());
    Check(back.offset() == start + enc.size());
  }

  // The stream fed whole gives the same commands and the same outcome.
  StreamParser whole(start);
  std::vector<StreamCommand> wcmds;
  std::string werr;
  const bool wok = whole.Feed(stream, &wcmds, &werr);
  Check(wok == !failed);
  Check(wcmds.size() == cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) Check(Same(wcmds[i], cmds[i]));
  Check(whole.offset() == parser.offset());
  return 0;
}
