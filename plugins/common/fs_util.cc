// File helpers (see fs_util.h).
#include "common/fs_util.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plinth::common {

MappedFile::~MappedFile() { Close(); }

void MappedFile::Close() {
  if (addr_ != nullptr) munmap(addr_, size_);
  addr_ = nullptr;
  size_ = 0;
}

bool MappedFile::Open(const std::string& path, std::string* err) {
  Close();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = ErrnoText("can't open", path);
    return false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    *err = ErrnoText("can't stat", path);
    close(fd);
    return false;
  }
  if (st.st_size > 0) {
    void* a = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (a == MAP_FAILED) {
      *err = ErrnoText("can't map", path);
      close(fd);
      return false;
    }
    addr_ = a;
    size_ = static_cast<size_t>(st.st_size);
  }
  close(fd);
  return true;
}

std::string JoinPath(std::string_view dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string out(dir);
  if (out.back() != '/') out += '/';
  out += name;
  return out;
}

size_t WriteFully(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return done;
    }
    if (n == 0) {
      errno = ENOSPC;
      return done;
    }
    done += static_cast<size_t>(n);
  }
  return done;
}

bool MakeAofDir(const std::string& parent, const std::string& dir, std::string* err) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    *err = "can't create the AOF directory " + dir + ": " + std::strerror(errno);
    return false;
  }
  if (!FsyncDir(parent)) {
    *err = "can't fsync " + parent + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool FsyncDir(const std::string& dir) {
  const int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = fsync(fd) == 0;
  const int saved = errno;
  close(fd);
  errno = saved;
  return ok;
}

bool ReplaceFileAtomically(const std::string& dir, const std::string& name,
                           const std::string& temp_name, std::string_view content,
                           std::string* err) {
  const std::string tmp = JoinPath(dir, temp_name), dst = JoinPath(dir, name);
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = ErrnoText("can't create", tmp);
    return false;
  }
  if (WriteFully(fd, content) != content.size() || fsync(fd) != 0) {
    *err = ErrnoText("can't write", tmp);
    close(fd);
    unlink(tmp.c_str());
    return false;
  }
  close(fd);
  if (rename(tmp.c_str(), dst.c_str()) != 0) {
    *err = ErrnoText("can't rename to " + dst + ":", tmp);
    unlink(tmp.c_str());
    return false;
  }
  if (!FsyncDir(dir)) {
    *err = ErrnoText("can't fsync directory", dir);
    return false;
  }
  return true;
}

bool ReadSmallFile(const std::string& path, std::string* out, bool* missing, std::string* err) {
  *missing = false;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *missing = errno == ENOENT;
    *err = ErrnoText("can't open", path);
    return false;
  }
  out->clear();
  char buf[4096];
  while (true) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = ErrnoText("can't read", path);
      close(fd);
      return false;
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return true;
}

int64_t FileSize(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return -1;
  return st.st_size;
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

std::string ErrnoText(std::string_view what, const std::string& path) {
  return std::string(what) + " " + path + ": " + std::strerror(errno);
}

}  // namespace plinth::common
