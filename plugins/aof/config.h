// The AOF plugin's settings, mirrored from its options by their apply callbacks (options.cc):
// Redis 7.0's names and defaults. Main thread.
#ifndef PLINTH_AOF_CONFIG_H
#define PLINTH_AOF_CONFIG_H

#include <cstdint>
#include <string>

namespace plinth::aof {

enum class FsyncPolicy { kAlways = 0, kEverysec = 1, kNo = 2 };  // the enum option's order

struct Config {
  bool appendonly = false;
  std::string filename = "appendonly.aof";
  std::string dirname = "appendonlydir";
  FsyncPolicy fsync = FsyncPolicy::kEverysec;
  bool no_fsync_on_rewrite = false;
  int64_t rewrite_percentage = 100;
  int64_t rewrite_min_size = int64_t{64} << 20;
  bool load_truncated = true;
  bool use_rdb_preamble = true;
  bool timestamp_enabled = false;
  bool rewrite_incremental_fsync = true;
};

}  // namespace plinth::aof

#endif  // PLINTH_AOF_CONFIG_H
