// Test-only LD_PRELOAD shim: journals what the kernel would still hold after a power cut for the
// files under one folder, so cut.py can rewrite that folder into its post-power-cut state after
// the test SIGKILLs the process. Any thread; every wrapper calls the kernel through syscall()
// (never dlsym, never malloc) and only async-signal-safe libc, and keeps the caller's errno.
//
// PLINTH_POWERLOSS_LOG=/path/journal   enables it (append-only, one write() per line)
// PLINTH_POWERLOSS_DIR=/path/datadir   tracks only files and folders under this folder
// PLINTH_POWERLOSS_STASH=/path/stash   where inodes about to be unlinked or renamed over are
//                                      hard-linked (default: <journal>.stash; same filesystem)
// Journal lines (paths %XX-escaped; a group is only valid once its "end" line is there):
//   start <seq> <pid> <root> | dirsync <seq> <dir> | syncall <seq> <root>   group headers
//   dir <seq> <dir>   entry <seq> <path> <dev>:<ino> <size> <f|d|l|o>   end <seq>
//   sync <dev>:<ino> <size> <path>          bytes [0, size) of that inode are durable
//   open|rename|unlink|truncate|stash|note ...                             diagnostics only
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(off_t) == 8, "64-bit targets only");

enum { kLineCap = 3 * PATH_MAX + 256, kMaxDepth = 6, kFlagFds = 65536 };

static int g_journal = -1;  // -1: inactive
static dev_t g_journal_dev;
static ino_t g_journal_ino;
static char g_root[PATH_MAX];      // realpath of PLINTH_POWERLOSS_DIR
static char g_root_alt[PATH_MAX];  // the same, as written (absolute), when it differs
static dev_t g_root_dev;
static char g_stash[PATH_MAX];  // empty: no stash
static unsigned long g_seq;
static uint64_t g_epoch;  // tells apart the groups of processes that share a pid (exec)
static unsigned char g_dsync_fds[kFlagFds];  // fds opened O_DSYNC/O_SYNC under the root

// ---- journal lines ----

typedef struct {
  char buf[kLineCap];
  size_t len;
} Line;

static void Add(Line* l, const char* s) {
  while (*s && l->len < kLineCap - 1) l->buf[l->len++] = *s++;
}

static void AddEsc(Line* l, const char* s, size_t n) {
  static const char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < n && l->len < kLineCap - 4; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c <= 0x20 || c >= 0x7f || c == '%') {
      l->buf[l->len++] = '%';
      l->buf[l->len++] = kHex[c >> 4];
      l->buf[l->len++] = kHex[c & 15];
    } else {
      l->buf[l->len++] = (char)c;
    }
  }
}

static void AddU64(Line* l, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n && l->len < kLineCap - 1) l->buf[l->len++] = tmp[--n];
}

static void AddIno(Line* l, const struct stat* st) {
  AddU64(l, (uint64_t)st->st_dev);
  Add(l, ":");
  AddU64(l, (uint64_t)st->st_ino);
}

// Writes the line with one write() so concurrent lines never interleave. Stops journaling when
// the journal's descriptor number has been closed or reused by the program.
static void Emit(Line* l) {
  int fd = __atomic_load_n(&g_journal, __ATOMIC_RELAXED);
  struct stat st;
  if (fd < 0) return;
  if (fstat(fd, &st) != 0 || st.st_dev != g_journal_dev || st.st_ino != g_journal_ino) {
    __atomic_store_n(&g_journal, -1, __ATOMIC_RELAXED);
    return;
  }
  l->buf[l->len++] = '\n';
  syscall(SYS_write, fd, l->buf, l->len);
}

static void NewSeq(char out[48]) {
  Line l;
  l.len = 0;
  AddU64(&l, (uint64_t)syscall(SYS_getpid));
  Add(&l, "-");
  AddU64(&l, g_epoch);
  Add(&l, ".");
  AddU64(&l, __atomic_add_fetch(&g_seq, 1, __ATOMIC_RELAXED));
  memcpy(out, l.buf, l.len);
  out[l.len] = '\0';
}

static void EmitWord2(const char* word, const char* a, const char* path) {
  Line l;
  l.len = 0;
  Add(&l, word);
  Add(&l, " ");
  Add(&l, a);
  Add(&l, " ");
  AddEsc(&l, path, strlen(path));
  Emit(&l);
}

// ---- paths ----

static int Active(void) { return __atomic_load_n(&g_journal, __ATOMIC_RELAXED) >= 0; }

// The canonical path of an open descriptor (from /proc), or -1.
static ssize_t FdPath(int fd, char* out) {
  Line l;
  l.len = 0;
  Add(&l, "/proc/self/fd/");
  AddU64(&l, (uint64_t)fd);
  l.buf[l.len] = '\0';
  ssize_t n = readlink(l.buf, out, PATH_MAX - 1);
  if (n >= 0) out[n] = '\0';
  return n;
}

static int UnderPrefix(const char* path, const char* root) {
  size_t n = strlen(root);
  if (n == 0 || strncmp(path, root, n) != 0) return 0;
  return path[n] == '\0' || path[n] == '/' || (n == 1 && root[0] == '/');
}

static int UnderRoot(const char* path) {
  return UnderPrefix(path, g_root) || (g_root_alt[0] && UnderPrefix(path, g_root_alt));
}

// Removes ".", ".." and repeated slashes from an absolute path, in place.
static void Normalize(char* p) {
  size_t out = 0, i = 0, len = strlen(p);
  while (i < len) {
    while (i < len && p[i] == '/') i++;
    size_t start = i;
    while (i < len && p[i] != '/') i++;
    size_t n = i - start;
    if (n == 0 || (n == 1 && p[start] == '.')) continue;
    if (n == 2 && p[start] == '.' && p[start + 1] == '.') {
      while (out > 0 && p[out - 1] != '/') out--;
      if (out > 0) out--;
      continue;
    }
    p[out++] = '/';
    memmove(p + out, p + start, n);
    out += n;
  }
  if (out == 0) p[out++] = '/';
  p[out] = '\0';
}

// The absolute, lexically normalized form of "path" relative to "dirfd". 0 on success.
static int ResolveAt(int dirfd, const char* path, char* out) {
  size_t base = 0;
  if (path[0] != '/') {
    if (dirfd == AT_FDCWD) {
      if (syscall(SYS_getcwd, out, PATH_MAX) < 0) return -1;
    } else if (FdPath(dirfd, out) < 0) {
      return -1;
    }
    base = strlen(out);
    if (base + 1 >= PATH_MAX) return -1;
    out[base++] = '/';
  }
  size_t n = strlen(path);
  if (base + n >= PATH_MAX) return -1;
  memcpy(out + base, path, n + 1);
  Normalize(out);
  return 0;
}

static int TrackedAt(int dirfd, const char* path, char* abs) {
  return path && ResolveAt(dirfd, path, abs) == 0 && UnderRoot(abs);
}

// ---- listings ----

struct Dirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

static char TypeChar(mode_t m) {
  return S_ISREG(m) ? 'f' : S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : 'o';
}

static void EmitEntry(const char* seq, const char* path, const struct stat* st) {
  Line l;
  char type[2] = {TypeChar(st->st_mode), '\0'};
  l.len = 0;
  Add(&l, "entry ");
  Add(&l, seq);
  Add(&l, " ");
  AddEsc(&l, path, strlen(path));
  Add(&l, " ");
  AddIno(&l, st);
  Add(&l, " ");
  AddU64(&l, (uint64_t)st->st_size);
  Add(&l, " ");
  Add(&l, type);
  Emit(&l);
}

// Journals "dir" and one "entry" per name in the folder "path" (a PATH_MAX buffer it extends
// and restores), and the same for subfolders "depth" levels down.
static void ListDir(const char* seq, char* path, int depth) {
  int dfd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  EmitWord2("dir", seq, path);
  size_t plen = strlen(path);
  char buf[2048];
  long n;
  while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
    for (long pos = 0; pos < n;) {
      struct Dirent64* d = (struct Dirent64*)(buf + pos);
      pos += d->reclen;
      size_t nlen = strlen(d->name);
      struct stat st;
      if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0) continue;
      if (plen + 1 + nlen >= PATH_MAX) continue;
      if (fstatat(dfd, d->name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (st.st_dev == g_journal_dev && st.st_ino == g_journal_ino) continue;
      path[plen] = '/';
      memcpy(path + plen + 1, d->name, nlen + 1);
      EmitEntry(seq, path, &st);
      if (S_ISDIR(st.st_mode) && depth > 0) ListDir(seq, path, depth - 1);
      path[plen] = '\0';
    }
  }
  syscall(SYS_close, dfd);
}

static void EmitHeader(const char* word, const char* seq, const char* path) {
  EmitWord2(word, seq, path);
}

static void EmitEnd(const char* seq) {
  Line l;
  l.len = 0;
  Add(&l, "end ");
  Add(&l, seq);
  Emit(&l);
}

// ---- setup ----

static void CopyAbs(char* out, const char* in) {
  size_t n = strlen(in);
  if (n >= PATH_MAX - 1) return;
  memcpy(out, in, n + 1);
  Normalize(out);
}

__attribute__((constructor)) static void Setup(void) {
  const char* log = getenv("PLINTH_POWERLOSS_LOG");
  const char* dir = getenv("PLINTH_POWERLOSS_DIR");
  const char* stash = getenv("PLINTH_POWERLOSS_STASH");
  struct stat st;
  if (!log || !*log || !dir || !*dir) return;
  if (!realpath(dir, g_root) || stat(g_root, &st) != 0) return;
  g_root_dev = st.st_dev;
  if (dir[0] == '/') CopyAbs(g_root_alt, dir);
  if (strcmp(g_root_alt, g_root) == 0) g_root_alt[0] = '\0';
  int fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  // A high number keeps the journal away from programs that dup2 onto low descriptors.
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 900);
  if (high >= 0) {
    syscall(SYS_close, fd);
    fd = high;
  }
  if (fstat(fd, &st) != 0) return;
  g_journal_dev = st.st_dev;
  g_journal_ino = st.st_ino;
  size_t n = strlen(stash && *stash ? stash : log);
  if (n + 8 < PATH_MAX) {
    memcpy(g_stash, stash && *stash ? stash : log, n + 1);
    if (!(stash && *stash)) memcpy(g_stash + n, ".stash", 7);
    if (syscall(SYS_mkdirat, AT_FDCWD, g_stash, 0755) != 0 && errno != EEXIST) g_stash[0] = 0;
  }
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  g_epoch = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  g_journal = fd;
  char seq[48], path[PATH_MAX];
  NewSeq(seq);
  Line l;
  l.len = 0;
  Add(&l, "start ");
  Add(&l, seq);
  Add(&l, " ");
  AddU64(&l, (uint64_t)getpid());
  Add(&l, " ");
  AddEsc(&l, g_root, strlen(g_root));
  Emit(&l);
  memcpy(path, g_root, strlen(g_root) + 1);
  ListDir(seq, path, kMaxDepth);
  EmitEnd(seq);
}

// ---- durability events ----

static void EmitSync(const struct stat* st, uint64_t size, const char* path) {
  Line l;
  l.len = 0;
  Add(&l, "sync ");
  AddIno(&l, st);
  Add(&l, " ");
  AddU64(&l, size);
  Add(&l, " ");
  AddEsc(&l, path, strlen(path));
  Emit(&l);
}

// fsync/fdatasync: a file's size before the call is durable once it returns 0; a folder's
// entries as listed before the call are durable once it returns 0.
static int SyncFd(long nr, int fd) {
  struct stat st;
  char path[PATH_MAX], seq[48] = "";
  if (!Active() || fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
    return (int)syscall(nr, fd);
  ssize_t known = FdPath(fd, path);
  if (known >= 0 ? !UnderRoot(path) : S_ISDIR(st.st_mode)) return (int)syscall(nr, fd);
  if (known < 0) memcpy(path, "?", 2);
  if (S_ISDIR(st.st_mode)) {
    NewSeq(seq);
    EmitHeader("dirsync", seq, path);
    ListDir(seq, path, 0);
  }
  int r = (int)syscall(nr, fd);
  int saved = errno;
  if (r == 0 && S_ISDIR(st.st_mode)) EmitEnd(seq);
  if (r == 0 && S_ISREG(st.st_mode)) EmitSync(&st, (uint64_t)st.st_size, path);
  errno = saved;
  return r;
}

int fsync(int fd) { return SyncFd(SYS_fsync, fd); }
int fdatasync(int fd) { return SyncFd(SYS_fdatasync, fd); }

// sync/syncfs: every folder and file under the root, as listed before the call.
static long SyncAll(long nr, int fd) {
  char seq[48], path[PATH_MAX];
  NewSeq(seq);
  EmitHeader("syncall", seq, g_root);
  memcpy(path, g_root, strlen(g_root) + 1);
  ListDir(seq, path, kMaxDepth);
  long r = nr == SYS_sync ? syscall(nr) : syscall(nr, fd);
  int saved = errno;
  if (r == 0) EmitEnd(seq);
  errno = saved;
  return r;
}

void sync(void) {
  if (Active())
    SyncAll(SYS_sync, -1);
  else
    syscall(SYS_sync);
}

int syncfs(int fd) {
  struct stat st;
  if (Active() && fstat(fd, &st) == 0 && st.st_dev == g_root_dev)
    return (int)SyncAll(SYS_syncfs, fd);
  return (int)syscall(SYS_syncfs, fd);
}

// Writes through an O_DSYNC/O_SYNC descriptor are durable when they return.
static void AfterDsyncWrite(int fd, off_t offset, ssize_t written) {
  struct stat st;
  char path[PATH_MAX];
  int saved = errno;
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0 && (fl & O_DSYNC) && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    off_t end = offset >= 0 ? offset + written : lseek(fd, 0, SEEK_CUR);
    if (end >= 0 && FdPath(fd, path) >= 0 && UnderRoot(path)) EmitSync(&st, (uint64_t)end, path);
  }
  errno = saved;
}

static int Flagged(int fd) {
  return fd >= 0 && fd < kFlagFds && __atomic_load_n(&g_dsync_fds[fd], __ATOMIC_RELAXED);
}

ssize_t write(int fd, const void* buf, size_t n) {
  ssize_t r = syscall(SYS_write, fd, buf, n);
  if (r > 0 && Flagged(fd)) AfterDsyncWrite(fd, -1, r);
  return r;
}

ssize_t writev(int fd, const struct iovec* iov, int cnt) {
  ssize_t r = syscall(SYS_writev, fd, iov, cnt);
  if (r > 0 && Flagged(fd)) AfterDsyncWrite(fd, -1, r);
  return r;
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  ssize_t r = syscall(SYS_pwrite64, fd, buf, n, off);
  if (r > 0 && Flagged(fd)) AfterDsyncWrite(fd, off, r);
  return r;
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  return pwrite(fd, buf, n, (off_t)off);
}

// ---- namespace events (diagnostics, plus the stash) ----

static void EmitFlags(const char* word, const char* path, long value) {
  Line l;
  l.len = 0;
  Add(&l, word);
  Add(&l, " ");
  AddEsc(&l, path, strlen(path));
  Add(&l, " ");
  AddU64(&l, (uint64_t)value);
  Emit(&l);
}

static int OpenCommon(int dirfd, const char* path, int flags, mode_t mode) {
  int fd = (int)syscall(SYS_openat, dirfd, path, flags, mode);
  if (fd < 0 || !Active() || !(flags & (O_CREAT | O_TRUNC | O_DSYNC))) return fd;
  int saved = errno;
  char abs[PATH_MAX];
  if (FdPath(fd, abs) >= 0 && UnderRoot(abs)) {
    if (flags & (O_CREAT | O_TRUNC)) EmitFlags("open", abs, flags);
    if ((flags & O_DSYNC) && fd < kFlagFds) __atomic_store_n(&g_dsync_fds[fd], 1, __ATOMIC_RELAXED);
  }
  errno = saved;
  return fd;
}

static mode_t ModeArg(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  return OpenCommon(AT_FDCWD, path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  return OpenCommon(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  return OpenCommon(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  return OpenCommon(dirfd, path, flags, mode);
}

// What _FORTIFY_SOURCE callers reach when they pass no mode.
int __open_2(const char* path, int flags) { return OpenCommon(AT_FDCWD, path, flags, 0); }
int __open64_2(const char* path, int flags) { return OpenCommon(AT_FDCWD, path, flags, 0); }
int __openat_2(int dirfd, const char* path, int flags) { return OpenCommon(dirfd, path, flags, 0); }
int __openat64_2(int dirfd, const char* path, int flags) {
  return OpenCommon(dirfd, path, flags, 0);
}

int creat(const char* path, mode_t mode) {
  return OpenCommon(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}
int creat64(const char* path, mode_t mode) { return creat(path, mode); }

// Hard-links a regular file that is about to lose its name into the stash, so cut.py can put
// it back when that name change never became durable.
static void Stash(int dirfd, const char* path, const char* abs) {
  struct stat st;
  char name[PATH_MAX];
  if (!g_stash[0] || fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
    return;
  Line l;
  l.len = 0;
  Add(&l, g_stash);
  Add(&l, "/");
  AddU64(&l, (uint64_t)st.st_dev);
  Add(&l, "_");
  AddU64(&l, (uint64_t)st.st_ino);
  memcpy(name, l.buf, l.len);
  name[l.len] = '\0';
  long r = syscall(SYS_linkat, dirfd, path, AT_FDCWD, name, 0);
  l.len = 0;
  Add(&l, r == 0 || errno == EEXIST ? "stash " : "note stash-failed ");
  AddIno(&l, &st);
  Add(&l, " ");
  AddEsc(&l, abs, strlen(abs));
  Emit(&l);
}

static int RenameCommon(int olddfd, const char* old, int newdfd, const char* new_path,
                        unsigned flags) {
  char abs_old[PATH_MAX], abs_new[PATH_MAX];
  int tracked = Active() && TrackedAt(newdfd, new_path, abs_new);
  int saved = errno;
  // RENAME_NOREPLACE (1) and RENAME_EXCHANGE (2) never drop an inode.
  if (tracked && (flags & 3) == 0) Stash(newdfd, new_path, abs_new);
  errno = saved;
  long r;
#ifdef SYS_renameat
  if (flags == 0)
    r = syscall(SYS_renameat, olddfd, old, newdfd, new_path);
  else
#endif
    r = syscall(SYS_renameat2, olddfd, old, newdfd, new_path, flags);
  saved = errno;
  if (r == 0 && Active() && (tracked || TrackedAt(olddfd, old, abs_old))) {
    if (!tracked) ResolveAt(newdfd, new_path, abs_new);
    if (ResolveAt(olddfd, old, abs_old) != 0) memcpy(abs_old, "?", 2);
    Line l;
    l.len = 0;
    Add(&l, "rename ");
    AddEsc(&l, abs_old, strlen(abs_old));
    Add(&l, " ");
    AddEsc(&l, abs_new, strlen(abs_new));
    Emit(&l);
  }
  errno = saved;
  return (int)r;
}

int rename(const char* old, const char* new_path) {
  return RenameCommon(AT_FDCWD, old, AT_FDCWD, new_path, 0);
}
int renameat(int od, const char* old, int nd, const char* new_path) {
  return RenameCommon(od, old, nd, new_path, 0);
}
int renameat2(int od, const char* old, int nd, const char* new_path, unsigned flags) {
  return RenameCommon(od, old, nd, new_path, flags);
}

static int UnlinkCommon(int dirfd, const char* path, int flags) {
  char abs[PATH_MAX];
  int saved = errno;
  int tracked = Active() && TrackedAt(dirfd, path, abs);
  if (tracked && !(flags & AT_REMOVEDIR)) Stash(dirfd, path, abs);
  errno = saved;
  long r = syscall(SYS_unlinkat, dirfd, path, flags);
  saved = errno;
  if (r == 0 && tracked) EmitFlags("unlink", abs, flags);
  errno = saved;
  return (int)r;
}

int unlink(const char* path) { return UnlinkCommon(AT_FDCWD, path, 0); }
int unlinkat(int dirfd, const char* path, int flags) { return UnlinkCommon(dirfd, path, flags); }

int truncate(const char* path, off_t len) {
  char abs[PATH_MAX];
  long r = syscall(SYS_truncate, path, len);
  int saved = errno;
  if (r == 0 && Active() && TrackedAt(AT_FDCWD, path, abs)) EmitFlags("truncate", abs, len);
  errno = saved;
  return (int)r;
}
int truncate64(const char* path, off64_t len) { return truncate(path, (off_t)len); }

int ftruncate(int fd, off_t len) {
  char abs[PATH_MAX];
  long r = syscall(SYS_ftruncate, fd, len);
  int saved = errno;
  if (r == 0 && Active() && FdPath(fd, abs) >= 0 && UnderRoot(abs)) EmitFlags("truncate", abs, len);
  errno = saved;
  return (int)r;
}
int ftruncate64(int fd, off64_t len) { return ftruncate(fd, (off_t)len); }
