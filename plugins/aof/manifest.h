// The Redis 7 multi-part AOF manifest: one line per file, "file <name> seq <n> type <b|h|i>",
// naming the base file, the incremental files in order and history files awaiting deletion.
// Parsing is strict (a bad line is refused with its line number and byte offset); formatting
// quotes names the way Redis does. Pure C++, no ABI types; any thread.
#ifndef PLINTH_AOF_MANIFEST_H
#define PLINTH_AOF_MANIFEST_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::aof {

enum class FileType : char { kBase = 'b', kHistory = 'h', kIncr = 'i' };

struct ManifestFile {
  std::string name;
  int64_t seq = 0;
  FileType type = FileType::kIncr;
  bool operator==(const ManifestFile&) const = default;
};

struct Manifest {
  std::optional<ManifestFile> base;
  std::vector<ManifestFile> incrs;    // in seq order, the last one is appended to
  std::vector<ManifestFile> history;  // superseded files, deleted after a rewrite
  bool operator==(const Manifest&) const = default;

  // The highest base and incr seq numbers (0 when none), to name the next files.
  int64_t LastBaseSeq() const { return base ? base->seq : 0; }
  int64_t LastIncrSeq() const { return incrs.empty() ? 0 : incrs.back().seq; }
};

// Parses a manifest. Returns false with err set to "<reason> at line N (offset M)" when a line
// is malformed, misses a key, repeats the base, or numbers incr files out of order, or when
// the text ends without a newline or lists no file. Lines starting with '#' are comments and
// unknown keys are ignored, as Redis does.
bool ParseManifest(std::string_view text, Manifest* out, std::string* err);

// The manifest as text (base, then history, then incr files), names quoted where needed.
std::string FormatManifest(const Manifest& m);

// Quotes s as Redis's sdscatrepr does ("..." with \n \r \t \a \b \\ \" \xHH escapes) when it is
// empty or holds a space, a quote, a backslash or a byte that is not printable; else s itself.
std::string QuoteIfNeeded(std::string_view s);

// File names of the layout: "<prefix>.<seq>.base.rdb" / ".base.aof", "<prefix>.<seq>.incr.aof",
// "<prefix>.manifest" and the temporary manifest written before the rename.
std::string BaseFileName(std::string_view prefix, int64_t seq, bool rdb);
std::string IncrFileName(std::string_view prefix, int64_t seq);
std::string ManifestFileName(std::string_view prefix);
std::string TempManifestFileName(std::string_view prefix);

// A name that is a plain file name: not empty, no '/', not "." or "..". appendfilename and
// appenddirname must be (Redis refuses paths there too).
bool IsPlainFileName(std::string_view name);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_MANIFEST_H
