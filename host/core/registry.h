// The command table: the commands and subcommands the loaded plugins registered, with their
// specs and the ACL facts derived from them, each tagged with its owner so a failed init can be
// rolled back; the name lookup of the request path. What else plugins register is in hooks.h.
// Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plinth::host {

struct CommandStats {
  uint64_t calls = 0;
  uint64_t usec = 0;
  uint64_t rejected = 0;
  uint64_t failed = 0;
};

// The texts a command's spec points to, owned here (COMMAND DOCS reads them through the spec).
struct CommandText {
  std::string summary, since, group, args;
};

struct Command {
  plinth_command_spec_t spec{};  // string fields point into name and text
  std::string name;
  CommandText text;
  std::string owner;
  CommandStats stats;
  int32_t id = -1;                             // command_info's id (Registry::by_id)
  uint64_t categories = 0;                     // PLINTH_ACL_*: declared and implied
  Command* parent = nullptr;                   // a subcommand's container
  std::vector<std::unique_ptr<Command>> subs;  // a container's subcommands
  bool stand_in = false;  // a container the host made for subcommands registered before it
  // Whether argc fits the arity (Redis's rule: N exactly, -N at least N).
  bool ArityAllows(int32_t argc) const {
    return spec.arity > 0 ? argc == spec.arity : argc >= -spec.arity;
  }
};

// A transparent hash for maps keyed by std::string looked up by std::string_view (the
// blocking and transaction tables).
struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Registry {
 public:
  // Copies a spec into the table. Returns "" or the reason it was refused.
  std::string AddCommand(const plinth_command_spec_t* spec, const std::string& owner);
  // Drops the commands and subcommands owner registered.
  void RemoveOwner(const std::string& owner);
  // The subcommand of container cmd that sub names in any case, or nullptr.
  static Command* FindSub(const Command* cmd, std::string_view sub);
  // What runs argv: the subcommand argv[1] names when cmd has one, else cmd.
  static Command* Resolve(Command* cmd, int32_t argc, const char* const* argv,
                          const size_t* argvlen) {
    if (cmd->subs.empty() || argc < 2) return cmd;
    Command* sub = FindSub(cmd, std::string_view(argv[1], argvlen[1]));
    return sub ? sub : cmd;
  }
  // The command id names ("get", "config|get"), or nullptr.
  Command* FindById(int32_t id) const {
    return id >= 0 && static_cast<size_t>(id) < by_id.size() ? by_id[id] : nullptr;
  }
  // The command or subcommand named "name" or "container|sub" in any case, or nullptr.
  Command* FindQualified(std::string_view name) const;

  // The command named name in any case (ASCII), or nullptr. Hot path: one pass over the name
  // folding its case into the hash, no copy, no allocation.
  Command* FindCommand(std::string_view name) const;
  // The same for a NUL-terminated name, whose length it stores in *len when it names a command:
  // the hash pass measures it, so a caller that needs the length (replicate()) runs no strlen.
  Command* FindCommand(const char* name, size_t* len) const;

  std::vector<std::unique_ptr<Command>> commands;  // registration order
  std::vector<Command*> by_id;                     // commands, then subcommands: ids
  // The host's EXEC (transaction.cc): a refused EXEC discards its transaction, and memory
  // and pause checks read its queue's flags.
  Command* exec = nullptr;

 private:
  // The command table by name: open addressing with linear probing over a power-of-two number
  // of slots, at most half full. A name's key is its bytes with 'A'-'Z' lower-cased, packed
  // eight to a word: head is the first word (the whole name when it has at most 8 bytes, so
  // equal heads and lengths are equal names), hash mixes every word. Commands are registered
  // at load time only, so a removal rebuilds the table.
  struct Slot {
    uint64_t hash = 0;
    uint64_t head = 0;
    size_t len = 0;
    Command* cmd = nullptr;  // nullptr: empty
  };
  void Insert(Command* cmd);
  void Rebuild();
  // Adds subcommand c to its container, standing one in when there is none yet.
  std::string AddSubcommand(std::unique_ptr<Command> c);
  // Numbers by_id again: commands in registration order, then each one's subcommands.
  void Renumber();
  Command* Probe(const char* name, const Slot& key) const;
  std::vector<Slot> slots_;
  size_t mask_ = 0;      // slots_.size() - 1
  unsigned shift_ = 63;  // 64 - log2(slots_.size()): a hash's first slot is its top bits
};

}  // namespace plinth::host
