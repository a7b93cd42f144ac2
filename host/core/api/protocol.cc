// Host API of abi/protocol.h: registering the protocol, the client's protocol version, pushing a
// reply to another client, the subscription counts that put a RESP2 client in subscriber mode,
// and client_reset (which tells the client listeners). Main thread.
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

int32_t ClientProtocol(plinth_call_t* c) { return c->session ? c->session->proto : 2; }

int32_t ClientSetProtocol(plinth_call_t* c, int32_t v) {
  if (v != 2 && v != 3) return PLINTH_ERR;
  if (c->session) c->session->proto = v;
  return PLINTH_OK;
}

// Whether items[0, n) is exactly one complete reply.
bool OneReply(const plinth_reply_item_t* items, size_t n) {
  int64_t due = 1;  // elements still expected
  for (size_t i = 0; i < n; ++i) {
    if (due == 0) return false;
    due--;
    const plinth_reply_item_t& it = items[i];
    const int64_t count = it.integer < 0 ? 0 : it.integer;
    switch (it.type) {
      case PLINTH_REPLY_ARRAY:
      case PLINTH_REPLY_SET:
      case PLINTH_REPLY_PUSH:
        if (count > INT32_MAX) return false;
        due += count;
        break;
      case PLINTH_REPLY_MAP:
        if (count > INT32_MAX) return false;
        due += 2 * count;
        break;
      default:
        break;
    }
  }
  return n > 0 && due == 0;
}

int32_t ClientPush(plinth_plugin_t* self, uint64_t id, const plinth_reply_item_t* items, size_t n) {
  if (!self || !items || !OneReply(items, n)) return PLINTH_ERR;
  self->core->server.AssertMainThread("client_push");
  return self->core->server.env().clients->PushToClient(id, items, n);
}

void ClientSetSubscriptions(plinth_call_t* c, int64_t channels, int64_t patterns) {
  if (!c->session) return;
  c->session->sub_channels = channels > 0 ? channels : 0;
  c->session->sub_patterns = patterns > 0 ? patterns : 0;
}

int64_t ClientSubscriptions(plinth_call_t* c) {
  return c->session ? c->session->sub_channels + c->session->sub_patterns : 0;
}

void ClientReset(plinth_call_t* c) {
  if (!c->session) return;
  Transaction& t = c->session->tx;
  if (!t.executing) t.EndMulti();  // RESET queued inside EXEC leaves EXEC's queue alone
  t.Unwatch();
  c->session->sub_channels = c->session->sub_patterns = 0;
  c->session->no_touch = false;
  c->session->user_id = 0;  // back to the default user, unauthenticated
  c->session->acl_restricted = false;
  c->session->user = "default";
  c->session->authenticated = false;
  c->core->events.ClientEvent(*c->session, PLINTH_CLIENT_RESET);
}

int32_t ProtocolRegister(plinth_plugin_t* self, const plinth_protocol_spec_t* spec) {
  if (!InInit(self, "protocol_register")) return PLINTH_ERR;
  return Refused(self,
                 self->core->endpoints.SetProtocol(spec, self->name, self->descriptor.abi_minor));
}

}  // namespace

void FillProtocolApi(plinth_host_api_t* t) {
  t->protocol_register = ProtocolRegister;
  t->client_protocol = ClientProtocol;
  t->client_set_protocol = ClientSetProtocol;
  t->client_reset = ClientReset;
  t->client_push = ClientPush;
  t->client_set_subscriptions = ClientSetSubscriptions;
  t->client_subscriptions = ClientSubscriptions;
}

}  // namespace plinth::host
