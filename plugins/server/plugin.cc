// The server plugin: INFO, CONFIG, COMMAND, TIME, PLUGIN, MODULE and SHUTDOWN. This file only
// declares the command table and the plugin descriptor.
#include "server/handlers.h"

namespace plinth::server {
namespace {

constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kAdmin = PLINTH_CMD_ADMIN;
constexpr uint32_t kNoScript = PLINTH_CMD_NOSCRIPT;
constexpr uint32_t kLoadingStale = PLINTH_CMD_LOADING | PLINTH_CMD_STALE;

const sdk::CommandDef kCommands[] = {
    {"info", -1, kLoadingStale, 0, 0, 0, Info, "server", "[section [section ...]]",
     "Get information and statistics about the server", "1.0.0", PLINTH_ACL_DANGEROUS},
    {"config", -2, kAdmin | kNoScript | kLoadingStale, 0, 0, 0, Config, "server",
     "<GET parameter [parameter ...]|SET parameter value [parameter value ...]|RESETSTAT|"
     "REWRITE|HELP>",
     "A container for server configuration commands", "2.0.0"},
    {"command", -1, kLoadingStale, 0, 0, 0, Command, "server",
     "<COUNT|LIST [FILTERBY MODULE module-name|ACLCAT category|PATTERN pattern]|INFO "
     "[command-name [command-name ...]]|DOCS [command-name [command-name ...]]|GETKEYS command "
     "[arg [arg ...]]|HELP>",
     "Get array of Redis command details", "2.8.13"},
    {"time", 1, kF | kLoadingStale, 0, 0, 0, Time, "server", nullptr,
     "Return the current server time", "2.6.0"},
    {"plugin", -2, kAdmin | kNoScript, 0, 0, 0, Plugin, "server", "<LIST|HELP>",
     "A container for plugin commands", "7.0.0"},
    {"module", -2, kAdmin | kNoScript, 0, 0, 0, Module, "server", "<LIST|HELP>",
     "A container for module commands", "4.0.0"},
    {"shutdown", -1, kAdmin | kNoScript | kLoadingStale | PLINTH_CMD_ALLOW_BUSY, 0, 0, 0, Shutdown,
     "server", "[NOSAVE|SAVE] [NOW] [FORCE] [ABORT]",
     "Synchronously save the dataset to disk and then shut down the server", "1.0.0"},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"command|count", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|docs", -2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|getkeys", -4, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|getkeysandflags", -4, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr,
     nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|info", -2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"command|list", -2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"config|get", -3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"config|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"config|resetstat", 2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"config|rewrite", 2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"config|set", -4,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, 0},
    {"module|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"module|list", 2, PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"module|load", -3, PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
    {"module|loadex", -3, PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr,
     nullptr, nullptr, nullptr, 0},
    {"module|unload", 3, PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, 0},
};

bool Init() { return sdk::RegisterCommands(kCommands); }

}  // namespace
}  // namespace plinth::server

PLINTH_PLUGIN("server", "0.1.0",
              "Server commands: INFO, CONFIG, COMMAND, TIME, PLUGIN/MODULE LIST, SHUTDOWN",
              plinth::server::Init, nullptr)
