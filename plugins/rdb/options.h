// The rdb plugin's options, under Redis's names: dir, dbfilename, save, rdbcompression,
// rdbchecksum, rdb-key-save-delay. Handles are set by RegisterOptions (init); reads are field
// reads. Main thread.
#pragma once

#include <plinth/plugin.h>

#include <string>

namespace plinth::rdb {

struct Options {
  const plinth_option_t* dir = nullptr;
  const plinth_option_t* dbfilename = nullptr;
  const plinth_option_t* save = nullptr;
  const plinth_option_t* compression = nullptr;
  const plinth_option_t* checksum = nullptr;
  const plinth_option_t* key_save_delay = nullptr;  // microseconds per key in a child (tests)
};

// Registers every option. false when the host refused one (its configured value is invalid).
bool RegisterOptions(Options* o);
const Options& Opts();

// dir joined with name ("dir/name"; name alone when dir is "" or ".").
std::string InDir(const std::string& name);

}  // namespace plinth::rdb
