// The rdma plugin's descriptor: the RDMA transport (Valkey over RDMA wire protocol) with its
// options (rdma-port, rdma-bind, rdma-rx-size, rdma-completion-vector), the INFO rdma section
// and the keepalive timer. start/stop/accept/close and the rdma_cm events run on the main
// thread; read and writev (completion events, the CQ, the engine) on the connection's IO
// thread. The host polls each connection's completion channel for reading only
// (PLINTH_TRANSPORT_POLL_READ_ONLY); writability and the readiness a writev found come through
// conn_notify.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <plinth/plugin.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/address.h"
#include "common/bind_option.h"
#include "common/options.h"
#include "rdma/listener.h"
#include "rdma/verbs_conn.h"

namespace {

using plinth::common::CopyText;
using plinth::common::RegisterGlobalOption;
using namespace plinth::rdma;

struct Conn {
  std::unique_ptr<VerbsConn> verbs;
  plinth_conn_t* host = nullptr;
};

struct Options {
  const plinth_option_t* port = nullptr;
  const plinth_option_t* bind = nullptr;
  const plinth_option_t* rx_size = nullptr;
  const plinth_option_t* comp_vector = nullptr;
} g_options;

struct State {
  int32_t transport_id = -1;
  std::vector<std::unique_ptr<CmListener>> listeners;
  std::unordered_set<Conn*> conns;
  Counters counters;
  plinth_timer_t* keepalive_timer = nullptr;
  std::string status = "off";             // off | listening | unavailable | error
  std::string reason = "rdma-port is 0";  // why it is not listening
  uint64_t accepted = 0, rejected = 0;    // connections over the listeners' lifetime
  uint32_t next_vector = 0;               // round robin when rdma-completion-vector < 0
};
State* g_state = nullptr;

const plinth_host_api_t& Api() { return plinth::sdk::Api(); }

void Log(int level, const std::string& text) {
  Api().log_write(plinth::sdk::Host::self, level, text.data(), text.size());
}

void Notify(plinth_conn_t* conn, uint32_t events) { Api().conn_notify(conn, events); }

// Stops listening. The channels stay until Shutdown: the accepted connections' events arrive
// on them.
void StopListeners() {
  for (const auto& l : g_state->listeners) l->StopListening();
  if (g_state->keepalive_timer != nullptr) Api().timer_stop(g_state->keepalive_timer);
  g_state->keepalive_timer = nullptr;
}

// Every second: connections whose keepalive is due send it from their next read.
void KeepaliveTick(void*) {
  for (Conn* c : g_state->conns) {
    c->verbs->KeepaliveDue();
    if (c->host != nullptr) Notify(c->host, PLINTH_CONN_READABLE);
  }
}

int32_t StartListeners() {
  const int port = static_cast<int>(plinth::sdk::OptionInt(g_options.port));
  if (port == 0) return PLINTH_OK;  // off, as configured
  const std::string missing = MissingDeviceReason();
  if (!missing.empty()) {
    g_state->status = "unavailable";
    g_state->reason = "no RDMA device: " + missing;
    Log(PLINTH_LOG_WARNING, g_state->reason + "; RDMA stays disabled, other transports serve");
    return PLINTH_OK;
  }
  std::string error;
  const auto bind =
      plinth::common::ParseBindList(plinth::sdk::OptionString(g_options.bind), &error);
  if (!bind) {
    Log(PLINTH_LOG_WARNING, error);
    return PLINTH_ERR;
  }
  for (const plinth::common::BindAddress& a : *bind) {
    auto l = CmListener::Open(a.host, port, 511, &error);
    if (l == nullptr && a.optional) {
      Log(PLINTH_LOG_WARNING, "skipping optional rdma-bind address " + a.host + ": " + error);
      continue;
    }
    if (l == nullptr || Api().listener_add(plinth::sdk::Host::self, g_state->transport_id, l->fd(),
                                           l->description().c_str()) != PLINTH_OK) {
      if (l != nullptr) error = "the host refused listener " + l->description();
      g_state->status = "error";
      g_state->reason = error;
      Log(PLINTH_LOG_WARNING, error);
      StopListeners();
      return PLINTH_ERR;
    }
    Log(PLINTH_LOG_NOTICE, "Ready to accept connections rdma " + l->description());
    g_state->listeners.push_back(std::move(l));
  }
  g_state->status = "listening";
  g_state->reason = "";
  g_state->keepalive_timer =
      Api().timer_start(plinth::sdk::Host::self, 1000, 1000, &KeepaliveTick, nullptr);
  return PLINTH_OK;
}

int32_t Start(void*) {
  try {
    return StartListeners();
  } catch (...) {
    StopListeners();
    return PLINTH_ERR;
  }
}

void Stop(void*) { StopListeners(); }

Conn* ConnOf(rdma_cm_id* id) {
  auto* c = static_cast<Conn*>(id->context);
  return c != nullptr && g_state->conns.count(c) ? c : nullptr;
}

// A CONNECT_REQUEST: sets the connection up and accepts it. nullptr when it was rejected.
Conn* AcceptRequest(rdma_cm_id* id) {
  ConnConfig config;
  config.rx_size = static_cast<uint32_t>(plinth::sdk::OptionInt(g_options.rx_size));
  const int vectors = std::max(1, id->verbs != nullptr ? id->verbs->num_comp_vectors : 1);
  const int64_t want = plinth::sdk::OptionInt(g_options.comp_vector);
  config.comp_vector =
      static_cast<int>(want >= 0 ? want % vectors : g_state->next_vector++ % vectors);
  std::string error;
  std::unique_ptr<VerbsConn> verbs = VerbsConn::Create(id, config, &g_state->counters, &error);
  if (verbs != nullptr && !verbs->Accept())
    error = std::string("rdma_accept: ") + std::strerror(errno);
  if (verbs == nullptr || !error.empty()) {
    Log(PLINTH_LOG_WARNING, "refusing an RDMA connection: " + error);
    ++g_state->rejected;
    rdma_reject(id, nullptr, 0);
    if (verbs == nullptr) rdma_destroy_id(id);  // else the connection's destructor does
    return nullptr;
  }
  auto* c = new Conn{std::move(verbs)};
  id->context = c;
  g_state->conns.insert(c);
  ++g_state->accepted;
  return c;
}

int32_t AcceptConnection(int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                         char* local, size_t locallen, uint32_t* flags) {
  CmListener* l = nullptr;
  for (const auto& candidate : g_state->listeners) {
    if (candidate->fd() == lfd) l = candidate.get();
  }
  if (l == nullptr) return PLINTH_IO_ERROR;
  for (;;) {
    rdma_cm_event* ev = nullptr;
    if (rdma_get_cm_event(l->channel(), &ev) != 0) return PLINTH_IO_AGAIN;  // none pending
    const rdma_cm_event_type type = ev->event;
    rdma_cm_id* id = ev->id;
    rdma_ack_cm_event(ev);  // before the id may be destroyed
    if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
      Conn* c = AcceptRequest(id);
      if (c == nullptr) continue;
      *conn = c;
      *fd = c->verbs->channel_fd();  // readable only: writability comes from conn_notify
      const sockaddr* peer_sa = rdma_get_peer_addr(id);
      CopyText(plinth::common::FormatSockaddr(peer_sa), peer, peerlen);
      CopyText(plinth::common::FormatSockaddr(rdma_get_local_addr(id)), local, locallen);
      *flags = plinth::common::IsLoopback(peer_sa) ? PLINTH_CONN_LOCAL : 0u;
      return PLINTH_OK;
    }
    Conn* c = ConnOf(id);
    if (c == nullptr) continue;  // the listener's own id, or a connection already closed
    if (type == RDMA_CM_EVENT_ESTABLISHED) {
      c->verbs->OnEstablished();
      if (c->host != nullptr) Notify(c->host, PLINTH_CONN_READABLE | PLINTH_CONN_WRITABLE);
    } else if (type == RDMA_CM_EVENT_DISCONNECTED || type == RDMA_CM_EVENT_DEVICE_REMOVAL ||
               type == RDMA_CM_EVENT_CONNECT_ERROR || type == RDMA_CM_EVENT_UNREACHABLE ||
               type == RDMA_CM_EVENT_REJECTED || type == RDMA_CM_EVENT_TIMEWAIT_EXIT) {
      c->verbs->OnDisconnected();
      if (c->host != nullptr) Notify(c->host, PLINTH_CONN_READABLE | PLINTH_CONN_CLOSED);
    }
  }
}

int32_t Accept(void*, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
               char* local, size_t locallen, uint32_t* flags) {
  try {
    return AcceptConnection(lfd, conn, fd, peer, peerlen, local, locallen, flags);
  } catch (...) {
    return PLINTH_IO_AGAIN;
  }
}

void Attach(void*, void* conn, plinth_conn_t* host) { static_cast<Conn*>(conn)->host = host; }

int64_t Read(void*, void* conn, char* buf, size_t len) {
  return static_cast<Conn*>(conn)->verbs->Read(buf, len);
}

int64_t Writev(void*, void* conn, const plinth_iovec_t* iov, int32_t iovcnt) {
  auto* c = static_cast<Conn*>(conn);
  bool kick = false;
  const int64_t n = c->verbs->Writev(iov, iovcnt, &kick);
  if (kick && c->host != nullptr) Notify(c->host, PLINTH_CONN_READABLE);
  return n;
}

void Close(void*, void* conn) {
  auto* c = static_cast<Conn*>(conn);
  g_state->conns.erase(c);
  if (!c->verbs->error().empty()) {
    Log(PLINTH_LOG_NOTICE, "closing an RDMA connection: " + c->verbs->error());
  }
  delete c;
}

void Info(void*, plinth_info_t* info) {
  const plinth_host_api_t& api = Api();
  const State& s = *g_state;
  api.info_field_int(info, "rdma_enabled", s.status == "listening" ? 1 : 0);
  api.info_field(info, "rdma_status", s.status.data(), s.status.size());
  api.info_field(info, "rdma_reason", s.reason.data(), s.reason.size());
  for (size_t i = 0; i < s.listeners.size(); ++i) {
    const std::string line = "name=rdma,bind=" + s.listeners[i]->host() +
                             ",port=" + std::to_string(plinth::sdk::OptionInt(g_options.port));
    api.info_field(info, ("rdma_listener" + std::to_string(i)).c_str(), line.data(), line.size());
  }
  api.info_field_int(info, "rdma_rx_size", plinth::sdk::OptionInt(g_options.rx_size));
  api.info_field_int(info, "rdma_connected_clients", static_cast<int64_t>(s.conns.size()));
  api.info_field_int(info, "rdma_total_connections", static_cast<int64_t>(s.accepted));
  api.info_field_int(info, "rdma_rejected_connections", static_cast<int64_t>(s.rejected));
  auto counter = [&](const char* name, const std::atomic<uint64_t>& v) {
    api.info_field_int(info, name, static_cast<int64_t>(v.load(std::memory_order_relaxed)));
  };
  counter("rdma_bytes_received", s.counters.bytes_in);
  counter("rdma_bytes_sent", s.counters.bytes_out);
  counter("rdma_writes_with_imm", s.counters.writes);
  counter("rdma_keepalives_sent", s.counters.keepalives);
  counter("rdma_buffer_refreshes", s.counters.refreshes);
  counter("rdma_connection_errors", s.counters.errors);
}

bool Init() {
  g_state = new (std::nothrow) State();
  if (g_state == nullptr) return false;
  const bool options =
      RegisterGlobalOption(&g_options.port, "rdma-port", PLINTH_OPT_INT, 0, "0", 0, 65535,
                           "RDMA port to listen on (rdma_cm, RDMA_PS_TCP); 0 disables RDMA",
                           nullptr) &&
      RegisterGlobalOption(&g_options.bind, "rdma-bind", PLINTH_OPT_STRING, 0, "127.0.0.1", 0, 0,
                           "Addresses the RDMA listener binds, space separated",
                           &plinth::common::ApplyBindOption) &&
      RegisterGlobalOption(&g_options.rx_size, "rdma-rx-size", PLINTH_OPT_MEMORY, 0, "1mb",
                           64 << 10, kMaxRxLen,
                           "Bytes of each connection's RX buffer (64kb .. 16mb)", nullptr) &&
      RegisterGlobalOption(&g_options.comp_vector, "rdma-completion-vector", PLINTH_OPT_INT, 0,
                           "-1", -1, 1024,
                           "Completion vector of the connections' CQs; -1 spreads them", nullptr);
  if (!options) return false;
  if (Api().info_register(plinth::sdk::Host::self, "rdma", &Info, nullptr) != PLINTH_OK) {
    return false;
  }
  static const plinth_transport_spec_t spec = {
      sizeof(plinth_transport_spec_t), "rdma", nullptr, &Start, &Stop, &Accept, &Read, &Writev,
      &Close,
      // writev copies into the staging buffer: the host's buffers are free on return.
      PLINTH_TRANSPORT_POLL_READ_ONLY, &Attach};
  g_state->transport_id = Api().transport_register(plinth::sdk::Host::self, &spec);
  return g_state->transport_id >= 0;
}

void Shutdown() {
  if (g_state == nullptr) return;
  StopListeners();
  for (Conn* c : g_state->conns) delete c;
  g_state->conns.clear();
  g_state->listeners.clear();
  delete g_state;
  g_state = nullptr;
}

}  // namespace

PLINTH_PLUGIN("rdma", "0.1.0", "RDMA transport (Valkey over RDMA wire protocol)", &Init, &Shutdown)
