// CLIENT ID, INFO, LIST, KILL, SETNAME, GETNAME, SETINFO and HELP. Client descriptions come
// from the host as CLIENT LIST lines; KILL matches its filters on those lines and then closes
// the chosen clients by id. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "client_filter.h"
#include "handlers.h"
#include "hello_args.h"
#include "subcommand.h"

namespace plinth::connection {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kSubs[] = {{"id", 2},      {"info", 2},     {"list", -2},
                                           {"kill", -3},   {"setname", 3},  {"getname", 2},
                                           {"setinfo", 4}, {"no-evict", 3}, {"help", 2}};

// Collects CLIENT LIST lines, each ending in exactly one '\n'.
struct LineSink {
  std::vector<std::string> lines;
  static void Emit(void* arg, const char* data, size_t len) {
    std::string line(data, len);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    line.push_back('\n');
    static_cast<LineSink*>(arg)->lines.push_back(std::move(line));
  }
};

std::vector<std::string> Describe(const Call& c, uint64_t id) {
  LineSink sink;
  Api().client_describe(c.raw(), id, &LineSink::Emit, &sink);
  return sink.lines;
}

void ReplyText(const Call& c, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l;
  c.Verbatim("txt", text);
}

void List(Call& c) {
  std::vector<std::string> lines;
  if (c.argc() == 4 && text::EqualsNoCase(c.arg(2), "type")) {
    ClientType type;
    if (!ParseClientType(c.arg(3), &type))
      return c.Error("ERR Unknown client type '" +
                     common::ErrorArg(c.arg(3), std::string_view::npos) + "'");
    for (std::string& l : Describe(c, 0))
      if (TypeOf(ParseClientLine(l)) == type) lines.push_back(std::move(l));
  } else if (c.argc() > 3 && text::EqualsNoCase(c.arg(2), "id")) {
    std::vector<int64_t> ids;
    for (int i = 3; i < c.argc(); ++i) {
      int64_t id = 0;
      if (!text::ParseInt64(c.arg(i), &id)) return c.Error("ERR Invalid client ID");
      ids.push_back(id);
    }
    for (int64_t id : ids) {
      if (id <= 0) continue;
      for (std::string& l : Describe(c, static_cast<uint64_t>(id))) lines.push_back(std::move(l));
    }
  } else if (c.argc() != 2) {
    return c.Error(common::kSyntaxError);
  } else {
    lines = Describe(c, 0);
  }
  ReplyText(c, lines);
}

void Kill(Call& c) {
  KillFilter filter;
  std::string error;
  if (!ParseClientKill(ArgsFrom(c, 2), &filter, &error)) return c.Error(error);
  uint64_t self = Api().client_id(c.raw());
  std::vector<uint64_t> victims;
  for (const std::string& l : Describe(c, 0)) {
    ClientLine line = ParseClientLine(l);
    if (KillMatches(filter, line, self)) victims.push_back(line.id);
  }
  int64_t killed = 0;
  for (uint64_t id : victims) {
    std::string text = std::to_string(id);
    killed += Api().client_kill(c.raw(), PLINTH_KILL_ID, text.data(), text.size());
  }
  if (!filter.old_style) return c.Integer(killed);
  if (killed == 0) return c.Error("ERR No such client");
  c.Ok();
}

void SetInfo(Call& c) {
  std::string_view attr = c.arg(2), value = c.arg(3);
  uint32_t which = 0;
  if (text::EqualsNoCase(attr, "lib-name")) {
    which = PLINTH_CLIENT_LIB_NAME;
  } else if (text::EqualsNoCase(attr, "lib-ver")) {
    which = PLINTH_CLIENT_LIB_VER;
  } else {
    return c.Error("ERR Unrecognized option '" + common::ErrorArg(attr, std::string_view::npos) +
                   "'");
  }
  if (!ValidClientName(value))
    return c.Error("ERR " + common::ErrorArg(attr, std::string_view::npos) +
                   " cannot contain spaces, newlines or special characters.");
  Api().client_attr_set(c.raw(), which, value.data(), value.size());
  c.Ok();
}

void Help(const Call& c) {
  static constexpr std::string_view kLines[] = {
      "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "GETNAME",
      "    Return the name of the current connection.",
      "ID",
      "    Return the ID of the current connection.",
      "INFO",
      "    Return information about the current client connection.",
      "KILL <ip:port>",
      "    Kill connection made from <ip:port>.",
      "KILL <option> <value> [<option> <value> [...]]",
      "    Kill connections. Options are:",
      "    * ADDR (<ip:port>|<unixsocket>:0)",
      "      Kill connections made from the specified address",
      "    * LADDR (<ip:port>|<unixsocket>:0)",
      "      Kill connections made to specified local address",
      "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
      "      Kill connections by type.",
      "    * USER <username>",
      "      Kill connections authenticated by <username>.",
      "    * SKIPME (YES|NO)",
      "      Skip killing current connection (default: yes).",
      "    * ID <client-id>",
      "      Kill the connection with that id.",
      "LIST [options ...]",
      "    Return information about client connections. Options:",
      "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
      "      Return clients of specified type.",
      "    * ID <client-id> [<client-id> ...]",
      "      Return clients of the given ids.",
      "SETNAME <name>",
      "    Assign the name <name> to the current connection.",
      "SETINFO <LIB-NAME|LIB-VER> <value>",
      "    Set the client library name or version shown by CLIENT LIST.",
      "NO-EVICT (ON|OFF)",
      "    Accepted for compatibility: clients are never evicted.",
      "HELP",
      "    Prints this help."};
  c.Array(static_cast<int64_t>(std::size(kLines)));
  for (std::string_view l : kLines) c.Simple(l);
}

}  // namespace

void Client(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("client", kSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kSubs[sub].name;
  if (name == "id") return c.Integer(static_cast<int64_t>(Api().client_id(c.raw())));
  if (name == "info") {
    // A call without a client (id 0: replay, scripts) has no line of its own.
    uint64_t id = Api().client_id(c.raw());
    return ReplyText(c, id ? Describe(c, id) : std::vector<std::string>());
  }
  if (name == "list") return List(c);
  if (name == "kill") return Kill(c);
  if (name == "setname") {
    if (!ValidClientName(c.arg(2))) return c.Error(kBadClientName);
    Api().client_attr_set(c.raw(), PLINTH_CLIENT_NAME, c.arg(2).data(), c.arg(2).size());
    return c.Ok();
  }
  if (name == "getname") {
    size_t len = 0;
    const char* v = Api().client_attr_get(c.raw(), PLINTH_CLIENT_NAME, &len);
    return (v && len > 0) ? c.Bulk(std::string_view(v, len)) : c.Null();
  }
  if (name == "setinfo") return SetInfo(c);
  if (name == "no-evict") {
    // Clients are never evicted here, so both settings are accepted and change nothing.
    bool valid = text::EqualsNoCase(c.arg(2), "on") || text::EqualsNoCase(c.arg(2), "off");
    return valid ? c.Ok() : c.Error(common::kSyntaxError);
  }
  Help(c);
}

}  // namespace plinth::connection
