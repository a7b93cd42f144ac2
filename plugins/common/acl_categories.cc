// Redis's names for the ACL category bits, in bit order.
#include "common/acl_categories.h"

#include <plinth/plugin.h>

#include <iterator>
#include <plinth/text.hpp>

namespace plinth::common {
namespace {

constexpr std::string_view kNames[] = {
    "keyspace", "read",   "write",       "set",       "sortedset",  "list",        "hash",
    "string",   "bitmap", "hyperloglog", "geo",       "stream",     "pubsub",      "admin",
    "fast",     "slow",   "blocking",    "dangerous", "connection", "transaction", "scripting"};
static_assert(std::size(kNames) == PLINTH_ACL_CATEGORY_COUNT);

}  // namespace

std::string_view AclCategoryName(int i) {
  return i >= 0 && i < static_cast<int>(std::size(kNames)) ? kNames[i] : std::string_view();
}

std::vector<std::string_view> AclCategoryNames(uint64_t categories) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (categories & (1ull << i)) out.push_back(kNames[i]);
  return out;
}

uint64_t AclCategoryBit(std::string_view name) {
  if (!name.empty() && name[0] == '@') name.remove_prefix(1);
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (text::EqualsNoCase(kNames[i], name)) return 1ull << i;
  return 0;
}

}  // namespace plinth::common
