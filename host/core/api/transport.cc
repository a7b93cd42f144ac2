// Host API of abi/transport.h: registering transports, listeners, connection notices, and the
// raw output of replica clients. Main thread except conn_notify and conn_released.
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

void ClientSetReplica(plinth_call_t* c) {
  if (c->session) c->session->replica = true;
}

int32_t ClientWriteRaw(plinth_plugin_t* self, uint64_t id, const char* data, size_t len) {
  self->core->server.AssertMainThread("client_write_raw");
  if (!data && len) return PLINTH_ERR;
  return self->core->server.env().connections->WriteRaw(id, data, len);
}

int64_t ClientOutputPending(plinth_plugin_t* self, uint64_t id) {
  return self->core->server.env().connections->OutputPending(id);
}

int32_t ClientClose(plinth_plugin_t* self, uint64_t id, int32_t now) {
  self->core->server.AssertMainThread("client_close");
  return self->core->server.env().connections->CloseClient(id, now != 0);
}

int32_t TransportRegister(plinth_plugin_t* self, const plinth_transport_spec_t* spec) {
  if (!InInit(self, "transport_register")) return PLINTH_ERR;
  std::string err;
  int32_t id = self->core->endpoints.AddTransport(spec, self->name, &err);
  if (id < 0) Refused(self, err);
  return id < 0 ? PLINTH_ERR : id;
}

int32_t ListenerAdd(plinth_plugin_t* self, int32_t transport_id, int32_t fd, const char* desc) {
  if (!self) return PLINTH_ERR;
  const auto& ts = self->core->endpoints.transports;
  if (transport_id < 0 || static_cast<size_t>(transport_id) >= ts.size() || !ts[transport_id] ||
      fd < 0)
    return PLINTH_ERR;
  return self->core->server.env().connections->ListenerAdd(transport_id, fd, desc);
}

void ConnNotify(plinth_conn_t* conn, uint32_t events) {
  if (conn && conn->connections) conn->connections->ConnNotify(conn, events);
}

void ConnReleased(plinth_conn_t* conn, uint64_t total) {
  if (conn && conn->connections) conn->connections->ConnReleased(conn, total);
}

}  // namespace

void FillTransportApi(plinth_host_api_t* t) {
  t->transport_register = TransportRegister;
  t->listener_add = ListenerAdd;
  t->conn_notify = ConnNotify;
  t->conn_released = ConnReleased;
  t->client_set_replica = ClientSetReplica;
  t->client_write_raw = ClientWriteRaw;
  t->client_output_pending = ClientOutputPending;
  t->client_close = ClientClose;
}

}  // namespace plinth::host
