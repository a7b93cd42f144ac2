// Writing and reading the AOF base file. A base is either an RDB file (aof-use-rdb-preamble
// yes; written and read by the RDB snapshot library in plugins/common/rdb) or AOF commands
// rebuilding every key (SELECT, SET / RPUSH / SADD / HSET / ZADD, PEXPIREAT), generated from
// db_visit and each collection's plain RDB form. THREAD: main, or a forked child (the writers).
#ifndef PLINTH_AOF_BASE_FILE_H
#define PLINTH_AOF_BASE_FILE_H

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>

#include "common/rdb/snapshot.h"

namespace plinth::aof {

// Writes a base holding every database to fd (not fsynced; with incremental_fsync, synced
// every 4 MiB as it goes): RDB when rdb, else AOF commands. Returns false with *err on a
// write error or a value no form can express.
bool WriteBase(plinth_plugin_t* self, int fd, bool rdb, bool incremental_fsync, std::string* err);

// Writes the AOF-command form of every database to fd (see WriteBase).
bool WriteAofBase(plinth_plugin_t* self, int fd, bool incremental_fsync, std::string* err);

// Loads an RDB base (or the RDB preamble of a legacy single-file AOF) into the keyspace in
// slices; offset() after kDone is the end of the RDB part. THREAD: main.
using RdbBaseLoader = rdb::KeyspaceLoader;

}  // namespace plinth::aof

#endif  // PLINTH_AOF_BASE_FILE_H
