// Command flag names and ACL categories, ordered like Redis 7.0's COMMAND INFO (categories in
// the order of Redis's category bits).
#include "command_meta.h"

#include <plinth/plugin.h>

#include <plinth/text.hpp>

#include "subcommand.h"

namespace plinth::server {
namespace {

// Redis's ACL category bits, in order.
enum Category : uint32_t {
  kKeyspace = 1u << 0,
  kRead = 1u << 1,
  kWrite = 1u << 2,
  kSet = 1u << 3,
  kSortedSet = 1u << 4,
  kList = 1u << 5,
  kHash = 1u << 6,
  kString = 1u << 7,
  kBitmap = 1u << 8,
  kHyperLogLog = 1u << 9,
  kGeo = 1u << 10,
  kStream = 1u << 11,
  kPubsub = 1u << 12,
  kAdmin = 1u << 13,
  kFast = 1u << 14,
  kSlow = 1u << 15,
  kBlocking = 1u << 16,
  kDangerous = 1u << 17,
  kConnection = 1u << 18,
  kTransaction = 1u << 19,
  kScripting = 1u << 20,
};

constexpr std::string_view kCategoryNames[] = {
    "@keyspace",   "@read",        "@write",    "@set",         "@sortedset", "@list",
    "@hash",       "@string",      "@bitmap",   "@hyperloglog", "@geo",       "@stream",
    "@pubsub",     "@admin",       "@fast",     "@slow",        "@blocking",  "@dangerous",
    "@connection", "@transaction", "@scripting"};

struct GroupCategory {
  std::string_view group;
  uint32_t category;
};
constexpr GroupCategory kGroups[] = {{"generic", kKeyspace},
                                     {"string", kString},
                                     {"list", kList},
                                     {"set", kSet},
                                     {"sorted-set", kSortedSet},
                                     {"sorted_set", kSortedSet},
                                     {"hash", kHash},
                                     {"pubsub", kPubsub},
                                     {"bitmap", kBitmap},
                                     {"hyperloglog", kHyperLogLog},
                                     {"geo", kGeo},
                                     {"stream", kStream},
                                     {"connection", kConnection},
                                     {"transactions", kTransaction},
                                     {"scripting", kScripting}};

// Categories Redis declares by hand for commands whose flags and group do not imply them.
struct NamedCategory {
  std::string_view name;
  uint32_t category;
};
constexpr NamedCategory kNamed[] = {{"keys", kDangerous},
                                    {"flushdb", kKeyspace | kDangerous},
                                    {"flushall", kKeyspace | kDangerous},
                                    {"swapdb", kKeyspace | kDangerous},
                                    {"dbsize", kKeyspace},
                                    {"info", kDangerous},
                                    {"command", kConnection},
                                    {"client", kConnection}};

uint32_t CategoryMask(std::string_view name, uint32_t flags, std::string_view group) {
  uint32_t m = 0;
  if (flags & PLINTH_CMD_WRITE) m |= kWrite;
  if (flags & PLINTH_CMD_READONLY) m |= kRead;
  if (flags & PLINTH_CMD_ADMIN) m |= kAdmin | kDangerous;
  if (flags & PLINTH_CMD_PUBSUB) m |= kPubsub;
  if (flags & PLINTH_CMD_BLOCKING) m |= kBlocking;
  m |= (flags & PLINTH_CMD_FAST) ? kFast : kSlow;
  for (const GroupCategory& g : kGroups)
    if (text::EqualsNoCase(g.group, group)) m |= g.category;
  for (const NamedCategory& n : kNamed)
    if (text::EqualsNoCase(n.name, name)) m |= n.category;
  return m;
}

}  // namespace

std::vector<std::string_view> FlagNames(uint32_t flags) {
  static constexpr struct {
    uint32_t bit;
    std::string_view name;
  } kFlags[] = {{PLINTH_CMD_WRITE, "write"},           {PLINTH_CMD_READONLY, "readonly"},
                {PLINTH_CMD_DENYOOM, "denyoom"},       {PLINTH_CMD_ADMIN, "admin"},
                {PLINTH_CMD_PUBSUB, "pubsub"},         {PLINTH_CMD_NOSCRIPT, "noscript"},
                {PLINTH_CMD_BLOCKING, "blocking"},     {PLINTH_CMD_LOADING, "loading"},
                {PLINTH_CMD_STALE, "stale"},           {PLINTH_CMD_FAST, "fast"},
                {PLINTH_CMD_NOAUTH, "no_auth"},        {PLINTH_CMD_NO_MULTI, "no_multi"},
                {PLINTH_CMD_ALLOW_BUSY, "allow_busy"}, {PLINTH_CMD_MAY_REPLICATE, "may_replicate"}};
  std::vector<std::string_view> out;
  for (const auto& f : kFlags)
    if (flags & f.bit) out.push_back(f.name);
  return out;
}

std::vector<std::string_view> AclCategories(std::string_view name, uint32_t flags,
                                            std::string_view group) {
  uint32_t m = CategoryMask(name, flags, group);
  std::vector<std::string_view> out;
  for (size_t i = 0; i < std::size(kCategoryNames); ++i)
    if (m & (1u << i)) out.push_back(kCategoryNames[i]);
  return out;
}

bool InAclCategory(std::string_view name, uint32_t flags, std::string_view group,
                   std::string_view cat) {
  if (!cat.empty() && cat[0] == '@') cat.remove_prefix(1);
  for (std::string_view c : AclCategories(name, flags, group))
    if (text::EqualsNoCase(c.substr(1), cat)) return true;
  return false;
}

}  // namespace plinth::server
