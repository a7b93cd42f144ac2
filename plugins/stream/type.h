// The "stream" value type: its registration and the callbacks the host calls on a payload
// (free, copy, memory, encoding "stream", free effort, RDB save/load in Redis's stream forms,
// see rdb.h).
#ifndef PLINTH_STREAM_TYPE_H
#define PLINTH_STREAM_TYPE_H

#include <plinth/plugin.h>

#include <cstdint>

namespace plinth::stream {

// The type spec with every callback set (rdb_type PLINTH_RDB_STREAM_LISTPACKS_2). THREAD: any.
const plinth_type_spec_t& TypeSpec();
// The id type_register gave the type (0 before registration). Main thread.
uint32_t StreamTypeId();
// Registers the type; false when the host refused it. Init only.
bool RegisterStreamType();

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_TYPE_H
