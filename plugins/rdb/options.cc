// The rdb plugin's options. "dir" is shared: the aof plugin finds it with option_find, so it
// stays a plain path the plugins prefix (the process does not chdir, which would move relative
// plugin paths loaded after this one).
#include "rdb/options.h"

#include <unistd.h>

#include <cstring>
#include <plinth/plugin.hpp>
#include <string_view>

#include "rdb/snapshots.h"

namespace plinth::rdb {
namespace {

Options g_options;

void Refuse(const char* why, char* err, size_t errlen) {
  if (err && errlen) {
    std::strncpy(err, why, errlen - 1);
    err[errlen - 1] = '\0';
  }
}

int32_t ApplyDir(void*, const char*, const char* value, size_t len, int64_t, char* err,
                 size_t errlen) {
  const std::string dir(value, len);
  if (!dir.empty() && access(dir.c_str(), W_OK | X_OK) != 0) {
    Refuse(std::strerror(errno), err, errlen);
    return PLINTH_ERR;
  }
  return PLINTH_OK;
}

int32_t ApplyFilename(void*, const char*, const char* value, size_t len, int64_t, char* err,
                      size_t errlen) {
  const std::string_view name(value, len);
  if (name.empty() || name.find('/') != std::string_view::npos) {
    Refuse("dbfilename can't be a path, just a filename", err, errlen);
    return PLINTH_ERR;
  }
  return PLINTH_OK;
}

int32_t ApplySave(void*, const char*, const char* value, size_t len, int64_t, char* err,
                  size_t errlen) {
  return Instance().ApplySave(value, len, err, errlen);
}

}  // namespace

const Options& Opts() { return g_options; }

bool RegisterOptions(Options* o) {
  using sdk::RegisterOption;
  constexpr uint32_t kFlags = PLINTH_OPT_GLOBAL_NAME | PLINTH_OPT_MUTABLE;
  // A path a client could point anywhere (Redis's protected configs).
  constexpr uint32_t kPath = kFlags | PLINTH_OPT_PROTECTED;
  o->dir = RegisterOption("dir", PLINTH_OPT_STRING, kPath, ".", 0, 0,
                          "the folder dump.rdb and the append-only folder live in", &ApplyDir);
  o->dbfilename = RegisterOption("dbfilename", PLINTH_OPT_STRING, kPath, "dump.rdb", 0, 0,
                                 "the RDB file's name inside dir", &ApplyFilename);
  o->save = RegisterOption("save", PLINTH_OPT_STRING, kFlags, "3600 1 300 100 60 10000", 0, 0,
                           "save points: \"<seconds> <changes>\" pairs, \"\" for none", &ApplySave);
  o->compression = RegisterOption("rdbcompression", PLINTH_OPT_BOOL, kFlags, "yes", 0, 0,
                                  "LZF-compress strings longer than 20 bytes in RDB files");
  o->checksum = RegisterOption("rdbchecksum", PLINTH_OPT_BOOL, kFlags, "yes", 0, 0,
                               "end RDB files with a CRC64 and check it when loading");
  o->key_save_delay =
      RegisterOption("rdb-key-save-delay", PLINTH_OPT_INT, kFlags, "0", 0, 1000000000,
                     "microseconds a BGSAVE child sleeps per key (for tests)");
  g_options = *o;
  return o->dir && o->dbfilename && o->save && o->compression && o->checksum && o->key_save_delay;
}

std::string InDir(const std::string& name) {
  const std::string dir = sdk::OptionString(g_options.dir);
  if (dir.empty() || dir == ".") return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

}  // namespace plinth::rdb
