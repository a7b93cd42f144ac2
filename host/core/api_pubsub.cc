// Host API for pub/sub and other per-client state a plugin keeps: sending a reply to another
// client (client_push), the subscription counts that put a RESP2 client in subscriber mode,
// and client_reset (which tells the client listeners; they register in api_server.cc).
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

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
  self->core->AssertMainThread("client_push");
  return self->core->env().PushToClient(id, items, n);
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
  c->core->ClientEvent(*c->session, PLINTH_CLIENT_RESET);
}

}  // namespace

void FillPubsubApi(plinth_host_api_t* t) {
  t->client_push = ClientPush;
  t->client_set_subscriptions = ClientSetSubscriptions;
  t->client_subscriptions = ClientSubscriptions;
  t->client_reset = ClientReset;
}

}  // namespace plinth::host
