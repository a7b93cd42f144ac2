// Key lookups shared by the host API's key functions (api_call.cc, api_types.cc). Main thread.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <string_view>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

// The call's database.
inline Db& CallDb(plinth_call_t* c) { return c->core->dbs[c->db]; }
// The live entry for key, expiring it first when its time has come; *hash gets Db::Hash(key).
Entry* LiveEntry(plinth_call_t* c, std::string_view key, uint64_t* hash, bool touch = true);
Entry* LiveEntry(plinth_call_t* c, std::string_view key);

}  // namespace plinth::host
