// The AOF manifest parser and formatter (see manifest.h).
#include "aof/manifest.h"

#include <plinth/text.hpp>

namespace plinth::aof {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads a "..." token starting at line[*i] == '"' (Redis's sdssplitargs rules). Returns false
// on an unterminated quote or a closing quote not followed by a space or the line's end.
bool ReadDoubleQuoted(std::string_view line, size_t* i, std::string* out) {
  for (size_t p = *i + 1; p < line.size(); ++p) {
    char c = line[p];
    if (c == '\\' && p + 3 < line.size() && line[p + 1] == 'x' && HexValue(line[p + 2]) >= 0 &&
        HexValue(line[p + 3]) >= 0) {
      out->push_back(static_cast<char>(HexValue(line[p + 2]) * 16 + HexValue(line[p + 3])));
      p += 3;
    } else if (c == '\\' && p + 1 < line.size()) {
      char e = line[++p];
      out->push_back(e == 'n'   ? '\n'
                     : e == 'r' ? '\r'
                     : e == 't' ? '\t'
                     : e == 'b' ? '\b'
                     : e == 'a' ? '\a'
                                : e);
    } else if (c == '"') {
      if (p + 1 < line.size() && line[p + 1] != ' ' && line[p + 1] != '\t') return false;
      *i = p + 1;
      return true;
    } else {
      out->push_back(c);
    }
  }
  return false;
}

bool ReadSingleQuoted(std::string_view line, size_t* i, std::string* out) {
  for (size_t p = *i + 1; p < line.size(); ++p) {
    if (line[p] == '\\' && p + 1 < line.size() && line[p + 1] == '\'') {
      out->push_back('\'');
      ++p;
    } else if (line[p] == '\'') {
      if (p + 1 < line.size() && line[p + 1] != ' ' && line[p + 1] != '\t') return false;
      *i = p + 1;
      return true;
    } else {
      out->push_back(line[p]);
    }
  }
  return false;
}

// Splits a line into tokens: bare words, "double" or 'single' quoted strings.
bool SplitArgs(std::string_view line, std::vector<std::string>* out) {
  size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) return true;
    std::string tok;
    if (line[i] == '"') {
      if (!ReadDoubleQuoted(line, &i, &tok)) return false;
    } else if (line[i] == '\'') {
      if (!ReadSingleQuoted(line, &i, &tok)) return false;
    } else {
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') tok.push_back(line[i++]);
    }
    out->push_back(std::move(tok));
  }
}

bool ParseSeq(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 18 || s[0] == '0') return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool Fail(std::string* err, const std::string& why, size_t line_no, size_t offset) {
  *err = why + " at line " + std::to_string(line_no) + " (offset " + std::to_string(offset) + ")";
  return false;
}

// Parses one non-comment line (without its newline) into *f. Returns the reason on failure.
const char* ParseLine(std::string_view line, ManifestFile* f) {
  std::vector<std::string> argv;
  if (!SplitArgs(line, &argv)) return "unbalanced quotes in the AOF manifest";
  if (argv.size() < 6 || argv.size() % 2 != 0) return "invalid AOF manifest line format";
  bool have_name = false, have_seq = false, have_type = false;
  for (size_t k = 0; k < argv.size(); k += 2) {
    const std::string& key = argv[k];
    const std::string& val = argv[k + 1];
    if (key == "file") {
      if (!IsPlainFileName(val)) return "invalid AOF file name in the manifest";
      f->name = val;
      have_name = true;
    } else if (key == "seq") {
      if (!ParseSeq(val, &f->seq)) return "invalid AOF file sequence number in the manifest";
      have_seq = true;
    } else if (key == "type") {
      if (val != "b" && val != "h" && val != "i") return "unknown AOF file type in the manifest";
      f->type = static_cast<FileType>(val[0]);
      have_type = true;
    }
  }
  if (!have_name || !have_seq || !have_type) return "incomplete AOF manifest line";
  return nullptr;
}

}  // namespace

bool ParseManifest(std::string_view text, Manifest* out, std::string* err) {
  Manifest m;
  size_t pos = 0, line_no = 0;
  bool any = false;
  while (pos < text.size()) {
    ++line_no;
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos)
      return Fail(err, "the AOF manifest ends without a newline", line_no, pos);
    std::string_view line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t start = pos;
    pos = nl + 1;
    if (line.empty() || line[0] == '#') continue;
    ManifestFile f;
    if (const char* why = ParseLine(line, &f)) return Fail(err, why, line_no, start);
    if (f.type == FileType::kBase) {
      if (m.base) return Fail(err, "found a duplicate base file in the manifest", line_no, start);
      m.base = f;
    } else if (f.type == FileType::kHistory) {
      m.history.push_back(f);
    } else {
      if (!m.incrs.empty() && f.seq <= m.incrs.back().seq)
        return Fail(err, "found a non-monotonic incr sequence number", line_no, start);
      m.incrs.push_back(f);
    }
    any = true;
  }
  if (!any) return Fail(err, "found an empty AOF manifest", line_no, pos);
  *out = std::move(m);
  return true;
}

std::string QuoteIfNeeded(std::string_view s) {
  bool plain = !s.empty();
  for (unsigned char c : s)
    if (c <= ' ' || c >= 127 || c == '"' || c == '\'' || c == '\\') plain = false;
  return plain ? std::string(s) : text::QuoteRepr(s);
}

std::string FormatManifest(const Manifest& m) {
  std::string out;
  auto line = [&out](const ManifestFile& f) {
    out += "file " + QuoteIfNeeded(f.name) + " seq " + std::to_string(f.seq) + " type ";
    out.push_back(static_cast<char>(f.type));
    out += "\n";
  };
  if (m.base) line(*m.base);
  for (const ManifestFile& f : m.history) line(f);
  for (const ManifestFile& f : m.incrs) line(f);
  return out;
}

std::string BaseFileName(std::string_view prefix, int64_t seq, bool rdb) {
  return std::string(prefix) + "." + std::to_string(seq) + (rdb ? ".base.rdb" : ".base.aof");
}

std::string IncrFileName(std::string_view prefix, int64_t seq) {
  return std::string(prefix) + "." + std::to_string(seq) + ".incr.aof";
}

std::string ManifestFileName(std::string_view prefix) { return std::string(prefix) + ".manifest"; }

std::string TempManifestFileName(std::string_view prefix) {
  return "temp-" + std::string(prefix) + ".manifest";
}

bool IsPlainFileName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

}  // namespace plinth::aof
