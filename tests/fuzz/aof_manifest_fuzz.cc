// libFuzzer target for plinth::aof::ParseManifest (plugins/aof/manifest.h), the strict parser of
// the Redis 7 multi-part AOF manifest. Input: byte 0 picks where a name taken from the input is
// cut (bits 0-6) and whether the text gets a trailing comment line (bit 7); the rest is the
// manifest. The target aborts when:
// - a refusal's message is not "<reason> at line N (offset M)", M is past the text, or (but for
//   an empty manifest) M is not the start of line N;
// - an accepted manifest lists no file, a name that is not a plain file name, or incr files
//   out of order, or does not come back equal from FormatManifest and ParseManifest again;
// - a comment line appended to an accepted text changes what it parses to;
// - a plain file name made of input bytes, formatted into a manifest, does not parse back to
//   itself (FormatManifest's quoting against the parser's unquoting).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "aof/manifest.h"

namespace {

using plinth::aof::FileType;
using plinth::aof::FormatManifest;
using plinth::aof::Manifest;
using plinth::aof::ManifestFile;
using plinth::aof::ParseManifest;

void Check(bool ok) {
  if (!ok) std::abort();
}

// Reads the decimal number at s[*i], moving *i past it. False when there is none.
bool Number(std::string_view s, size_t* i, size_t* out) {
  const size_t start = *i;
  size_t v = 0;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9' && *i - start < 19)
    v = v * 10 + static_cast<size_t>(s[(*i)++] - '0');
  *out = v;
  return *i > start;
}

// A refusal names its line and the byte offset where that line starts.
void CheckRefusal(std::string_view text, const std::string& err) {
  const size_t at = err.rfind(" at line ");
  Check(at != std::string::npos && at > 0);
  size_t i = at + 9, line_no = 0, offset = 0;
  Check(Number(err, &i, &line_no));
  Check(err.compare(i, 9, " (offset ") == 0);
  i += 9;
  Check(Number(err, &i, &offset));
  Check(i + 1 == err.size() && err[i] == ')');
  Check(offset <= text.size());
  if (err.compare(0, at, "found an empty AOF manifest") == 0) return;
  Check(offset == 0 || text[offset - 1] == '\n');
  size_t newlines = 0;
  for (size_t k = 0; k < offset; ++k) newlines += text[k] == '\n';
  Check(line_no == newlines + 1);
}

void CheckAccepted(std::string_view text, const Manifest& m) {
  Check(m.base.has_value() || !m.incrs.empty() || !m.history.empty());
  auto plain = [](const ManifestFile& f) {
    Check(plinth::aof::IsPlainFileName(f.name));
    Check(f.seq > 0);
  };
  if (m.base) plain(*m.base), Check(m.base->type == FileType::kBase);
  for (const ManifestFile& f : m.history) plain(f), Check(f.type == FileType::kHistory);
  for (size_t k = 0; k < m.incrs.size(); ++k) {
    plain(m.incrs[k]);
    Check(m.incrs[k].type == FileType::kIncr);
    if (k > 0) Check(m.incrs[k - 1].seq < m.incrs[k].seq);
  }
  Manifest again;
  std::string err;
  const std::string formatted = FormatManifest(m);
  Check(ParseManifest(formatted, &again, &err));
  Check(again == m);
  Check(FormatManifest(again) == formatted);
  (void)text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t control = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  Manifest m;
  std::string err;
  const bool ok = ParseManifest(text, &m, &err);
  if (ok) {
    CheckAccepted(text, m);
  } else {
    CheckRefusal(text, err);
  }
  // The same text parses the same way again, and a trailing comment line changes nothing.
  Manifest m2;
  std::string err2;
  Check(ParseManifest(text, &m2, &err2) == ok && err2 == err && (!ok || m2 == m));
  if ((control & 0x80) != 0 && ok) {
    Manifest m3;
    Check(ParseManifest(std::string(text) + "# a comment\n", &m3, &err2) && m3 == m);
  }
  // A name cut from the input survives FormatManifest's quoting.
  const std::string name(text.substr(0, std::min<size_t>(text.size(), control & 0x7f)));
  if (plinth::aof::IsPlainFileName(name)) {
    Manifest one;
    one.incrs.push_back(ManifestFile{name, 7, FileType::kIncr});
    Manifest back;
    Check(ParseManifest(FormatManifest(one), &back, &err2));
    Check(back == one);
  }
  return 0;
}
