// The plugins plinth-server loads when neither --no-default-plugins nor a config file's
// "plugins" list says otherwise, in load order. The one list: --help prints it and
// docs/plugins.md names the same set.
#pragma once

namespace plinth::host {

inline constexpr const char* kDefaultPlugins[] = {
    "resp", "tcp", "connection",  "server",      "strings", "keys",      "hash",
    "list", "set", "zset",        "stream",      "pubsub",  "scripting", "reply_offload",
    "rdb",  "aof", "replication", "diagnostics", "acl"};

}  // namespace plinth::host
