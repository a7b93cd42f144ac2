// Names of the PLINTH_ACL_* category bits as Redis spells them ("keyspace", "read", ...), for
// the plugins that show or parse categories (COMMAND INFO, COMMAND LIST FILTERBY ACLCAT, ACL
// CAT). Pure; any thread.
#ifndef PLINTH_COMMON_ACL_CATEGORIES_H
#define PLINTH_COMMON_ACL_CATEGORIES_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::common {

// The name of category bit i (PLINTH_ACL_* == 1 << i) without '@', or "" past the last one.
std::string_view AclCategoryName(int i);

// The names of the bits set in categories, lowest bit first (Redis's order), without '@'.
std::vector<std::string_view> AclCategoryNames(uint64_t categories);

// The PLINTH_ACL_* bit that name (any case, with or without a leading '@') names, or 0.
uint64_t AclCategoryBit(std::string_view name);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_ACL_CATEGORIES_H
