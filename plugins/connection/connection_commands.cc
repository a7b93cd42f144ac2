// PING, ECHO, SELECT, QUIT, RESET, AUTH and HELLO: per-connection state changes delegated to
// the host's client functions. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "common/subcommand.h"
#include "connection/handlers.h"
#include "connection/hello_args.h"

namespace plinth::connection {

using sdk::Api;

std::vector<std::string_view> ArgsFrom(const Call& c, int from) {
  std::vector<std::string_view> out;
  for (int i = from; i < c.argc(); ++i) out.push_back(c.arg(i));
  return out;
}

const plinth_option_t* g_replicaof = nullptr;

namespace {

void SetName(const Call& c, std::string_view name) {
  Api().client_attr_set(c.raw(), PLINTH_CLIENT_NAME, name.data(), name.size());
}

// HELLO's reply: the same seven fields as Redis 7.0 in standalone mode.
void ReplyHello(const Call& c) {
  // The replication plugin loads after this one: find its option at first use.
  if (!g_replicaof) g_replicaof = sdk::FindOption("replicaof");
  std::string replicaof = sdk::OptionString(g_replicaof);
  bool replica = !replicaof.empty() && !text::EqualsNoCase(replicaof, "no one");
  c.Map(7);
  c.Bulk("server");
  c.Bulk("redis");
  c.Bulk("version");
  c.Bulk("7.0.15");
  c.Bulk("proto");
  c.Integer(Api().client_protocol(c.raw()));
  c.Bulk("id");
  c.Integer(static_cast<int64_t>(Api().client_id(c.raw())));
  c.Bulk("mode");
  c.Bulk("standalone");
  c.Bulk("role");
  c.Bulk(replica ? "replica" : "master");
  c.Bulk("modules");
  c.Array(0);
}

}  // namespace

void Ping(Call& c) {
  if (c.argc() > 2) return c.Error("ERR wrong number of arguments for 'ping' command");
  // A RESP2 subscriber gets PING's subscriber form: ["pong", message or ""].
  if (Api().client_protocol(c.raw()) == 2 && Api().client_subscriptions(c.raw()) > 0) {
    c.Array(2);
    c.Bulk("pong");
    return c.Bulk(c.argc() == 2 ? c.arg(1) : std::string_view());
  }
  if (c.argc() == 2) return c.Bulk(c.arg(1));
  c.Simple("PONG");
}

void Echo(Call& c) { c.Bulk(c.arg(1)); }

void Select(Call& c) {
  int32_t db = 0;
  if (!text::ParseInt32(c.arg(1), &db)) return c.Error(errors::kNotInteger);
  if (Api().client_select(c.raw(), db) != PLINTH_OK) return c.Error(errors::kDbIndexOutOfRange);
  c.Ok();
}

void Quit(Call& c) {
  Api().client_close_after_reply(c.raw());
  c.Ok();
}

void Reset(Call& c) {
  Api().client_reset(c.raw());
  Api().client_select(c.raw(), 0);
  Api().client_set_protocol(c.raw(), 2);
  SetName(c, "");
  c.Simple("RESET");
}

void Auth(Call& c) {
  if (c.argc() > 3) return c.Error(errors::kSyntax);
  const std::string_view pass = c.arg(c.argc() - 1);
  const std::string_view user = c.argc() == 3 ? c.arg(1) : std::string_view();
  const int32_t rc = Api().client_authenticate(c.raw(), c.argc() == 3 ? user.data() : nullptr,
                                               user.size(), pass.data(), pass.size());
  if (rc == PLINTH_AUTH_NOPASS) return c.Error(kAuthWithoutPassword);
  if (rc != PLINTH_OK) return c.Error(kWrongPass);
  c.Ok();
}

void Hello(Call& c) {
  HelloArgs args;
  std::string error;
  if (!ParseHello(ArgsFrom(c, 1), &args, &error)) return c.Error(error);
  if (args.has_auth) {
    if (Api().client_authenticate(c.raw(), args.user.data(), args.user.size(), args.pass.data(),
                                  args.pass.size()) != PLINTH_OK)
      return c.Error(kWrongPass);
  }
  if (!Api().client_authenticated(c.raw())) return c.Error(kHelloNoAuth);
  if (args.has_name) SetName(c, args.name);
  if (args.proto != 0) Api().client_set_protocol(c.raw(), static_cast<int32_t>(args.proto));
  ReplyHello(c);
}

}  // namespace plinth::connection
