// The "stream" type callbacks (see type.h).
#include "stream/type.h"

#include <plinth/value_type.hpp>

#include "stream/rdb.h"
#include "stream/stream.h"

namespace plinth::stream {
namespace {

size_t FreeEffort(const void* p) {
  const auto* s = static_cast<const Stream*>(p);
  size_t effort = s->nodes.size();
  for (const auto& [name, g] : s->groups) effort += 1 + g->pel.size() + g->consumers.size();
  return effort;
}

const char* Encoding(const void*) { return "stream"; }

// Stream is a plain struct: its encoding name and free effort are set here.
constexpr plinth_type_spec_t MakeSpec() {
  plinth_type_spec_t t =
      sdk::ValueTypeSpec<Stream, &SaveStream, &LoadStream>("stream", PLINTH_RDB_STREAM_LISTPACKS_2);
  t.encoding = &Encoding;
  t.free_effort = &FreeEffort;
  return t;
}

sdk::ValueType stream_type(MakeSpec());

}  // namespace

const plinth_type_spec_t& TypeSpec() { return stream_type.spec(); }

uint32_t StreamTypeId() { return stream_type.id(); }

bool RegisterStreamType() { return stream_type.Register(); }

}  // namespace plinth::stream
