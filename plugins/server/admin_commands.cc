// PLUGIN LIST (also answered as MODULE LIST for clients that ask Redis's way) and SHUTDOWN.
// Main thread.
#include <string>

#include "common/subcommand.h"
#include "server/handlers.h"
#include "server/server_args.h"

namespace plinth::server {

using sdk::Api;

namespace {

constexpr common::SubcommandDef kPluginSubs[] = {{"list", 2}, {"help", 2}};
constexpr common::SubcommandDef kModuleSubs[] = {
    {"list", 2}, {"load", -3}, {"loadex", -3}, {"unload", 3}, {"help", 2}};

// One map per loaded plugin: Redis's MODULE LIST fields (name, ver, path, args) plus the ABI
// version, the plugin's own version text and its description.
void ReplyList(const Call& c) {
  int32_t n = Api().plugin_count(c.raw());
  std::vector<std::pair<const plinth_plugin_descriptor_t*, const char*>> plugins;
  for (int32_t i = 0; i < n; ++i) {
    const char* path = nullptr;
    if (const plinth_plugin_descriptor_t* d = Api().plugin_at(c.raw(), i, &path))
      plugins.emplace_back(d, path);
  }
  c.Array(static_cast<int64_t>(plugins.size()));
  for (const auto& [d, path] : plugins) {
    c.Map(7);
    c.Bulk("name");
    c.Bulk(d->name ? d->name : "");
    c.Bulk("ver");
    c.Integer(VersionNumber(d->version ? d->version : ""));
    c.Bulk("path");
    c.Bulk(path ? path : "");
    c.Bulk("args");
    c.Array(0);
    c.Bulk("abi");
    c.Bulk(std::to_string(d->abi_major) + "." + std::to_string(d->abi_minor));
    c.Bulk("version");
    c.Bulk(d->version ? d->version : "");
    c.Bulk("description");
    c.Bulk(d->description ? d->description : "");
  }
}

}  // namespace

void Plugin(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("plugin", kPluginSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  if (kPluginSubs[sub].name == "list") return ReplyList(c);
  ReplyHelp(c, {"PLUGIN <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "LIST",
                "    Return a list of loaded plugins.", "HELP", "    Prints this help."});
}

void Module(Call& c) {
  std::string error;
  int sub = common::FindSubcommand("module", kModuleSubs, c.arg(1), c.argc(), &error);
  if (sub < 0) return c.Error(error);
  std::string_view name = kModuleSubs[sub].name;
  if (name == "list") return ReplyList(c);
  if (name == "help") {
    return ReplyHelp(c, {"MODULE <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "LIST",
                         "    Return a list of loaded plugins (same as PLUGIN LIST).", "HELP",
                         "    Prints this help."});
  }
  c.Error("ERR MODULE " + common::ErrorArg(c.arg(1)) +
          " is not supported: plugins are loaded at startup (--plugin or the config file)");
}

namespace {

// The shutdown's final save, before anything stops, so a failure can still abort it (Redis
// 7.0): runs SAVE when the persistence plugin is loaded and SHUTDOWN SAVE asked or save points
// are set. Returns false when the save failed and FORCE was not given. *saved: a save was done.
bool FinalSave(const Call& c, const ShutdownArgs& args, bool* saved) {
  *saved = false;
  if (args.nosave || !Api().command_lookup(c.raw(), "save", 4)) return true;
  std::string points;
  Api().config_get(
      c.raw(), "save", 4,
      [](void* arg, const char* data, size_t len) {
        static_cast<std::string*>(arg)->assign(data, len);  // name, then value: keeps the value
      },
      &points);
  if (!args.save && points.empty()) return true;
  struct Outcome {
    bool first = true;
    std::string error;
  } out;
  static const char* const kArgv[] = {"save"};
  static const size_t kLen[] = {4};
  const int32_t rc = Api().call_command(
      c.raw(), PLINTH_RUN_NO_PROPAGATE, -1, 1, kArgv, kLen,
      [](void* arg, const plinth_reply_item_t* item) {
        auto* o = static_cast<Outcome*>(arg);
        if (o->first && item->type == PLINTH_REPLY_ERROR) o->error.assign(item->data, item->len);
        o->first = false;
      },
      &out);
  if (rc == PLINTH_OK) {
    *saved = true;
    return true;
  }
  // A BGSAVE still running: the persistence plugin's shutdown hook stops it and saves then.
  if (out.error.find("Background save already in progress") != std::string::npos) return true;
  sdk::Log(PLINTH_LOG_WARNING, "Saving the final RDB snapshot failed: %s", out.error.c_str());
  if (args.force) {
    sdk::Log(PLINTH_LOG_WARNING, "Error trying to save the DB. Exit anyway.");
    return true;
  }
  sdk::Log(PLINTH_LOG_WARNING, "Error trying to save the DB, can't exit.");
  sdk::Log(PLINTH_LOG_WARNING,
           "Errors trying to shut down the server. Check the logs for more information.");
  return false;
}

}  // namespace

void Shutdown(Call& c) {
  ShutdownArgs args;
  std::string error;
  if (!ParseShutdown(ArgsFrom(c, 1), &args, &error)) return c.Error(error);
  // Shutdown is immediate here, so there is never one in progress to abort.
  if (args.abort) return c.Error("ERR No shutdown in progress.");
  bool saved = false;
  if (!FinalSave(c, args, &saved)) return c.Error("ERR Errors trying to SHUTDOWN. Check logs.");
  // Saved already: the persistence plugin's shutdown hook must not save a second time.
  uint32_t flags = (args.nosave || saved ? PLINTH_SHUTDOWN_NOSAVE : 0) |
                   (args.save && !saved ? PLINTH_SHUTDOWN_SAVE : 0);
  // Like Redis, a successful SHUTDOWN sends no reply: the connection just closes. The host
  // stops everything inside this call, so nothing may run after it.
  Api().server_shutdown(c.raw(), flags);
}

}  // namespace plinth::server
