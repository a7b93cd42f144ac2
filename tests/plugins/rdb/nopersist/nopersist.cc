// nopersist: a test plugin whose value type has no persisted form (rdb_type 0, no rdb_save), so
// any save that meets one of its keys fails: SAVE, BGSAVE, the shutdown save, an AOF rewrite with
// an RDB preamble, a primary's full sync. The persistence failure-path tests use it.
//
//   NOPERSIST.SET key  -> OK; key now holds a "nopersist" value (DEL removes it).
#include <new>
#include <plinth/plugin.hpp>

namespace {

uint32_t type_id = 0;

struct Payload {
  int unused = 0;
};

void FreePayload(void* p) { delete static_cast<Payload*>(p); }
void* CopyPayload(const void*) { return new (std::nothrow) Payload(); }

void SetCommand(plinth::sdk::Call& c) {
  plinth_value_t* v =
      plinth::sdk::Api().value_create_typed(plinth::sdk::Host::self, type_id, new Payload());
  if (!v) return c.Error("ERR nopersist: no value");
  c.Put(c.arg(1), plinth::sdk::Value::Adopt(v));
  c.Ok();
}

const plinth::sdk::CommandDef kCommands[] = {
    {"nopersist.set", 2, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM, 1, 1, 1, &SetCommand},
};

bool Init() {
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "nopersist";
  t.free_payload = &FreePayload;
  t.copy = &CopyPayload;
  t.rdb_type = 0;  // no Redis form: not persisted
  type_id = plinth::sdk::Api().type_register(plinth::sdk::Host::self, &t);
  return type_id != 0 && plinth::sdk::RegisterCommands(kCommands);
}

}  // namespace

PLINTH_PLUGIN("nopersist", "0.1.0", "test: a value type with no persisted form", &Init, nullptr)
