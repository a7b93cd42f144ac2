// The "hash" value type: its callbacks for the host (free, copy, memory usage, encoding name,
// lazy-free effort, RDB save and load in the plain PLINTH_RDB_HASH form) and its registered id.
#ifndef PLINTH_HASH_TYPE_H
#define PLINTH_HASH_TYPE_H

#include <plinth/plugin.h>

#include <cstdint>

#include "hash/hash_value.h"

namespace plinth::hash {

// The type's spec (static). THREAD: any.
const plinth_type_spec_t& HashTypeSpec();

// Registers the type with the host. Returns false on failure. THREAD: main, init only.
bool RegisterHashType();

// The id type_register gave ("hash"); 0 before RegisterHashType. THREAD: main.
uint32_t HashTypeId();

// Writes h as PLINTH_RDB_HASH: the pair count, then each field and value string. Returns
// PLINTH_OK or PLINTH_ERR (a write failed). THREAD: any.
int32_t SaveHash(const Hash& h, plinth_rdb_io_t* io);

// Reads a PLINTH_RDB_HASH payload. Returns a new hash (the caller owns it), or nullptr when
// rdb_type is another form, the input is short or malformed (zero pairs, a duplicate field),
// or memory ran out. The encoding follows limits. THREAD: any.
Hash* LoadHash(uint32_t rdb_type, plinth_rdb_io_t* io, const Limits& limits);

}  // namespace plinth::hash

#endif  // PLINTH_HASH_TYPE_H
