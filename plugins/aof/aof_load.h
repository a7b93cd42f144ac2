// State of the startup load of the AOF files (aof_load.cc): the files the manifest lists, the
// one being read (mapped), its reader, and the internal client the commands run as. Main
// thread.
#ifndef PLINTH_AOF_AOF_LOAD_H
#define PLINTH_AOF_AOF_LOAD_H

#include <plinth/plugin.h>

#include <memory>
#include <string>
#include <vector>

#include "aof/aof_reader.h"
#include "aof/base_file.h"
#include "aof/fs_util.h"

namespace plinth::aof {

// Commands (or RDB keys) loaded per loop turn; clients get -LOADING between turns.
inline constexpr size_t kLoadSlice = 1000;

class Loader {
 public:
  struct File {
    std::string name, path;
    bool base = false;
  };
  explicit Loader(plinth_client_t* client) : client_(client) {}
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  std::vector<File> files;
  size_t index = 0;   // the file being read
  MappedFile map;     // its bytes, once opened
  bool open = false;  // map holds files[index]
  std::unique_ptr<AofReader> reader;
  int rdb_fd = -1;  // while its RDB part loads
  std::unique_ptr<RdbBaseLoader> rdb;
  uint64_t commands = 0;  // run so far, all files
  int64_t start_us = 0;
  plinth_client_t* client() const { return client_; }
  // Closes the current file and moves to the next.
  void NextFile();

 private:
  plinth_client_t* client_;
};

}  // namespace plinth::aof

#endif  // PLINTH_AOF_AOF_LOAD_H
