// A stream's RDB forms, Redis's own: the node count, each node as its master id (16 raw bytes,
// big endian, as an RDB string) and its listpack as an RDB string, the length, last id, first
// id, largest deleted id and entries added, then the groups (name, last id, read counter, PEL
// with 8-byte delivery times through write_raw, consumers with their seen time and PEL ids).
// Saves PLINTH_RDB_STREAM_LISTPACKS_2 (what Redis 7.0 reads); loads _1, _2 and _3 (Redis 7.4's,
// with each consumer's active time). THREAD: the caller's (main, or a forked child).
#ifndef PLINTH_STREAM_RDB_H
#define PLINTH_STREAM_RDB_H

#include <plinth/plugin.h>

#include <memory>

#include "stream/stream.h"

namespace plinth::stream {

// Writes s through io in the _2 form. False when io failed.
bool SaveStream(const Stream& s, plinth_rdb_io_t* io);
// Reads a stream of form rdb_type; nullptr when the input is malformed or the form unknown.
std::unique_ptr<Stream> LoadStream(uint32_t rdb_type, plinth_rdb_io_t* io);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_RDB_H
