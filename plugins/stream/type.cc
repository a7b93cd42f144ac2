// The "stream" type callbacks (see type.h).
#include "stream/type.h"

#include <plinth/plugin.hpp>

#include "stream/rdb.h"
#include "stream/stream.h"

namespace plinth::stream {
namespace {

void FreePayload(void* p) { delete static_cast<Stream*>(p); }

size_t MemoryUsage(const void* p) { return static_cast<const Stream*>(p)->MemoryUsage(); }

size_t FreeEffort(const void* p) {
  const auto* s = static_cast<const Stream*>(p);
  size_t effort = s->nodes.size();
  for (const auto& [name, g] : s->groups) effort += 1 + g->pel.size() + g->consumers.size();
  return effort;
}

const char* Encoding(const void*) { return "stream"; }

void* Copy(const void* p) {
  try {
    return new Stream(*static_cast<const Stream*>(p));
  } catch (...) {
    return nullptr;
  }
}

int32_t Save(const void* p, plinth_rdb_io_t* io) {
  return SaveStream(*static_cast<const Stream*>(p), io) ? PLINTH_OK : PLINTH_ERR;
}

void* Load(uint32_t rdb_type, plinth_rdb_io_t* io) {
  try {
    return LoadStream(rdb_type, io).release();
  } catch (...) {
    return nullptr;
  }
}

plinth_type_spec_t MakeSpec() {
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "stream";
  t.free_payload = &FreePayload;
  t.memory_usage = &MemoryUsage;
  t.rdb_save = &Save;
  t.copy = &Copy;
  t.encoding = &Encoding;
  t.free_effort = &FreeEffort;
  t.rdb_load = &Load;
  t.rdb_type = PLINTH_RDB_STREAM_LISTPACKS_2;
  return t;
}

}  // namespace

const plinth_type_spec_t& TypeSpec() {
  static const plinth_type_spec_t spec = MakeSpec();
  return spec;
}

uint32_t& StreamTypeId() {
  static uint32_t id = 0;
  return id;
}

bool RegisterStreamType() {
  StreamTypeId() = sdk::Api().type_register(sdk::Host::self, &TypeSpec());
  return StreamTypeId() != 0;
}

}  // namespace plinth::stream
