// The append file (buffering, short and failed writes) and the everysec fsync thread.
#include "aof/append_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "aof/fs_util.h"
#include "aof/fsync_worker.h"

using namespace plinth::aof;

namespace {

std::string TempPath(const char* name) {
  char tmpl[] = "/tmp/aof_test_XXXXXX";
  const char* dir = mkdtemp(tmpl);
  REQUIRE(dir != nullptr);
  return JoinPath(dir, name);
}

}  // namespace

TEST_CASE("aof append file: buffered bytes reach the file on Flush, size follows") {
  const std::string path = TempPath("a.aof");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  REQUIRE(fd >= 0);
  AppendFile f;
  f.Attach(fd, 0);
  f.Add("*1\r\n$4\r\nPING\r\n");
  CHECK(f.buffered() == 14);
  std::string err;
  REQUIRE(f.Flush(&err));
  REQUIRE(f.Sync(&err));
  CHECK(f.buffered() == 0);
  CHECK(f.size() == 14);
  CHECK(FileSize(path) == 14);
  close(f.Detach());
}

TEST_CASE("aof append file: a failed write keeps the data buffered and says why") {
  const int fd = open("/dev/full", O_WRONLY);
  if (fd < 0) return;  // no /dev/full here
  AppendFile f;
  f.Attach(fd, 0);
  f.Add("data");
  std::string err;
  CHECK_FALSE(f.Flush(&err));
  CHECK(f.buffered() == 4);
  CHECK(err.find("error writing to the AOF") != std::string::npos);
  close(f.Detach());
  AppendFile none;
  none.Add("x");
  CHECK_FALSE(none.Flush(&err));
}

TEST_CASE("aof fsync worker: syncs written files periodically and closes retired ones") {
  const std::string path = TempPath("b.aof");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  REQUIRE(fd >= 0);
  FsyncWorker w;
  w.Start(10);
  w.SetFile(fd);
  REQUIRE(write(fd, "x", 1) == 1);
  w.NoteWrite();
  for (int i = 0; i < 200 && w.Syncs() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(w.Syncs() >= 1);
  CHECK(w.Failures() == 0);
  const uint64_t before = w.Syncs();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(w.Syncs() == before);  // nothing new written: no sync
  w.Retire(fd);
  w.Stop();
  CHECK(w.Pending() == 0);
  CHECK(fcntl(fd, F_GETFD) == -1);  // closed by the worker
}

TEST_CASE("aof fsync worker: paused, it does not sync, and stopped, Retire works inline") {
  const std::string path = TempPath("c.aof");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  FsyncWorker w;
  w.Start(5);
  w.SetPaused(true);
  w.SetFile(fd);
  w.NoteWrite();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  CHECK(w.Syncs() == 0);
  w.SetFile(-1);
  w.Stop();
  w.Retire(fd);
  CHECK(fcntl(fd, F_GETFD) == -1);
}

TEST_CASE("aof fs util: atomic replace leaves the new content and no temp file") {
  const std::string path = TempPath("m.manifest");
  const std::string dir = path.substr(0, path.rfind('/'));
  std::string err, text;
  bool missing = false;
  REQUIRE(ReplaceFileAtomically(dir, "m.manifest", "temp-m.manifest", "one\n", &err));
  REQUIRE(ReplaceFileAtomically(dir, "m.manifest", "temp-m.manifest", "two\n", &err));
  REQUIRE(ReadSmallFile(path, &text, &missing, &err));
  CHECK(text == "two\n");
  CHECK_FALSE(PathExists(JoinPath(dir, "temp-m.manifest")));
  CHECK_FALSE(ReadSmallFile(JoinPath(dir, "nope"), &text, &missing, &err));
  CHECK(missing);
}
