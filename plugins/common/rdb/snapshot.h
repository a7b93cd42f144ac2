// The whole keyspace as one RDB file, through the host API: saving every database (from the
// main thread or a forked child) and loading a file back in slices. Shared by the rdb plugin
// (dump.rdb) and the aof plugin (the RDB base of a multi-part AOF). THREAD: as each says.
#pragma once

#include <plinth/plugin.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace plinth::rdb {

class FdSource;
class Reader;
class KeyspaceVisitor;

struct SaveOptions {
  bool compress = true;   // rdbcompression
  bool checksum = true;   // rdbchecksum
  bool aof_base = false;  // the aof-base aux field: the file is an AOF's base
  // When set, counts the keys written so far (a child's progress, read by its parent through
  // shared memory).
  std::atomic<uint64_t>* progress = nullptr;
};

// Writes every database to fd as one RDB version 10 file (not fsynced). Returns true, or false
// with *err. A value whose type has no RDB form fails the save. THREAD: main, or a forked
// child; nothing may change the keyspace meanwhile.
bool SaveKeyspace(plinth_plugin_t* self, int fd, const SaveOptions& options, std::string* err);

// Reads one RDB file from fd into the keyspace with key_load, a slice at a time, skipping keys
// whose time has passed (as a primary does). The keyspace should be empty: a key already there
// is an error. THREAD: main.
class KeyspaceLoader {
 public:
  enum class Status { kMore, kDone, kError };

  // OWNERSHIP: fd is borrowed and must stay open while the loader is used.
  KeyspaceLoader(plinth_plugin_t* self, int fd);
  ~KeyspaceLoader();
  KeyspaceLoader(const KeyspaceLoader&) = delete;
  KeyspaceLoader& operator=(const KeyspaceLoader&) = delete;

  // Loads up to max_keys more keys. kError: error() says why, ending "at offset N".
  Status Step(uint64_t max_keys);
  const std::string& error() const;
  uint64_t keys_loaded() const;
  uint64_t keys_expired() const;
  // Bytes of the file read so far.
  uint64_t offset() const;

 private:
  std::unique_ptr<FdSource> source_;
  std::unique_ptr<KeyspaceVisitor> visitor_;
  std::unique_ptr<Reader> reader_;
};

}  // namespace plinth::rdb
