// The list value type's callbacks and options (see type.h).
#include "list/type.h"

#include <atomic>
#include <new>
#include <plinth/value_type.hpp>
#include <string>

namespace plinth::list {
namespace {

std::atomic<int64_t> g_fill{-2};
int64_t g_compress = 0;
bool g_initializing = false;
const plinth_option_t* g_opt_fill = nullptr;
const plinth_option_t* g_opt_fill_alias = nullptr;
const plinth_option_t* g_opt_compress = nullptr;

const QuickList* AsList(const void* p) { return static_cast<const QuickList*>(p); }

// Redis 7.0 reports every list as a quicklist (listpack lists came with 7.2).
const char* Encoding(const void*) { return "quicklist"; }

size_t FreeEffort(const void* p) { return AsList(p)->nodes() + 1; }

int32_t RdbSave(const void* p, plinth_rdb_io_t* io) {
  const QuickList* l = AsList(p);
  if (io->write_len(io, l->size()) != PLINTH_OK) return PLINTH_ERR;
  if (l->empty()) return PLINTH_OK;
  QuickList::Pos pos = l->Locate(0);
  do {
    std::string_view e = l->Get(pos);
    if (io->write_string(io, e.data(), e.size()) != PLINTH_OK) return PLINTH_ERR;
  } while (l->Next(&pos));
  return PLINTH_OK;
}

// An empty list is refused: no key may hold one (Redis skips such keys).
void* RdbLoad(uint32_t rdb_type, plinth_rdb_io_t* io) {
  if (rdb_type != PLINTH_RDB_LIST) return nullptr;
  uint64_t n = 0;
  if (io->read_len(io, &n) != PLINTH_OK || n == 0) return nullptr;
  auto* l = new (std::nothrow) QuickList();
  if (!l) return nullptr;
  const NodeLimit limit = CurrentLimit();
  try {
    for (uint64_t i = 0; i < n; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK || (!s && len)) {
        delete l;
        return nullptr;
      }
      l->PushBack({s ? s : "", len}, limit);
    }
  } catch (const std::bad_alloc&) {
    delete l;
    return nullptr;
  }
  return l;
}

// QuickList names no encoding and has no effort count of its own: those two are set here.
constexpr plinth_type_spec_t MakeSpec() {
  plinth_type_spec_t t = sdk::ValueTypeSpec<QuickList, &RdbSave, &RdbLoad>("list", PLINTH_RDB_LIST);
  t.encoding = &Encoding;
  t.free_effort = &FreeEffort;
  return t;
}

sdk::ValueType list_type(MakeSpec());

// Both names set the one node limit; during init the choice waits for both (see below).
int32_t ApplyFill(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  if (!g_initializing) g_fill.store(number, std::memory_order_relaxed);
  return PLINTH_OK;
}

int32_t ApplyCompress(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  g_compress = number;
  return PLINTH_OK;
}

}  // namespace

uint32_t ListTypeId() { return list_type.id(); }

NodeLimit CurrentLimit() { return NodeLimit{g_fill.load(std::memory_order_relaxed)}; }

int64_t CompressDepth() { return g_compress; }

const plinth_type_spec_t& ListTypeSpecForTest() { return list_type.spec(); }

bool RegisterListType() { return list_type.Register(); }

bool RegisterListOptions() {
  constexpr uint32_t kMut = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
  g_initializing = true;
  const bool ok =
      (g_opt_fill = sdk::RegisterOption("list-max-listpack-size", PLINTH_OPT_INT, kMut, "-2",
                                        INT32_MIN, INT32_MAX,
                                        "list node size: negative -1..-5 = 4..64 KiB, positive "
                                        "= entries per node",
                                        &ApplyFill)) &&
      (g_opt_fill_alias =
           sdk::RegisterOption("list-max-ziplist-size", PLINTH_OPT_INT, kMut, "-2", INT32_MIN,
                               INT32_MAX, "alias of list-max-listpack-size", &ApplyFill)) &&
      (g_opt_compress =
           sdk::RegisterOption("list-compress-depth", PLINTH_OPT_INT, kMut, "0", 0, INT32_MAX,
                               "list nodes left uncompressed at each end (accepted; "
                               "lists are not compressed)",
                               &ApplyCompress));
  g_initializing = false;
  if (!ok) return false;
  // A configured value wins over the default, whichever name carried it.
  const int64_t main = sdk::OptionInt(g_opt_fill, -2);
  g_fill.store(main != -2 ? main : sdk::OptionInt(g_opt_fill_alias, -2), std::memory_order_relaxed);
  return true;
}

}  // namespace plinth::list
