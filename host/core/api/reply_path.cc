// Host API of abi/reply_path.h: registering the reply path and the replies it may send by
// reference (reply_value, reply_bulk_ref). Main thread.
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/keys.h"

namespace plinth::host {
namespace {

void ReplyValue(plinth_call_t* c, const plinth_value_t* v) {
  if (!v || v->type != PLINTH_TYPE_STRING) {
    ReplyNull(c);
    return;
  }
  if (c->sink && c->sink->value) {  // the sink asks the reply path and may copy later
    c->core->server.AssertMainThread("reply_value");
    if (ReplyAccept(c, 0)) c->sink->value(c->sink, v);
    return;
  }
  const char* data = StringData(v);
  const ReplyPath* rp = c->core->endpoints.reply_path.get();
  if (c->sink && rp) {
    plinth_reply_value_info_t info{sizeof info, 0, StringLen(v), "", 0};
    if (rp->spec.by_reference(rp->spec.ctx, &info)) {
      if (!ReplyAccept(c, 0)) return;
      ValueRetain(v);
      c->sink->Ref(data, StringLen(v), ValueReleaseArg, const_cast<plinth_value_t*>(v));
      return;
    }
  }
  ReplyBulk(c, data, StringLen(v));
}

void ReplyBulkRef(plinth_call_t* c, const char* s, size_t n, plinth_release_fn rel, void* arg) {
  if (!ReplyAccept(c, 0) || !c->sink) {
    if (rel) rel(arg);
    return;
  }
  c->sink->Ref(s, n, rel, arg);
}

int32_t ReplyPathRegister(plinth_plugin_t* self, const plinth_reply_path_spec_t* spec) {
  if (!InInit(self, "reply_path_register")) return PLINTH_ERR;
  return Refused(self, self->core->endpoints.SetReplyPath(spec, self->name));
}

}  // namespace

void FillReplyPathApi(plinth_host_api_t* t) {
  t->reply_path_register = ReplyPathRegister;
  t->reply_value = ReplyValue;
  t->reply_bulk_ref = ReplyBulkRef;
}

}  // namespace plinth::host
