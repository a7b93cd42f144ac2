// Users: their flags, password hashes and selectors, the rules that change them (ACL SETUSER's
// words) and their ACL LIST text. Users are kept by name and by id; an id is never reused, so a
// client holding a deleted user's id matches nobody. Main thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "acl/command_table.h"
#include "acl/selector.h"

namespace plinth::acl {

struct User {
  uint64_t id = 0;
  std::string name;
  bool enabled = false;
  bool nopass = false;
  std::vector<std::string> passwords;  // SHA-256, 64 lowercase hex digits
  Selector root;
  std::vector<Selector> selectors;  // beyond the root
};

// The SHA-256 of s in lowercase hex.
std::string PasswordHash(std::string_view s);

// A new user's rules: off, no password, no commands, no keys, channels per acl-pubsub-default.
User NewUser(std::string name, bool all_channels);
// Applies one ACL SETUSER word to u (a rule, or a "(...)" selector). Returns "" or the reason
// it was refused (Redis's text, without "Error in ACL SETUSER modifier").
std::string ApplyUserRule(User& u, std::string_view op, const CommandTable& table,
                          bool all_channels_default);
// Joins the words of a "(...)" selector split over several arguments, as Redis does. Returns
// false with *err ("Unmatched parenthesis ...") when one is never closed.
bool MergeSelectorWords(const std::vector<std::string>& in, std::vector<std::string>* out,
                        std::string* err);
// ACL LIST's text of u after "user <name> ".
std::string DescribeUser(const User& u);
// Whether u may run anything anywhere: then its clients are not checked at all.
bool Unrestricted(const User& u);
// Whether the password (clear text) is one of u's.
bool PasswordMatches(const User& u, std::string_view password);

class Users {
 public:
  Users();
  // The default user as a fresh server has it: on, nopass, ~* &* +@all.
  void Reset();
  User* Find(std::string_view name);
  User* FindId(uint64_t id);
  // The user named name, created (NewUser) when missing.
  User* FindOrCreate(std::string_view name, bool all_channels);
  // Replaces or adds u (keeping the id of the one it replaces). Returns the stored user.
  User* Put(User u);
  bool Erase(std::string_view name);
  const std::map<std::string, std::unique_ptr<User>, std::less<>>& all() const { return by_name_; }
  User& default_user() { return *Find("default"); }

 private:
  std::map<std::string, std::unique_ptr<User>, std::less<>> by_name_;
  uint64_t next_id_ = 1;
};

}  // namespace plinth::acl
