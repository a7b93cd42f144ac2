// Key access shared by the list commands (see commands.h): typed lookups, creation, events,
// deletion of emptied lists and rewritten propagation.
#include <new>
#include <vector>

#include "list/commands.h"
#include "list/type.h"

namespace plinth::list {

using sdk::Api;

const QuickList* FindList(const Call& c, std::string_view key, bool* wrong) {
  *wrong = false;
  const plinth_value_t* v = c.Get(key);
  if (!v) return nullptr;
  if (Api().value_type(v) != ListTypeId()) {
    *wrong = true;
    return nullptr;
  }
  return static_cast<const QuickList*>(Api().value_payload(v));
}

QuickList* MutableList(const Call& c, std::string_view key) {
  void* p = Api().key_payload_mut(c.raw(), key.data(), key.size(), ListTypeId());
  if (!p) throw std::bad_alloc();
  return static_cast<QuickList*>(p);
}

QuickList* FindMutableList(const Call& c, std::string_view key, bool* wrong) {
  *wrong = false;
  void* p = Api().key_payload_mut(c.raw(), key.data(), key.size(), ListTypeId());
  if (p) return static_cast<QuickList*>(p);
  const plinth_value_t* v = c.Get(key);
  if (!v) return nullptr;
  if (Api().value_type(v) == ListTypeId()) throw std::bad_alloc();  // the copy failed
  *wrong = true;
  return nullptr;
}

QuickList* CreateList(const Call& c, std::string_view key) {
  auto* l = new QuickList();
  plinth_value_t* v = Api().value_create_typed(sdk::Host::self, ListTypeId(), l);
  if (!v) {
    delete l;
    throw std::bad_alloc();
  }
  Api().key_set(c.raw(), key.data(), key.size(), v, 0);
  return l;
}

void ListEvent(const Call& c, const char* event, std::string_view key) {
  Api().keyspace_event(c.raw(), PLINTH_NOTIFY_LIST, event, key.data(), key.size());
}

void DeleteIfEmpty(const Call& c, std::string_view key, const QuickList* l) {
  if (!l->empty()) return;
  c.Delete(key);
  Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", key.data(), key.size());
}

void Propagate(const Call& c, const char* command, std::initializer_list<std::string_view> args) {
  c.Replicate(command, args);
}

}  // namespace plinth::list
