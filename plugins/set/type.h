// The "set" value type as the host sees it: the plinth_type_spec_t callbacks (free, copy,
// memory usage, encoding, lazy-free effort, plain RDB save and load) over SetValue, and the
// type id the host gave it. THREAD: as each callback's contract in plugin.h says.
#ifndef PLINTH_SET_TYPE_H
#define PLINTH_SET_TYPE_H

#include <plinth/plugin.h>

#include <cstdint>

namespace plinth::set {

// The spec to register (name "set", rdb_type PLINTH_RDB_SET).
const plinth_type_spec_t& SetTypeSpec();
// Registers the type; false when the host refused it. Init only.
bool RegisterSetType();
// The type id type_register returned (0 before RegisterSetType).
uint32_t SetTypeId();

// The callbacks, exposed for tests. payload is a SetValue*.
int32_t SaveSet(const void* payload, plinth_rdb_io_t* io);
// A SetValue* read from the plain form, or nullptr on a bad rdb_type, short or malformed
// input (an empty set, a duplicate member) or out of memory; nothing leaks.
void* LoadSet(uint32_t rdb_type, plinth_rdb_io_t* io);
void FreeSet(void* payload);
void* CopySet(const void* payload);

}  // namespace plinth::set

#endif  // PLINTH_SET_TYPE_H
