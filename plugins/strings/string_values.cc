// Shared handler helpers over the host API (see string_values.h).
#include "strings/string_values.h"

#include <algorithm>

#include "strings/errors.h"

namespace plinth::strings {

bool LookupString(const Call& c, std::string_view key, const plinth_value_t** value) {
  const plinth_value_t* v = c.Get(key);
  if (v && sdk::Api().value_type(v) != PLINTH_TYPE_STRING) {
    c.Error(errors::kWrongType);
    return false;
  }
  *value = v;
  return true;
}

std::string_view Bytes(const plinth_value_t* value) {
  return value ? sdk::StringOf(value) : std::string_view();
}

char* ResizeString(const Call& c, std::string_view key, size_t len) {
  char* p = sdk::Api().key_string_resize(c.raw(), key.data(), key.size(), len);
  if (!p) throw std::bad_alloc();
  return p;
}

namespace {
const plinth_option_t* g_max_bulk_len = nullptr;  // the protocol plugin's, if loaded first
}  // namespace

void FindOptions() { g_max_bulk_len = sdk::FindOption("proto-max-bulk-len"); }

int64_t MaxBulkLen() {
  return std::min(sdk::OptionInt(g_max_bulk_len, int64_t{512} << 20), kMaxStoredString);
}

bool Propagate(const Call& c, const char* command, const std::vector<std::string_view>& args,
               bool validate) {
  return c.Replicate(command, args, validate ? 0u : PLINTH_REPLICATE_NO_VALIDATE);
}

}  // namespace plinth::strings
