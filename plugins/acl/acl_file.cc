// ACL file parsing and writing.
#include "acl/acl_file.h"

#include <set>

namespace plinth::acl {
namespace {

std::vector<std::string> Words(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.emplace_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

bool ParseAclFile(std::string_view text, const std::string& path, const CommandTable& table,
                  bool all_channels, std::vector<User>* out, std::string* err) {
  out->clear();
  std::set<std::string> seen;
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == text.npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string> words = Words(line);
    if (words.empty()) continue;
    auto fail = [&](const std::string& why) {
      *err = path + ":" + std::to_string(line_no) + ": " + why;
      return false;
    };
    if (words[0] != "user") return fail("line should start with user keyword");
    if (words.size() < 2) return fail("user name missing");
    if (!seen.insert(words[1]).second) return fail("duplicate user '" + words[1] + "'");
    std::vector<std::string> rules;
    std::string why;
    if (!MergeSelectorWords(std::vector<std::string>(words.begin() + 2, words.end()), &rules, &why))
      return fail(why);
    User u = NewUser(words[1], all_channels);
    for (const std::string& r : rules) {
      why = ApplyUserRule(u, r, table, all_channels);
      if (!why.empty()) return fail("Error in user declaration '" + r + "': " + why);
    }
    out->push_back(std::move(u));
  }
  return true;
}

std::string AclFileText(const Users& users) {
  std::string out;
  for (const auto& [name, u] : users.all()) out += "user " + name + " " + DescribeUser(*u) + "\n";
  return out;
}

}  // namespace plinth::acl
