// The host's commands as access control sees them: names, categories and subcommands by id.
// Rebuilt when the host's number of ids changes (a plugin loaded after this one). Main thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plinth::acl {

struct CommandEntry {
  std::string name;         // "get", "config|get"
  uint64_t categories = 0;  // PLINTH_ACL_*
  uint32_t flags = 0;       // PLINTH_CMD_*
  int32_t parent = -1;      // a subcommand's container
  std::vector<int32_t> subs;
};

class CommandTable {
 public:
  // Replaces the table (ids are indexes of entries; subs are filled from parents).
  void Assign(std::vector<CommandEntry> entries);
  // Reads the host's table again when its number of ids changed. Returns whether it did.
  bool Refresh();
  size_t size() const { return entries_.size(); }
  const CommandEntry& at(int32_t id) const { return entries_[static_cast<size_t>(id)]; }
  // The id of "name" or "container|sub" (lowercase), or -1.
  int32_t Find(std::string_view name) const;
  // Counts Assign calls: selectors compiled against an older table compile again.
  uint64_t generation() const { return generation_; }

 private:
  std::vector<CommandEntry> entries_;
  std::unordered_map<std::string, int32_t> by_name_;
  uint64_t generation_ = 0;
};

}  // namespace plinth::acl
