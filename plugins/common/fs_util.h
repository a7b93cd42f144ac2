// File helpers of the bundled plugins (the AOF and its checker, the ACL file): whole-file reads
// through mmap, writes that survive partial writes and EINTR, atomic replacement (temp file,
// fsync, rename, fsync of the directory) and directory fsync. POSIX only; any thread; errors
// come back as text with errno.
#ifndef PLINTH_COMMON_FS_UTIL_H
#define PLINTH_COMMON_FS_UTIL_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::common {

// A read-only mapping of a whole file (empty files map to an empty view).
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  // Maps path. Returns false with *err ("<path>: <strerror>") when it cannot be opened/mapped.
  bool Open(const std::string& path, std::string* err);
  std::string_view data() const { return {static_cast<const char*>(addr_), size_}; }
  void Close();

 private:
  void* addr_ = nullptr;
  size_t size_ = 0;
};

// "<dir>/<name>" (name alone when dir is empty).
std::string JoinPath(std::string_view dir, std::string_view name);

// Writes all of data to fd, retrying short writes and EINTR. Returns the bytes written (less
// than data.size() only on an error, errno set).
size_t WriteFully(int fd, std::string_view data);

// fsyncs a directory so that renames and creations in it are durable. false with errno set.
bool FsyncDir(const std::string& dir);

// Creates the folder dir (the AOF's) inside parent (fine when it exists) and fsyncs parent, so
// the folder itself survives a power cut. false with *err.
bool MakeAofDir(const std::string& parent, const std::string& dir, std::string* err);

// Replaces dir/name with content atomically: writes dir/temp_name, fsyncs it, renames it over
// dir/name and fsyncs dir. Returns false with *err on any failure (the old file stays).
bool ReplaceFileAtomically(const std::string& dir, const std::string& name,
                           const std::string& temp_name, std::string_view content,
                           std::string* err);

// Reads a whole small file (a manifest, the ACL file). false with *err; *missing set when it does
// not exist.
bool ReadSmallFile(const std::string& path, std::string* out, bool* missing, std::string* err);

// The size of a file, or -1 when it cannot be stat'ed.
int64_t FileSize(const std::string& path);

// Whether path exists (any kind of file).
bool PathExists(const std::string& path);

// "<what> <path>: <strerror(errno)>".
std::string ErrnoText(std::string_view what, const std::string& path);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_FS_UTIL_H
