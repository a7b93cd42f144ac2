// Users and their rules (ACL SETUSER's words), with Redis 7's texts.
#include "acl/users.h"

#include <nettle/sha2.h>

#include <algorithm>
#include <plinth/text.hpp>

namespace plinth::acl {
namespace {

bool IsHash(std::string_view h) {
  return h.size() == 64 && std::all_of(h.begin(), h.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

void RemoveHash(User& u, const std::string& h) {
  u.passwords.erase(std::remove(u.passwords.begin(), u.passwords.end(), h), u.passwords.end());
}

void AddHash(User& u, const std::string& h) {
  if (std::find(u.passwords.begin(), u.passwords.end(), h) == u.passwords.end())
    u.passwords.push_back(h);
  u.nopass = false;
}

Selector NewSelector(bool all_channels) {
  Selector s;
  s.all_channels = all_channels;
  return s;
}

}  // namespace

std::string PasswordHash(std::string_view s) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, s.size(), reinterpret_cast<const uint8_t*>(s.data()));
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

User NewUser(std::string name, bool all_channels) {
  User u;
  u.name = std::move(name);
  u.root = NewSelector(all_channels);
  return u;
}

std::string ApplyUserRule(User& u, std::string_view op, const CommandTable& table,
                          bool all_channels_default) {
  if (text::EqualsNoCase(op, "on")) return u.enabled = true, "";
  if (text::EqualsNoCase(op, "off")) return u.enabled = false, "";
  if (text::EqualsNoCase(op, "nopass")) {
    u.nopass = true;
    u.passwords.clear();
    return "";
  }
  if (text::EqualsNoCase(op, "resetpass")) {
    u.nopass = false;
    u.passwords.clear();
    return "";
  }
  if (text::EqualsNoCase(op, "skip-sanitize-payload") || text::EqualsNoCase(op, "sanitize-payload"))
    return "";  // payloads of RESTORE are always checked here
  if (text::EqualsNoCase(op, "clearselectors")) return u.selectors.clear(), "";
  if (text::EqualsNoCase(op, "reset")) {
    const uint64_t id = u.id;
    u = NewUser(u.name, all_channels_default);
    u.id = id;
    return "";
  }
  if (!op.empty() && (op[0] == '>' || op[0] == '<')) {
    const std::string h = PasswordHash(op.substr(1));
    if (op[0] == '>') return AddHash(u, h), "";
    if (std::find(u.passwords.begin(), u.passwords.end(), h) == u.passwords.end())
      return "The password you are trying to remove from the user does not exist";
    RemoveHash(u, h);
    return "";
  }
  if (!op.empty() && (op[0] == '#' || op[0] == '!')) {
    const std::string h(op.substr(1));
    if (!IsHash(h))
      return "The password hash must be exactly 64 characters and contain only lowercase "
             "hexadecimal characters";
    if (op[0] == '#') return AddHash(u, h), "";
    if (std::find(u.passwords.begin(), u.passwords.end(), h) == u.passwords.end())
      return "The password you are trying to remove from the user does not exist";
    RemoveHash(u, h);
    return "";
  }
  std::string err;
  if (op.size() >= 2 && op.front() == '(' && op.back() == ')') {
    Selector s = NewSelector(all_channels_default);
    std::string_view rest = op.substr(1, op.size() - 2);
    while (!rest.empty()) {
      const size_t sp = rest.find(' ');
      const std::string_view word = rest.substr(0, sp);
      rest = sp == rest.npos ? std::string_view() : rest.substr(sp + 1);
      if (word.empty()) continue;
      if (!ApplySelectorRule(s, word, table, &err)) return err.empty() ? "Syntax error" : err;
    }
    u.selectors.push_back(std::move(s));
    return "";
  }
  if (ApplySelectorRule(u.root, op, table, &err)) return "";
  return err.empty() ? "Syntax error" : err;
}

bool MergeSelectorWords(const std::vector<std::string>& in, std::vector<std::string>* out,
                        std::string* err) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].empty() || in[i][0] != '(' || in[i].back() == ')') {
      out->push_back(in[i]);
      continue;
    }
    std::string merged = in[i];
    size_t j = i + 1;
    for (; j < in.size(); ++j) {
      merged += " " + in[j];
      if (!in[j].empty() && in[j].back() == ')') break;
    }
    if (j == in.size()) {
      *err = "Unmatched parenthesis in acl selector starting at '" + in[i] + "'.";
      return false;
    }
    out->push_back(merged);
    i = j;
  }
  return true;
}

std::string DescribeUser(const User& u) {
  std::string out = u.enabled ? "on" : "off";
  if (u.nopass) out += " nopass";
  for (const std::string& h : u.passwords) out += " #" + h;
  out += " " + Describe(u.root);
  for (const Selector& s : u.selectors) out += " (" + Describe(s) + ")";
  return out;
}

bool Unrestricted(const User& u) {
  return u.root.commands_all && u.root.rules.empty() && u.root.all_keys && u.root.all_channels;
}

bool PasswordMatches(const User& u, std::string_view password) {
  const std::string h = PasswordHash(password);
  bool found = false;
  for (const std::string& p : u.passwords) found |= text::SecretEquals(p, h);  // constant time
  return found;
}

Users::Users() { Reset(); }

void Users::Reset() {
  by_name_.clear();
  User d = NewUser("default", true);
  d.enabled = d.nopass = true;
  d.root.all_keys = true;
  d.root.commands_all = true;
  Put(std::move(d));
}

User* Users::Find(std::string_view name) {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.get();
}

User* Users::FindId(uint64_t id) {
  for (auto& [name, u] : by_name_)
    if (u->id == id) return u.get();
  return nullptr;
}

User* Users::FindOrCreate(std::string_view name, bool all_channels) {
  if (User* u = Find(name)) return u;
  return Put(NewUser(std::string(name), all_channels));
}

User* Users::Put(User u) {
  auto& slot = by_name_[u.name];
  if (slot) {
    u.id = slot->id;
  } else if (u.id == 0) {
    u.id = next_id_++;
  }
  slot = std::make_unique<User>(std::move(u));
  return slot.get();
}

bool Users::Erase(std::string_view name) {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return false;
  by_name_.erase(it);
  return true;
}

}  // namespace plinth::acl
