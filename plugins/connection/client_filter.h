// CLIENT LIST / CLIENT KILL filtering (Redis 7.0 rules): client type names, the fields of a
// CLIENT LIST line, and the CLIENT KILL option grammar with its matching rule.
// Pure logic, no ABI types; main thread.
#ifndef PLINTH_CONNECTION_CLIENT_FILTER_H
#define PLINTH_CONNECTION_CLIENT_FILTER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::connection {

// CLIENT's error texts that more than one subcommand sends (the type's text follows
// kErrUnknownClientType, then "'").
inline constexpr std::string_view kErrClientIdNotPositive =
    "ERR client-id should be greater than 0";
inline constexpr std::string_view kErrUnknownClientType = "ERR Unknown client type '";

enum class ClientType { kNormal, kReplica, kMaster, kPubsub };

// Parses "normal", "replica" (or "slave"), "master", "pubsub" in any case. False if unknown.
bool ParseClientType(std::string_view name, ClientType* type);

// The fields of one CLIENT LIST line ("id=7 addr=... flags=N ... user=default").
struct ClientLine {
  uint64_t id = 0;
  std::string_view addr;
  std::string_view laddr;
  std::string_view flags;
  std::string_view user = "default";
};

// Splits a CLIENT LIST line into its fields (borrowing from line). Unknown fields are ignored;
// missing ones keep their defaults.
ClientLine ParseClientLine(std::string_view line);

// The type a line describes, read from its flags the way Redis sets them: M master, S replica,
// P pubsub, otherwise normal.
ClientType TypeOf(const ClientLine& line);

// A parsed CLIENT KILL request. Every set field must match (AND).
struct KillFilter {
  bool old_style = false;  // CLIENT KILL ip:port: reply +OK / the "No such client" error
  bool has_addr = false;
  std::string_view addr;
  bool has_laddr = false;
  std::string_view laddr;
  bool has_user = false;
  std::string_view user;
  bool has_type = false;
  ClientType type = ClientType::kNormal;
  uint64_t id = 0;     // 0: any
  bool skipme = true;  // the calling client is spared (the old form can kill itself)
};

// Parses the words after "CLIENT KILL". Returns false with Redis's reply error in *error
// (kErrClientIdNotPositive, kErrUnknownClientType with the type and "'", "ERR No such user
// 'x'", errors::kSyntax). user_exists says whether a USER filter's user exists (without it,
// only "default" does).
bool ParseClientKill(const std::vector<std::string_view>& words, KillFilter* filter,
                     std::string* error, bool (*user_exists)(std::string_view) = nullptr);

// True when the client described by line is to be killed; self_id is the caller's id.
bool KillMatches(const KillFilter& filter, const ClientLine& line, uint64_t self_id);

}  // namespace plinth::connection

#endif  // PLINTH_CONNECTION_CLIENT_FILTER_H
