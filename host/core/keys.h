// Key lookups and keyspace operations shared by the host API's key and database functions
// (api/types.cc), defined in keyspace_access.cc. Main thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string_view>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

// The call's database.
inline Db& CallDb(plinth_call_t* c) { return c->core->keyspace.dbs[c->db]; }
// The live entry for key, expiring it first when its time has come; *hash gets KeyHash(key).
Entry* LiveEntry(plinth_call_t* c, std::string_view key, uint64_t* hash, bool touch = true);
Entry* LiveEntry(plinth_call_t* c, std::string_view key);

// key_move, key_scan and key_random of the call's database (see abi/types.h).
int32_t KeyMove(plinth_call_t* c, const char* src, size_t sl, const char* dst, size_t dl,
                int32_t dst_db, uint32_t flags);
uint64_t KeyScan(plinth_call_t* c, uint64_t cursor, uint64_t count, plinth_key_visit_fn visit,
                 void* arg);
int32_t KeyRandom(plinth_call_t* c, plinth_key_visit_fn visit, void* arg);
// db_flush, db_swap and db_flush_all (see abi/types.h).
void DbFlush(plinth_call_t* c, int32_t db, int32_t async);
int32_t DbSwap(plinth_call_t* c, int32_t a, int32_t b);
void DbFlushAll(plinth_plugin_t* self);

}  // namespace plinth::host
