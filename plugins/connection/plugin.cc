// The connection plugin: PING, ECHO, SELECT, AUTH, HELLO, QUIT, RESET and CLIENT. This file
// only declares the command table and the plugin descriptor.
#include "connection/handlers.h"

namespace plinth::connection {
namespace {

constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kNoAuth = PLINTH_CMD_NOAUTH;
constexpr uint32_t kNoScript = PLINTH_CMD_NOSCRIPT;
constexpr uint32_t kLoadingStale = PLINTH_CMD_LOADING | PLINTH_CMD_STALE;
// Run at once inside MULTI and allowed to a RESP2 subscriber.
constexpr uint32_t kInMulti = PLINTH_CMD_SKIP_MULTI | PLINTH_CMD_SUBSCRIBER;

const sdk::CommandDef kCommands[] = {
    {"ping", -1, kF | PLINTH_CMD_SUBSCRIBER, 0, 0, 0, Ping, "connection", "[message]",
     "Ping the server", "1.0.0", PLINTH_ACL_CONNECTION},
    {"echo", 2, kF | kLoadingStale, 0, 0, 0, Echo, "connection", "message", "Echo the given string",
     "1.0.0", PLINTH_ACL_CONNECTION},
    {"select", 2, kF | kLoadingStale, 0, 0, 0, Select, "connection", "index",
     "Change the selected database for the current connection", "1.0.0", PLINTH_ACL_CONNECTION},
    {"auth", -2, kF | kNoScript | kNoAuth | kLoadingStale, 0, 0, 0, Auth, "connection",
     "[username] password", "Authenticate to the server", "1.0.0", PLINTH_ACL_CONNECTION},
    {"hello", -1, kF | kNoScript | kNoAuth | kLoadingStale, 0, 0, 0, Hello, "connection",
     "[protover [AUTH username password] [SETNAME clientname]]", "Handshake with Redis", "6.0.0",
     PLINTH_ACL_CONNECTION},
    {"quit", -1, kF | kNoScript | kNoAuth | kLoadingStale | kInMulti, 0, 0, 0, Quit, "connection",
     nullptr, "Close the connection", "1.0.0", PLINTH_ACL_CONNECTION},
    {"reset", 1, kF | kNoScript | kNoAuth | kLoadingStale | kInMulti, 0, 0, 0, Reset, "connection",
     nullptr, "Reset the connection", "6.2.0", PLINTH_ACL_CONNECTION},
    {"client", -2, kNoScript | kLoadingStale, 0, 0, 0, Client, "connection",
     "<ID|INFO|LIST [TYPE NORMAL|MASTER|REPLICA|PUBSUB] [ID client-id [client-id ...]]|KILL "
     "ip:port|KILL [ID client-id] [TYPE NORMAL|MASTER|REPLICA|PUBSUB] [USER username] [ADDR "
     "ip:port] [LADDR ip:port] [SKIPME yes|no]|SETNAME connection-name|GETNAME|SETINFO LIB-NAME "
     "libname|SETINFO LIB-VER libver|NO-EVICT <ON|OFF>|NO-TOUCH <ON|OFF>|PAUSE timeout [WRITE|ALL]|"
     "UNPAUSE|TRACKING <ON|OFF> [REDIRECT client-id] [PREFIX prefix [PREFIX prefix ...]] "
     "[BCAST] [OPTIN] [OPTOUT] [NOLOOP]|CACHING <YES|NO>|GETREDIR|TRACKINGINFO|HELP>",
     "A container for client connection commands", "2.4.0"},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"client|caching", 3, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|getname", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|getredir", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|id", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr,
     nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|info", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|kill", -3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|list", -2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|no-evict", 3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|pause", -3,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|setname", 3, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|tracking", -3, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|trackinginfo", 2, PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
    {"client|unpause", 2,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0,
     nullptr, nullptr, nullptr, nullptr, nullptr, PLINTH_ACL_CONNECTION},
};

bool Init() {
  ResetClientPause();
  return SetupTracking() && sdk::RegisterCommands(kCommands);
}

}  // namespace
}  // namespace plinth::connection

PLINTH_PLUGIN("connection", "0.1.0",
              "Connection commands: PING, ECHO, SELECT, AUTH, HELLO, QUIT, RESET, CLIENT",
              plinth::connection::Init, nullptr)
