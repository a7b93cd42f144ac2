// CLIENT ID, INFO, LIST, KILL, SETNAME, GETNAME, SETINFO, NO-EVICT, NO-TOUCH, PAUSE, UNPAUSE
// and HELP (TRACKING and its kin are in tracking_commands.cc). Client descriptions come
// from the host as CLIENT LIST lines; KILL matches its filters on those lines and then closes
// the chosen clients by id. Main thread.
#include <algorithm>
#include <cstdint>
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <string>

#include "common/subcommand.h"
#include "connection/client_filter.h"
#include "connection/handlers.h"
#include "connection/hello_args.h"

namespace plinth::connection {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kSubs[] = {
    {"id", 2},        {"info", 2},    {"list", -2},    {"kill", -3},
    {"setname", 3},   {"getname", 2}, {"setinfo", 4},  {"no-evict", 3},
    {"no-touch", 3},  {"pause", -3},  {"unpause", 2},  {"help", 2},
    {"tracking", -3}, {"caching", 3}, {"getredir", 2}, {"trackinginfo", 2}};

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
      return c.Error(std::string(kErrUnknownClientType) +
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
    return c.Error(errors::kSyntax);
  } else {
    lines = Describe(c, 0);
  }
  ReplyText(c, lines);
}

void Kill(Call& c) {
  KillFilter filter;
  std::string error;
  const auto exists = [](std::string_view user) {
    return Api().acl_user_exists(sdk::Host::self, user.data(), user.size()) == 1;
  };
  if (!ParseClientKill(ArgsFrom(c, 2), &filter, &error, exists)) return c.Error(error);
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

// CLIENT PAUSE timeout [WRITE|ALL]: merged with a pause still in force as Redis does (the
// stricter mode, the later end), then handed to the host, which holds the commands.
struct {
  uint32_t what = PLINTH_PAUSE_NONE;
  int64_t end_ms = 0;
} g_pause;

void Pause(Call& c) {
  int64_t timeout = 0;
  if (!text::ParseInt64(c.arg(2), &timeout)) return c.Error(errors::kTimeoutNotInteger);
  if (timeout < 0) return c.Error(errors::kTimeoutNegative);
  uint32_t mode = PLINTH_PAUSE_ALL;
  if (c.argc() == 4 && text::EqualsNoCase(c.arg(3), "write")) {
    mode = PLINTH_PAUSE_WRITE;
  } else if (c.argc() > 4 || (c.argc() == 4 && !text::EqualsNoCase(c.arg(3), "all"))) {
    return c.Error(errors::kSyntax);
  }
  const int64_t now_ms = Api().time_us(sdk::Host::self) / 1000;
  if (g_pause.end_ms <= now_ms) g_pause.what = PLINTH_PAUSE_NONE;  // the last pause is over
  g_pause.what = std::max(g_pause.what, mode);
  g_pause.end_ms = std::max(g_pause.end_ms, now_ms + std::min(timeout, INT64_MAX / 2 - now_ms));
  Api().clients_pause(sdk::Host::self, g_pause.what, g_pause.end_ms);
  c.Ok();
}

void Unpause(Call& c) {
  g_pause = {};
  Api().clients_pause(sdk::Host::self, PLINTH_PAUSE_NONE, 0);
  c.Ok();
}

void NoTouch(Call& c) {
  const bool on = text::EqualsNoCase(c.arg(2), "on");
  if (!on && !text::EqualsNoCase(c.arg(2), "off")) return c.Error(errors::kSyntax);
  Api().client_attr_set(c.raw(), PLINTH_CLIENT_NO_TOUCH, on ? "1" : "", on ? 1 : 0);
  c.Ok();
}

void Help(const Call& c) {
  static constexpr std::string_view kLines[] = {
      "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "CACHING (YES|NO)",
      "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
      "GETREDIR",
      "    Return the client ID we are redirecting to when tracking is enabled.",
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
      "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix>] [...]",
      "         [OPTIN] [OPTOUT] [NOLOOP]",
      "    Control server assisted client side caching.",
      "TRACKINGINFO",
      "    Report tracking status for the current connection.",
      "NO-EVICT (ON|OFF)",
      "    Accepted for compatibility: clients are never evicted.",
      "NO-TOUCH (ON|OFF)",
      "    Will not touch LRU/LFU stats when this mode is on.",
      "PAUSE <timeout> [WRITE|ALL]",
      "    Suspend all, or just write, clients for <timeout> milliseconds.",
      "UNPAUSE",
      "    Stop the current client pause, resuming traffic.",
      "HELP",
      "    Prints this help."};
  c.Array(static_cast<int64_t>(std::size(kLines)));
  for (std::string_view l : kLines) c.Simple(l);
}

}  // namespace

void ResetClientPause() { g_pause = {}; }

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
    return valid ? c.Ok() : c.Error(errors::kSyntax);
  }
  if (name == "no-touch") return NoTouch(c);
  if (name == "pause") return Pause(c);
  if (name == "unpause") return Unpause(c);
  if (name == "tracking" || name == "caching" || name == "getredir" || name == "trackinginfo")
    return ClientTrackingCommand(c, name);
  Help(c);
}

}  // namespace plinth::connection
