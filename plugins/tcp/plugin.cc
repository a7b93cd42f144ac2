// The tcp plugin's descriptor: registers the TCP + unix socket transport and its options
// (bind, port, tcp-backlog, tcp-keepalive, unixsocket, unixsocketperm). start/stop/accept/close
// run on the main thread; read and writev on any thread, one per connection at a time.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <new>
#include <plinth/plugin.hpp>
#include <string>
#include <vector>

#include "common/address.h"
#include "common/bind_option.h"
#include "common/options.h"
#include "tcp/conn.h"
#include "tcp/listener.h"

namespace {

using plinth::common::CopyText;
using plinth::common::RegisterGlobalOption;
using namespace plinth::tcp;

static_assert(kIoAgain == PLINTH_IO_AGAIN && kIoError == PLINTH_IO_ERROR);
// plinth_iovec_t is laid out like struct iovec, so writev hands the array to the kernel as is.
static_assert(sizeof(plinth_iovec_t) == sizeof(iovec) &&
              offsetof(plinth_iovec_t, base) == offsetof(iovec, iov_base) &&
              offsetof(plinth_iovec_t, len) == offsetof(iovec, iov_len));

struct Conn {
  int fd;
};

struct State {
  int32_t transport_id = -1;
  std::vector<Listener> listeners;
  WarningThrottle fd_warning{std::chrono::seconds(1)};
};
State g_state;

const plinth_host_api_t& Api() { return plinth::sdk::Api(); }

void Log(LogLevel level, const std::string& text) {
  Api().log_write(plinth::sdk::Host::self,
                  level == LogLevel::kWarning ? PLINTH_LOG_WARNING : PLINTH_LOG_NOTICE, text.data(),
                  text.size());
}

// The handles of this plugin's options, set by Init.
struct Options {
  const plinth_option_t* bind = nullptr;
  const plinth_option_t* port = nullptr;
  const plinth_option_t* backlog = nullptr;
  const plinth_option_t* keepalive = nullptr;
  const plinth_option_t* unixsocket = nullptr;
  const plinth_option_t* unixsocketperm = nullptr;
} g_options;

using plinth::sdk::OptionInt;
using plinth::sdk::OptionString;

int32_t StartListeners() {
  ListenConfig config;
  std::string error;
  const auto bind = plinth::common::ParseBindList(OptionString(g_options.bind), &error);
  if (!bind) {
    Log(LogLevel::kWarning, error);
    return PLINTH_ERR;
  }
  config.bind = *bind;
  config.port = static_cast<int>(OptionInt(g_options.port));
  config.backlog = static_cast<int>(OptionInt(g_options.backlog));
  config.unix_path = OptionString(g_options.unixsocket);
  config.unix_perm =
      plinth::common::ParseUnixSocketPerm(OptionString(g_options.unixsocketperm)).value_or(0);
  if (!OpenListeners(config, &Log, &g_state.listeners, &error)) {
    Log(LogLevel::kWarning, error);
    return PLINTH_ERR;
  }
  for (const Listener& l : g_state.listeners) {
    if (Api().listener_add(plinth::sdk::Host::self, g_state.transport_id, l.fd,
                           l.description.c_str()) != PLINTH_OK) {
      Log(LogLevel::kWarning, "the host refused listener " + l.description);
      CloseListeners(&g_state.listeners);
      return PLINTH_ERR;
    }
  }
  for (const Listener& l : g_state.listeners) {
    Log(LogLevel::kNotice, std::string("Ready to accept connections ") +
                               (l.is_unix ? "unix " : "tcp ") + l.description);
  }
  if (g_state.listeners.empty()) {
    Log(LogLevel::kWarning, "tcp: port is 0 and no unixsocket is set: not listening anywhere");
  }
  return PLINTH_OK;
}

// The hooks below catch everything: no exception may cross the C boundary.
int32_t Start(void*) {
  try {
    return StartListeners();
  } catch (...) {
    CloseListeners(&g_state.listeners);
    return PLINTH_ERR;
  }
}

void Stop(void*) { CloseListeners(&g_state.listeners); }

int32_t AcceptConnection(int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                         char* local, size_t locallen, uint32_t* flags) {
  std::string unix_path;
  for (const Listener& l : g_state.listeners) {
    if (l.fd == lfd && l.is_unix) unix_path = l.description;
  }
  const int keepalive = static_cast<int>(OptionInt(g_options.keepalive));
  Accepted a;
  int err = 0;
  switch (AcceptOne(lfd, unix_path, keepalive, &a, &err)) {
    case AcceptStatus::kAgain:
      if (err != 0) {
        uint64_t held = 0;
        if (g_state.fd_warning.Allow(std::chrono::steady_clock::now(), &held)) {
          Log(LogLevel::kWarning, std::string("Accepting client connection: ") +
                                      std::strerror(err) + " (" + std::to_string(held) +
                                      " similar warnings suppressed)");
        }
      }
      return PLINTH_IO_AGAIN;
    case AcceptStatus::kError:
      Log(LogLevel::kWarning, std::string("Accepting client connection: ") + std::strerror(err));
      return PLINTH_IO_ERROR;
    case AcceptStatus::kOk:
      break;
  }
  Conn* c = new (std::nothrow) Conn{a.fd};
  if (c == nullptr) {
    close(a.fd);
    return PLINTH_IO_AGAIN;
  }
  *conn = c;
  *fd = a.fd;
  CopyText(a.peer, peer, peerlen);
  CopyText(a.local, local, locallen);
  *flags = (a.loopback ? PLINTH_CONN_LOCAL : 0u) | (a.is_unix ? PLINTH_CONN_UNIX : 0u);
  return PLINTH_OK;
}

int32_t Accept(void*, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
               char* local, size_t locallen, uint32_t* flags) {
  try {
    return AcceptConnection(lfd, conn, fd, peer, peerlen, local, locallen, flags);
  } catch (...) {
    return PLINTH_IO_AGAIN;
  }
}

int64_t Read(void*, void* conn, char* buf, size_t len) {
  return ReadSome(static_cast<Conn*>(conn)->fd, buf, len);
}

int64_t Writev(void*, void* conn, const plinth_iovec_t* iov, int32_t iovcnt) {
  return WriteSome(static_cast<Conn*>(conn)->fd, reinterpret_cast<const iovec*>(iov), iovcnt);
}

void Close(void*, void* conn) {
  auto* c = static_cast<Conn*>(conn);
  close(c->fd);
  delete c;
}

// Validation of the options whose text the host cannot check by type.

int32_t ApplyPerm(void*, const char*, const char* value, size_t len, int64_t, char* err,
                  size_t errlen) {
  if (plinth::common::ParseUnixSocketPerm(std::string_view(value, len))) return PLINTH_OK;
  CopyText("unixsocketperm must be octal digits such as 700, at most 777", err, errlen);
  return PLINTH_ERR;
}

bool Init() {
  const bool options =
      RegisterGlobalOption(&g_options.bind, "bind", PLINTH_OPT_STRING, 0, "127.0.0.1 ::1", 0, 0,
                           "Addresses to listen on, space separated ('-addr' may be missing)",
                           &plinth::common::ApplyBindOption) &&
      RegisterGlobalOption(&g_options.port, "port", PLINTH_OPT_INT, 0, "6379", 0, 65535,
                           "TCP port to listen on; 0 disables TCP", nullptr) &&
      RegisterGlobalOption(&g_options.backlog, "tcp-backlog", PLINTH_OPT_INT, 0, "511", 0,
                           INT32_MAX, "Backlog of the listen() calls", nullptr) &&
      RegisterGlobalOption(
          &g_options.keepalive, "tcp-keepalive", PLINTH_OPT_INT, PLINTH_OPT_MUTABLE, "300", 0,
          INT32_MAX, "Seconds between TCP keepalive probes of new clients; 0 disables", nullptr) &&
      RegisterGlobalOption(&g_options.unixsocket, "unixsocket", PLINTH_OPT_STRING, 0, "", 0, 0,
                           "Path of a unix socket to listen on; empty for none", nullptr) &&
      RegisterGlobalOption(
          &g_options.unixsocketperm, "unixsocketperm", PLINTH_OPT_INT, 0, "0", 0, 777,
          "Octal permissions of the unix socket file (700); 0 keeps the umask's", &ApplyPerm);
  if (!options) return false;
  static const plinth_transport_spec_t spec = {sizeof(plinth_transport_spec_t),
                                               "tcp",
                                               nullptr,
                                               &Start,
                                               &Stop,
                                               &Accept,
                                               &Read,
                                               &Writev,
                                               &Close,
                                               0,  // copies what writev gets; polled fd
                                               nullptr};
  g_state.transport_id = Api().transport_register(plinth::sdk::Host::self, &spec);
  return g_state.transport_id >= 0;
}

void Shutdown() { CloseListeners(&g_state.listeners); }

}  // namespace

PLINTH_PLUGIN("tcp", "1.0.0", "TCP and unix socket transport", &Init, &Shutdown)
