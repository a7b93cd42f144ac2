// Host API of abi/replies.h: the reply_* functions a command answers with, each item handed to
// the call's reply sink once ReplyAccept lets it through. Main thread.
#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {
namespace {

// Sends one reply item that ReplyAccept has let through.
void Send(plinth_call_t* call, uint32_t type, int64_t integer, const char* data, size_t len,
          double dbl = 0, const char* ext = nullptr) {
  if (!call->sink) return;
  plinth_reply_item_t item;
  item.struct_size = sizeof item;
  item.type = type;
  item.integer = integer;
  item.dbl = dbl;
  item.data = data;
  item.len = len;
  item.ext = ext;
  call->sink->Item(item);
}

void Emit(plinth_call_t* call, uint32_t type, int64_t integer, const char* data, size_t len,
          double dbl = 0, const char* ext = nullptr, int64_t aggregate = 0) {
  call->core->server.AssertMainThread("reply_*");
  if (ReplyAccept(call, aggregate)) Send(call, type, integer, data, len, dbl, ext);
}

void ReplySimple(plinth_call_t* c, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_SIMPLE, 0, s, n);
}

void ReplyError(plinth_call_t* c, const char* s, size_t n) {
  c->core->server.AssertMainThread("reply_*");
  const bool top = c->replies == 0;  // the command's reply is this error: a failed call
  if (!ReplyAccept(c, 0)) return;    // a dropped error is not counted either
  c->error_reply = c->error_reply || top;
  c->core->dispatch.CountErrorReply({s, n});
  Send(c, PLINTH_REPLY_ERROR, 0, s, n);
}

void ReplyInteger(plinth_call_t* c, int64_t v) { Emit(c, PLINTH_REPLY_INTEGER, v, nullptr, 0); }

void ReplyNullArray(plinth_call_t* c) { Emit(c, PLINTH_REPLY_NULL_ARRAY, 0, nullptr, 0); }

void ReplyArray(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_ARRAY, n, nullptr, 0, 0, nullptr, n);
}

void ReplyMap(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_MAP, n, nullptr, 0, 0, nullptr, n > 0 ? 2 * n : 0);
}

void ReplySet(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_SET, n, nullptr, 0, 0, nullptr, n);
}

void ReplyPush(plinth_call_t* c, int64_t n) {
  Emit(c, PLINTH_REPLY_PUSH, n, nullptr, 0, 0, nullptr, n);
}

void ReplyDouble(plinth_call_t* c, double v) { Emit(c, PLINTH_REPLY_DOUBLE, 0, nullptr, 0, v); }

void ReplyBool(plinth_call_t* c, int32_t v) { Emit(c, PLINTH_REPLY_BOOL, v ? 1 : 0, nullptr, 0); }

void ReplyVerbatim(plinth_call_t* c, const char* fmt, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_VERBATIM, 0, s, n, 0, fmt ? fmt : "txt");
}

void ReplyBignum(plinth_call_t* c, const char* s, size_t n) {
  Emit(c, PLINTH_REPLY_BIGNUM, 0, s, n);
}

}  // namespace

void ReplyNull(plinth_call_t* c) { Emit(c, PLINTH_REPLY_NULL, 0, nullptr, 0); }

void ReplyBulk(plinth_call_t* c, const char* s, size_t n) { Emit(c, PLINTH_REPLY_BULK, 0, s, n); }

void FillRepliesApi(plinth_host_api_t* t) {
  t->reply_simple = ReplySimple;
  t->reply_error = ReplyError;
  t->reply_integer = ReplyInteger;
  t->reply_bulk = ReplyBulk;
  t->reply_null = ReplyNull;
  t->reply_null_array = ReplyNullArray;
  t->reply_array = ReplyArray;
  t->reply_map = ReplyMap;
  t->reply_set = ReplySet;
  t->reply_double = ReplyDouble;
  t->reply_bool = ReplyBool;
  t->reply_verbatim = ReplyVerbatim;
  t->reply_bignum = ReplyBignum;
  t->reply_push = ReplyPush;
}

}  // namespace plinth::host
