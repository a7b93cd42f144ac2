// The "hash" value type's callbacks (see type.h).
#include "hash/type.h"

#include <memory>
#include <new>
#include <plinth/plugin.hpp>
#include <string>

#include "hash/options.h"

namespace plinth::hash {
namespace {

uint32_t type_id = 0;

const Hash& Of(const void* payload) { return *static_cast<const Hash*>(payload); }

void FreePayload(void* payload) { delete static_cast<Hash*>(payload); }
size_t MemoryUsage(const void* payload) { return Of(payload).MemoryUsage(); }
void* Copy(const void* payload) { return Of(payload).Clone(); }
const char* Encoding(const void* payload) { return Of(payload).EncodingName(); }
size_t FreeEffort(const void* payload) { return Of(payload).FreeEffort(); }
int32_t RdbSave(const void* payload, plinth_rdb_io_t* io) { return SaveHash(Of(payload), io); }
void* RdbLoad(uint32_t rdb_type, plinth_rdb_io_t* io) {
  return LoadHash(rdb_type, io, CurrentLimits());
}

const plinth_type_spec_t kSpec = [] {
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "hash";
  t.free_payload = &FreePayload;
  t.memory_usage = &MemoryUsage;
  t.rdb_save = &RdbSave;
  t.copy = &Copy;
  t.encoding = &Encoding;
  t.free_effort = &FreeEffort;
  t.rdb_load = &RdbLoad;
  t.rdb_type = PLINTH_RDB_HASH;
  return t;
}();

}  // namespace

const plinth_type_spec_t& HashTypeSpec() { return kSpec; }

bool RegisterHashType() {
  type_id = sdk::Api().type_register(sdk::Host::self, &kSpec);
  return type_id != 0;
}

uint32_t HashTypeId() { return type_id; }

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
