// What the shell tells the core about the server process: INFO fields of the server,
// listeners, clients, memory and io_threads sections; SHUTDOWN, server_stopping and CONFIG
// REWRITE.
#include "host/core/info.h"
#include "host/shell/config_file.h"
#include "host/shell/server.h"
#include "host/shell/shell_memory.h"
#include "host/shell/shell_process.h"

namespace plinth::host {

void ShellProcess::InfoFields(std::string_view section, std::string* out) {
  if (section == "server") {
    InfoLine(out, "multiplexing_api", "libuv");
    InfoLine(out, "hz", shell_.limits.hz);
  } else if (section == "listeners") {
    InfoLine(out, "tcp_port", shell_.listeners.TcpPort());
  } else if (section == "clients") {
    InfoLine(out, "connected_clients", static_cast<int64_t>(shell_.clients.by_id.size()));
    InfoLine(out, "maxclients", shell_.limits.maxclients);
    InfoLine(out, "blocked_clients", static_cast<int64_t>(shell_.core.sessions.blocking.Count()));
  } else if (section == "memory") {
    MemoryInfoFields(shell_.core.server.env().memory->UsedMemory(), out);
  } else if (section == "io_threads") {
    shell_.io.Info(out);
  }
}

void ShellProcess::RequestShutdown() { shell_.Stop(); }

bool ShellProcess::Stopping() { return shell_.ShuttingDown() || stop_after_busy_; }

bool ShellProcess::DeferStop() {
  if (stop_after_busy_) return true;
  if (!serving_busy_) return false;
  // The busy command (a script) still runs: stop once it has returned.
  stop_after_busy_ = true;
  shell_.core.server.env().scheduler->Post(
      [](void* arg) {
        auto* p = static_cast<ShellProcess*>(arg);
        p->stop_after_busy_ = false;
        p->shell_.Stop();
      },
      this);
  return true;
}

bool ShellProcess::RewriteConfig(const std::string& path, std::string* err) {
  return RewriteConfigFile(path, shell_.core, err);
}

}  // namespace plinth::host
