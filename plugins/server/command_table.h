// The host's command table as the COMMAND replies show it: every command and subcommand by id
// (command_ids / command_info), with the keys the host finds for a call (command_keys). Read
// once per COMMAND call. Main thread.
#ifndef PLINTH_SERVER_COMMAND_TABLE_H
#define PLINTH_SERVER_COMMAND_TABLE_H

#include <plinth/plugin.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::server {

// Where a command's keys sit, for COMMAND INFO's first/last/step and its key spec.
struct KeyRange {
  int32_t first = 0, last = 0, step = 0;
  uint32_t flags = 0;  // PLINTH_KEY_READ / PLINTH_KEY_WRITE of the keys
};

class CommandTable {
 public:
  // Reads the host's table. c is the COMMAND call (for command_at / command_lookup).
  explicit CommandTable(const sdk::Call& c);

  // The top-level commands' ids, in registration order.
  const std::vector<int32_t>& TopLevel() const { return top_; }
  // The ids of command id's subcommands.
  const std::vector<int32_t>& Subcommands(int32_t id) const { return subs_[id]; }
  const plinth_command_info_t& Info(int32_t id) const { return infos_[id]; }
  // The id of "name" or "container|sub" in any case, or -1.
  int32_t Find(std::string_view name) const;
  // A top-level command's spec; nullptr for a subcommand.
  const plinth_command_spec_t* Spec(int32_t id) const;
  // Where id's keys sit: a command's spec, or for a subcommand the keys the host finds in a
  // call of it with placeholder arguments.
  KeyRange Keys(int32_t id) const;
  // Whether id has key arguments at all.
  bool HasKeys(int32_t id) const;

 private:
  const sdk::Call& call_;
  std::vector<plinth_command_info_t> infos_;
  std::vector<std::vector<int32_t>> subs_;
  std::vector<int32_t> top_;
};

// The keys of argv (argv[0] names the command), channels left out. Returns false when the
// host refuses argv (an unknown command or an argc its arity refuses).
bool CallKeys(const std::vector<std::string_view>& argv, std::vector<plinth_key_ref_t>* keys);

// COMMAND INFO's ten-field entry for command id, with its subcommands' entries as field ten.
void ReplyCommandInfo(const sdk::Call& c, const CommandTable& t, int32_t id);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_COMMAND_TABLE_H
