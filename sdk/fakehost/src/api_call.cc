// Host table, part 3: the call (arguments, replies, replicate) and the calling client.
// Main thread, during a command handler.
#include <cstring>
#include <string>

#include "internal.h"

namespace plinth::fakehost {
namespace {

int32_t CallArgc(plinth_call_t* call) {
  return call ? static_cast<int32_t>(CallOf(call)->argv.size()) : 0;
}

const char* CallArg(plinth_call_t* call, int32_t i, size_t* len) {
  CallRec* c = CallOf(call);
  if (!c || i < 0 || static_cast<size_t>(i) >= c->argv.size()) {
    if (len) *len = 0;
    return nullptr;
  }
  if (len) *len = c->argv[i].size();
  return c->argv[i].c_str();
}

void Add(plinth_call_t* call, ReplyType type, int64_t children = 0) {
  if (!call) return;
  Reply r;
  r.type = type;
  CallOf(call)->replies.Add(std::move(r), children);
}

void AddText(plinth_call_t* call, ReplyType type, const char* s, size_t len) {
  if (!call) return;
  Reply r;
  r.type = type;
  if (s) r.str.assign(s, len);
  CallOf(call)->replies.Add(std::move(r));
}

void ReplySimple(plinth_call_t* c, const char* s, size_t len) {
  AddText(c, ReplyType::kSimple, s, len);
}
void ReplyError(plinth_call_t* c, const char* s, size_t len) {
  AddText(c, ReplyType::kError, s, len);
}
void ReplyBulk(plinth_call_t* c, const char* s, size_t len) {
  AddText(c, ReplyType::kBulk, s, len);
}
void ReplyBignum(plinth_call_t* c, const char* s, size_t len) {
  AddText(c, ReplyType::kBigNumber, s, len);
}
void ReplyNull(plinth_call_t* c) { Add(c, ReplyType::kNull); }
void ReplyNullArray(plinth_call_t* c) { Add(c, ReplyType::kNullArray); }
void ReplyArray(plinth_call_t* c, int64_t n) { Add(c, ReplyType::kArray, n); }
void ReplyMap(plinth_call_t* c, int64_t n) { Add(c, ReplyType::kMap, n > 0 ? 2 * n : 0); }
void ReplySet(plinth_call_t* c, int64_t n) { Add(c, ReplyType::kSet, n); }

void ReplyInteger(plinth_call_t* call, int64_t v) {
  if (!call) return;
  Reply r;
  r.type = ReplyType::kInteger;
  r.integer = v;
  CallOf(call)->replies.Add(std::move(r));
}

void ReplyBool(plinth_call_t* call, int32_t v) {
  if (!call) return;
  Reply r;
  r.type = ReplyType::kBool;
  r.integer = v ? 1 : 0;
  CallOf(call)->replies.Add(std::move(r));
}

void ReplyDouble(plinth_call_t* call, double v) {
  if (!call) return;
  Reply r;
  r.type = ReplyType::kDouble;
  r.dbl = v;
  CallOf(call)->replies.Add(std::move(r));
}

void ReplyVerbatim(plinth_call_t* call, const char* format, const char* s, size_t len) {
  if (!call) return;
  Reply r;
  r.type = ReplyType::kVerbatim;
  r.format = format ? std::string(format, strnlen(format, 3)) : "txt";
  if (s) r.str.assign(s, len);
  CallOf(call)->replies.Add(std::move(r));
}

void ReplyValue(plinth_call_t* call, const plinth_value_t* v) {
  const ValueRec* rec = ValueOf(v);
  if (!rec || rec->type != PLINTH_TYPE_STRING) {
    static const char kMsg[] = "ERR fakehost: reply_value needs a string value";
    AddText(call, ReplyType::kError, kMsg, sizeof kMsg - 1);
    return;
  }
  AddText(call, ReplyType::kBulk, rec->str.data(), rec->str.size());
}

// The bytes are copied at once, so the reference is released at once, exactly once.
void ReplyBulkRef(plinth_call_t* call, const char* s, size_t len, plinth_release_fn release,
                  void* arg) {
  AddText(call, ReplyType::kBulk, s, len);
  if (release) release(arg);
}

int32_t Replicate(plinth_call_t* call, uint32_t flags, const char* command, int32_t argc,
                  const char* const* argv, const size_t* argvlen) {
  CallRec* c = CallOf(call);
  if (!c || !command || argc < 0 || (argc > 0 && !argv)) return PLINTH_ERR;
  PropagatedCommand effect{c->db, {command}};
  for (int32_t i = 0; i < argc; ++i) {
    if (!argv[i]) return PLINTH_ERR;
    effect.argv.emplace_back(argv[i], argvlen ? argvlen[i] : std::strlen(argv[i]));
  }
  if (!(flags & PLINTH_REPLICATE_NO_VALIDATE)) {
    const CommandRec* cmd = c->host->FindCommand(command);
    if (!cmd) {
      c->host->Log(nullptr, PLINTH_LOG_WARNING,
                   "replicate: unknown command '" + std::string(command) + "'");
      return PLINTH_ERR;
    }
    const int32_t n = argc + 1, arity = cmd->spec.arity;
    if ((arity > 0 && n != arity) || (arity < 0 && n < -arity)) {
      c->host->Log(nullptr, PLINTH_LOG_WARNING,
                   "replicate: wrong number of arguments for '" + cmd->name + "'");
      return PLINTH_ERR;
    }
  }
  c->replicated = true;
  c->pending.push_back(std::move(effect));
  return PLINTH_OK;
}

void CallNoPropagate(plinth_call_t* call) {
  if (call) CallOf(call)->no_propagate = true;
}

uint64_t ClientId(plinth_call_t*) { return 0; }

int32_t ClientSelect(plinth_call_t* call, int32_t db) {
  CallRec* c = CallOf(call);
  if (!c || !c->host->keyspace.ValidDb(db)) return PLINTH_ERR;
  c->db = db;
  c->host->client_db = db;
  return PLINTH_OK;
}

int32_t ClientProtocol(plinth_call_t* call) {
  return call ? CallOf(call)->host->client_protocol : 2;
}

int32_t ClientSetProtocol(plinth_call_t* call, int32_t version) {
  if (!call || (version != 2 && version != 3)) return PLINTH_ERR;
  CallOf(call)->host->client_protocol = version;
  return PLINTH_OK;
}

int32_t ClientAttrSet(plinth_call_t* call, uint32_t attr, const char* v, size_t len) {
  if (!call || attr < PLINTH_CLIENT_NAME || attr > PLINTH_CLIENT_LIB_VER) return PLINTH_ERR;
  CallOf(call)->host->client_attrs[attr] = v ? std::string(v, len) : std::string();
  return PLINTH_OK;
}

const char* ClientAttrGet(plinth_call_t* call, uint32_t attr, size_t* len) {
  if (len) *len = 0;
  if (!call) return nullptr;
  auto& attrs = CallOf(call)->host->client_attrs;
  auto it = attrs.find(attr);
  if (it == attrs.end()) return nullptr;
  if (len) *len = it->second.size();
  return it->second.c_str();
}

int32_t ClientAuthenticated(plinth_call_t* call) {
  return call && CallOf(call)->host->authenticated ? 1 : 0;
}

void ClientSetAuthenticated(plinth_call_t* call, int32_t yes) {
  if (call) CallOf(call)->host->authenticated = yes != 0;
}

void ClientCloseAfterReply(plinth_call_t* call) {
  if (call) CallOf(call)->host->close_requested = true;
}

// The fake's one client, as a CLIENT LIST line.
void ClientDescribe(plinth_call_t* call, uint64_t id, plinth_emit_fn emit, void* arg) {
  if (!call || !emit || id != 0) return;
  FakeHost::Impl* h = CallOf(call)->host;
  auto attr = [h](uint32_t a) {
    auto it = h->client_attrs.find(a);
    return it == h->client_attrs.end() ? std::string() : it->second;
  };
  std::string line = "id=0 addr=fake:0 laddr=fake:0 fd=-1 name=" + attr(PLINTH_CLIENT_NAME) +
                     " db=" + std::to_string(CallOf(call)->db) +
                     " resp=" + std::to_string(h->client_protocol) +
                     " lib-name=" + attr(PLINTH_CLIENT_LIB_NAME) +
                     " lib-ver=" + attr(PLINTH_CLIENT_LIB_VER) + "\n";
  emit(arg, line.data(), line.size());
}

int64_t ClientKill(plinth_call_t*, uint32_t, const char*, size_t) { return 0; }

}  // namespace

void FillCallApi(plinth_host_api_t* t) {
  t->call_argc = CallArgc;
  t->call_arg = CallArg;
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
  t->reply_value = ReplyValue;
  t->reply_bulk_ref = ReplyBulkRef;
  t->replicate = Replicate;
  t->call_no_propagate = CallNoPropagate;
  t->client_id = ClientId;
  t->client_select = ClientSelect;
  t->client_protocol = ClientProtocol;
  t->client_set_protocol = ClientSetProtocol;
  t->client_attr_set = ClientAttrSet;
  t->client_attr_get = ClientAttrGet;
  t->client_authenticated = ClientAuthenticated;
  t->client_set_authenticated = ClientSetAuthenticated;
  t->client_close_after_reply = ClientCloseAfterReply;
  t->client_describe = ClientDescribe;
  t->client_kill = ClientKill;
}

}  // namespace plinth::fakehost
