// The "zset" value type: its registration and the callbacks the host calls on a payload (free,
// copy, memory, encoding, free effort, RDB save/load in the plain PLINTH_RDB_ZSET_2 form).
#ifndef PLINTH_ZSET_TYPE_H
#define PLINTH_ZSET_TYPE_H

#include <plinth/plugin.h>

#include <cstdint>

namespace plinth::zset {

// The type spec with every callback set (rdb_type PLINTH_RDB_ZSET_2). THREAD: any.
const plinth_type_spec_t& TypeSpec();

// The id type_register gave the type (0 before registration). Main thread.
uint32_t ZsetTypeId();

// Registers the type; false when the host refused it. Init only.
bool RegisterZsetType();

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_TYPE_H
