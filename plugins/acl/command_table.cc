// The command table of access control, read through command_ids and command_info.
#include "acl/command_table.h"

#include <plinth/plugin.hpp>

namespace plinth::acl {

void CommandTable::Assign(std::vector<CommandEntry> entries) {
  entries_ = std::move(entries);
  by_name_.clear();
  for (size_t i = 0; i < entries_.size(); ++i) {
    entries_[i].subs.clear();
    by_name_[entries_[i].name] = static_cast<int32_t>(i);
  }
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].parent >= 0 && static_cast<size_t>(entries_[i].parent) < entries_.size())
      entries_[static_cast<size_t>(entries_[i].parent)].subs.push_back(static_cast<int32_t>(i));
  ++generation_;
}

bool CommandTable::Refresh() {
  const plinth_host_api_t& api = sdk::Api();
  const int32_t n = api.command_ids(sdk::Host::self);
  if (n < 0 || static_cast<size_t>(n) == entries_.size()) return false;
  std::vector<CommandEntry> entries(static_cast<size_t>(n));
  for (int32_t id = 0; id < n; ++id) {
    plinth_command_info_t info{};
    info.struct_size = sizeof info;
    if (api.command_info(sdk::Host::self, id, &info) != PLINTH_OK) continue;
    CommandEntry& e = entries[static_cast<size_t>(id)];
    e.name = info.name;
    e.categories = info.acl_categories;
    e.flags = info.flags;
    e.parent = info.parent;
  }
  Assign(std::move(entries));
  return true;
}

int32_t CommandTable::Find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : it->second;
}

}  // namespace plinth::acl
