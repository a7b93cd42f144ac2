// The "hash" value type's callbacks (see type.h).
#include "hash/type.h"

#include <memory>
#include <new>
#include <plinth/value_type.hpp>
#include <string>

#include "hash/options.h"

namespace plinth::hash {
namespace {

// Loads with the encoding limits configured now.
Hash* LoadNow(uint32_t rdb_type, plinth_rdb_io_t* io) {
  return LoadHash(rdb_type, io, CurrentLimits());
}

sdk::ValueType hash_type(sdk::ValueTypeSpec<Hash, &SaveHash, &LoadNow>("hash", PLINTH_RDB_HASH));

}  // namespace

const plinth_type_spec_t& HashTypeSpec() { return hash_type.spec(); }

bool RegisterHashType() { return hash_type.Register(); }

uint32_t HashTypeId() { return hash_type.id(); }

int32_t SaveHash(const Hash& h, plinth_rdb_io_t* io) {
  if (io->write_len(io, h.Size()) != PLINTH_OK) return PLINTH_ERR;
  int32_t rc = PLINTH_OK;
  h.ForEach([&](std::string_view k, std::string_view v) {
    if (rc != PLINTH_OK) return;
    if (io->write_string(io, k.data(), k.size()) != PLINTH_OK ||
        io->write_string(io, v.data(), v.size()) != PLINTH_OK) {
      rc = PLINTH_ERR;
    }
  });
  return rc;
}

Hash* LoadHash(uint32_t rdb_type, plinth_rdb_io_t* io, const Limits& limits) {
  if (rdb_type != PLINTH_RDB_HASH) return nullptr;
  uint64_t n = 0;
  if (io->read_len(io, &n) != PLINTH_OK || n == 0) return nullptr;
  std::unique_ptr<Hash> h(new (std::nothrow) Hash());
  if (!h) return nullptr;
  try {
    // Nothing is reserved from n: a corrupt count fails on the first missing string.
    if (n > limits.max_entries) h->ConvertToTable();
    std::string field;
    for (uint64_t i = 0; i < n; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return nullptr;
      field.assign(s, len);  // the next read may reuse the io's buffer
      if (io->read_string(io, &s, &len) != PLINTH_OK) return nullptr;
      if (h->Get(field, nullptr)) return nullptr;  // Redis refuses duplicate fields
      h->Insert(field, std::string_view(s, len), limits);
    }
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  return h.release();
}

}  // namespace plinth::hash
