// plinth-check-aof's checks (see checker.h).
#include "aof/check/checker.h"

#include <unistd.h>

#include <vector>

#include "aof/aof_reader.h"
#include "aof/fs_util.h"
#include "aof/manifest.h"

namespace plinth::aof {
namespace {

struct Target {
  std::string name, path;
  bool base = false;
};

bool IsManifest(const std::string& path, std::string* text) {
  bool missing = false;
  std::string err;
  const bool named = path.size() > 9 && path.compare(path.size() - 9, 9, ".manifest") == 0;
  if (!ReadSmallFile(path, text, &missing, &err)) return named;
  return named || text->rfind("file ", 0) == 0;
}

// An RDB preamble: "REDIS" and four digits. The codec's full check is not linked here.
bool CheckRdbMagic(std::string_view data, std::string* err) {
  if (data.size() < 9) {
    *err = "RDB preamble shorter than its header at offset " + std::to_string(data.size());
    return false;
  }
  for (size_t i = 5; i < 9; ++i)
    if (data[i] < '0' || data[i] > '9') {
      *err = "bad RDB version in the preamble at offset " + std::to_string(i);
      return false;
    }
  return true;
}

int CheckFile(const Target& t, bool last, bool fix, std::ostream& out) {
  MappedFile map;
  std::string err;
  if (!map.Open(t.path, &err)) {
    out << err << "\n";
    return 1;
  }
  const std::string_view data = map.data();
  if (data.substr(0, 5) == "REDIS") {
    if (!t.base || !CheckRdbMagic(data, &err)) {
      out << t.name << ": " << (t.base ? err : "RDB data in an incr file at offset 0") << "\n";
      return 1;
    }
    out << t.name << ": RDB base (header checked)\n";
    return 0;
  }
  const ScanResult r = ScanAof(data);
  if (r.status == AofReader::Status::kEnd) {
    out << t.name << ": " << r.commands << " commands, valid\n";
    return 0;
  }
  out << t.name << ": " << r.error << "\n";
  if (r.status == AofReader::Status::kError) return 1;
  if (!last) {
    out << t.name << ": truncated, but it is not the last file: can't fix\n";
    return 1;
  }
  if (!fix) {
    out << "AOF " << t.name << " is truncated; run with --fix to cut it to offset "
        << r.valid_prefix << " (" << data.size() - r.valid_prefix << " bytes)\n";
    return 1;
  }
  const size_t size = data.size();
  map.Close();
  if (truncate(t.path.c_str(), static_cast<off_t>(r.valid_prefix)) != 0) {
    out << ErrnoText("can't truncate", t.path) << "\n";
    return 1;
  }
  out << "Successfully truncated AOF " << t.name << " to offset " << r.valid_prefix << ", cutting "
      << size - r.valid_prefix << " bytes\n";
  return 0;
}

}  // namespace

int CheckAof(const std::string& path, bool fix, std::ostream& out) {
  std::vector<Target> targets;
  std::string text;
  if (IsManifest(path, &text)) {
    Manifest m;
    std::string err;
    if (!ParseManifest(text, &m, &err)) {
      out << "bad manifest " << path << ": " << err << "\n";
      return 1;
    }
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
    if (m.base) targets.push_back({m.base->name, JoinPath(dir, m.base->name), true});
    for (const ManifestFile& f : m.incrs) targets.push_back({f.name, JoinPath(dir, f.name)});
  } else {
    const size_t slash = path.rfind('/');
    targets.push_back({slash == std::string::npos ? path : path.substr(slash + 1), path, true});
  }
  for (size_t i = 0; i < targets.size(); ++i)
    if (CheckFile(targets[i], i + 1 == targets.size(), fix, out) != 0) return 1;
  out << "AOF is valid\n";
  return 0;
}

}  // namespace plinth::aof
