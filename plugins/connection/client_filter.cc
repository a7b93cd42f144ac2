// CLIENT KILL filters are matched against CLIENT LIST lines so that every Redis filter (ID,
// ADDR, LADDR, TYPE, USER, SKIPME, combined) works through the host's one-filter kill call.
#include "connection/client_filter.h"

#include <limits>
#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::connection {

using text::EqualsNoCase;

bool ParseClientType(std::string_view name, ClientType* type) {
  if (EqualsNoCase(name, "normal")) {
    *type = ClientType::kNormal;
  } else if (EqualsNoCase(name, "replica") || EqualsNoCase(name, "slave")) {
    *type = ClientType::kReplica;
  } else if (EqualsNoCase(name, "master")) {
    *type = ClientType::kMaster;
  } else if (EqualsNoCase(name, "pubsub")) {
    *type = ClientType::kPubsub;
  } else {
    return false;
  }
  return true;
}

ClientLine ParseClientLine(std::string_view line) {
  ClientLine out;
  while (!line.empty()) {
    size_t end = line.find_first_of(" \r\n");
    std::string_view field = line.substr(0, end);
    line = end == std::string_view::npos ? std::string_view() : line.substr(end + 1);
    size_t eq = field.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "id") {
      int64_t id = 0;
      if (text::ParseInt64(value, &id) && id > 0) out.id = static_cast<uint64_t>(id);
    } else if (key == "addr") {
      out.addr = value;
    } else if (key == "laddr") {
      out.laddr = value;
    } else if (key == "flags") {
      out.flags = value;
    } else if (key == "user") {
      out.user = value;
    }
  }
  return out;
}

ClientType TypeOf(const ClientLine& line) {
  if (line.flags.find('M') != std::string_view::npos) return ClientType::kMaster;
  if (line.flags.find('S') != std::string_view::npos) return ClientType::kReplica;
  if (line.flags.find('P') != std::string_view::npos) return ClientType::kPubsub;
  return ClientType::kNormal;
}

bool ParseClientKill(const std::vector<std::string_view>& words, KillFilter* f, std::string* error,
                     bool (*user_exists)(std::string_view)) {
  if (words.size() == 1) {
    f->old_style = true;
    f->has_addr = true;
    f->addr = words[0];
    f->skipme = false;
    return true;
  }
  for (size_t i = 0; i < words.size(); i += 2) {
    std::string_view opt = words[i];
    if (i + 1 >= words.size()) {
      *error = errors::kSyntax;
      return false;
    }
    std::string_view value = words[i + 1];
    if (EqualsNoCase(opt, "id")) {
      int64_t id = 0;
      if (!text::ParseInt64(value, &id) || id < 1) {
        *error = kErrClientIdNotPositive;
        return false;
      }
      f->id = static_cast<uint64_t>(id);
    } else if (EqualsNoCase(opt, "type")) {
      if (!ParseClientType(value, &f->type)) {
        *error = std::string(kErrUnknownClientType) +
                 common::ErrorArg(value, std::string_view::npos) + "'";
        return false;
      }
      f->has_type = true;
    } else if (EqualsNoCase(opt, "addr")) {
      f->has_addr = true;
      f->addr = value;
    } else if (EqualsNoCase(opt, "laddr")) {
      f->has_laddr = true;
      f->laddr = value;
    } else if (EqualsNoCase(opt, "user")) {
      if (user_exists ? !user_exists(value) : value != "default") {
        *error = "ERR No such user '" + common::ErrorArg(value, std::string_view::npos) + "'";
        return false;
      }
      f->has_user = true;
      f->user = value;
    } else if (EqualsNoCase(opt, "skipme")) {
      if (EqualsNoCase(value, "yes")) {
        f->skipme = true;
      } else if (EqualsNoCase(value, "no")) {
        f->skipme = false;
      } else {
        *error = errors::kSyntax;
        return false;
      }
    } else {
      *error = errors::kSyntax;
      return false;
    }
  }
  return true;
}

bool KillMatches(const KillFilter& f, const ClientLine& line, uint64_t self_id) {
  if (line.id == 0) return false;
  if (f.has_addr && line.addr != f.addr) return false;
  if (f.has_laddr && line.laddr != f.laddr) return false;
  if (f.has_type && TypeOf(line) != f.type) return false;
  if (f.id != 0 && line.id != f.id) return false;
  if (f.has_user && line.user != f.user) return false;
  if (f.skipme && line.id == self_id) return false;
  return true;
}

}  // namespace plinth::connection
