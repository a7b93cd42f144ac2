// Internal clients: a plugin's trusted session that runs commands through the host's own
// dispatch (AOF loading, a replica applying its primary's stream). Its replies are dropped except
// a top-level error, which client_exec returns. api/base.cc puts its functions in the host API
// table. Main thread only.
#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "host/core/api.h"
#include "host/core/core.h"

struct plinth_client {
  // The reply sink, which knows its client.
  struct Sink : plinth::host::ReplySink {
    plinth_client* owner = nullptr;
  } sink;
  plinth::host::Core* core = nullptr;
  plinth::host::Session session;
  bool first = true;  // the next item starts a top-level reply
  std::string error;  // the top-level error of the command running now
};

namespace plinth::host {
namespace {

plinth_client* Owner(ReplySink* sink) { return static_cast<plinth_client::Sink*>(sink)->owner; }

void SinkItem(ReplySink* self, const plinth_reply_item_t& item) {
  plinth_client* c = Owner(self);
  if (c->first && item.type == PLINTH_REPLY_ERROR) c->error.assign(item.data, item.len);
  c->first = false;
}

void SinkRef(ReplySink* self, const char*, size_t, plinth_release_fn release, void* arg) {
  Owner(self)->first = false;
  if (release) release(arg);
}

}  // namespace

plinth_client_t* ClientCreateInternal(plinth_plugin_t* self, uint32_t flags) {
  self->core->server.AssertMainThread("client_create_internal");
  auto* c = new (std::nothrow) plinth_client();
  if (!c) return nullptr;
  c->sink.owner = c;
  c->sink.item = SinkItem;
  c->sink.ref = SinkRef;
  c->core = self->core;
  c->session.id = self->core->server.state.next_internal_id--;
  c->session.internal = true;
  c->session.authenticated = true;
  c->session.no_propagate = (flags & PLINTH_INTERNAL_NO_PROPAGATE) != 0;
  c->session.name = self->name;
  return c;
}

int32_t ClientExec(plinth_client_t* c, int32_t argc, const char* const* argv, const size_t* argvlen,
                   char* err, size_t errlen) {
  if (!c || argc < 1 || !argv || !argvlen) return PLINTH_ERR;
  c->core->server.AssertMainThread("client_exec");
  c->first = true;
  c->error.clear();
  c->core->dispatch.Execute(c->session, c->sink, argc, argv, argvlen);
  if (c->error.empty()) return PLINTH_OK;
  if (err && errlen) {
    const size_t n = std::min(errlen - 1, c->error.size());
    std::memcpy(err, c->error.data(), n);
    err[n] = '\0';
  }
  return PLINTH_ERR;
}

void ClientDestroyInternal(plinth_client_t* c) {
  if (!c) return;
  c->core->sessions.SessionClosed(c->session);
  c->session.tx.EndMulti();
  c->session.tx.Unwatch();
  delete c;
}

}  // namespace plinth::host
