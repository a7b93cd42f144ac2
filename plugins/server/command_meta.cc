// Command flag names, ACL category names and key spec flags, ordered like Redis 7.0's COMMAND
// INFO (categories in the order of their bits). The categories themselves are the host's:
// declared in each command's spec, plus those its flags imply.
#include "server/command_meta.h"

#include <plinth/plugin.h>

#include "common/acl_categories.h"

namespace plinth::server {

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

std::vector<std::string> AclCategories(uint64_t categories) {
  std::vector<std::string> out;
  for (std::string_view name : common::AclCategoryNames(categories))
    out.push_back("@" + std::string(name));
  return out;
}

std::vector<std::string_view> KeySpecFlags(uint32_t key_flags) {
  const bool read = key_flags & PLINTH_KEY_READ, write = key_flags & PLINTH_KEY_WRITE;
  if (read && write) return {"RW", "access", "update"};
  if (read) return {"RO", "access"};
  if (write) return {"OW", "update"};
  return {"RO"};
}

}  // namespace plinth::server
