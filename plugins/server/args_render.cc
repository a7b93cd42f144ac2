// Rendering of DocArg trees the way redis-cli 7.0 turns COMMAND DOCS into hints, and the
// split of a container command's one-of into subcommands for COMMAND DOCS.
#include <plinth/text.hpp>
#include <utility>

#include "server/args_hint.h"

namespace plinth::server {
namespace {

std::string Render(const DocArg& a);

std::string Join(const std::vector<DocArg>& args, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += sep;
    out += Render(args[i]);
  }
  return out;
}

std::string Render(const DocArg& a) {
  std::string token = a.token;
  std::string repeat;
  if (a.type == "oneof") {
    repeat = Join(a.args, "|");
  } else if (a.type == "block") {
    repeat = Join(a.args, " ");
  } else if (a.type != "pure-token") {
    repeat = a.name.empty() ? "\"\"" : a.name;
  }
  if (!token.empty() && a.type != "pure-token") token += ' ';
  std::string out;
  if (a.optional) out += '[';
  out += token + repeat;
  if (a.multiple) out += " [" + (a.multiple_token ? token : std::string()) + repeat + " ...]";
  if (a.optional) out += ']';
  return out;
}

// The subcommand word of one one-of member and the arguments after it; false when the member
// does not start with a token.
bool MemberAsSubcommand(const DocArg& m, DocSubcommand* out) {
  if (m.optional) return false;
  if (m.type == "pure-token") {
    if (m.multiple) return false;
    out->name = text::ToLower(m.token);
    return true;
  }
  if (!m.token.empty()) {
    out->name = text::ToLower(m.token);
    DocArg rest = m;
    rest.token.clear();
    rest.multiple_token = false;
    if (rest.type == "block" && !rest.multiple) {
      out->args = std::move(rest.args);
    } else {
      out->args.push_back(std::move(rest));
    }
    return true;
  }
  // A block led by a token: "LIST [FILTERBY ...]" or "GETKEYS command [arg [arg ...]]".
  if (m.type != "block" || m.multiple || m.args.empty()) return false;
  const DocArg& lead = m.args[0];
  if (lead.token.empty() || lead.optional || (lead.type == "pure-token" && lead.multiple))
    return false;
  DocSubcommand first;
  if (!MemberAsSubcommand(lead, &first)) return false;
  out->name = std::move(first.name);
  out->args = std::move(first.args);
  out->args.insert(out->args.end(), m.args.begin() + 1, m.args.end());
  return true;
}

}  // namespace

std::string RenderArgs(const std::vector<DocArg>& args) { return Join(args, " "); }

std::vector<DocSubcommand> SplitSubcommands(const std::vector<DocArg>& args) {
  if (args.size() != 1 || args[0].type != "oneof" || args[0].optional || args[0].multiple ||
      !args[0].token.empty())
    return {};
  std::vector<DocSubcommand> subs;
  for (const DocArg& m : args[0].args) {
    DocSubcommand s;
    if (!MemberAsSubcommand(m, &s)) return {};
    DocSubcommand* same = nullptr;
    for (DocSubcommand& prev : subs)
      if (prev.name == s.name) same = &prev;
    if (!same) {
      subs.push_back(std::move(s));
      continue;
    }
    // "KILL ip:port|KILL [ID id] ..." merge into one subcommand taking either form.
    auto as_one = [](std::vector<DocArg> v) {
      if (v.size() == 1) return std::move(v[0]);
      DocArg b;
      b.type = "block";
      b.name = "arguments";
      b.args = std::move(v);
      return b;
    };
    DocArg oneof;
    if (same->args.size() == 1 && same->args[0].type == "oneof" && same->args[0].name == "forms") {
      oneof = std::move(same->args[0]);
    } else {
      oneof.type = "oneof";
      oneof.name = "forms";
      if (!same->args.empty()) oneof.args.push_back(as_one(std::move(same->args)));
    }
    if (!s.args.empty()) oneof.args.push_back(as_one(std::move(s.args)));
    same->args.clear();
    same->args.push_back(std::move(oneof));
  }
  return subs;
}

}  // namespace plinth::server
