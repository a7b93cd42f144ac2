// The "list" value type: its registration with the host (free, copy, memory, encoding, lazy-free
// effort, plain RDB form PLINTH_RDB_LIST) and the options that shape its nodes
// (list-max-listpack-size, list-compress-depth and their Redis 6 "ziplist" alias). Init runs on
// the main thread; the callbacks follow plugin.h's thread rules.
#ifndef PLINTH_LIST_TYPE_H
#define PLINTH_LIST_TYPE_H

#include <plinth/plugin.h>

#include <cstdint>

#include "list/quicklist.h"

namespace plinth::list {

// The registered type id (0 before RegisterListType).
uint32_t ListTypeId();

// The node limit new pushes use now (list-max-listpack-size). THREAD: any.
NodeLimit CurrentLimit();

// The stored list-compress-depth (accepted, stored; nodes are never compressed). THREAD: main.
int64_t CompressDepth();

// Registers the type. false when the host refused it. Init only.
bool RegisterListType();

// Registers the options. false when the host refused one. Init only.
bool RegisterListOptions();

// The type's callbacks, for tests that drive them without a host.
const plinth_type_spec_t& ListTypeSpecForTest();

}  // namespace plinth::list

#endif  // PLINTH_LIST_TYPE_H
