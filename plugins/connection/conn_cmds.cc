// PING, ECHO, SELECT, QUIT, RESET, AUTH and HELLO: per-connection state changes delegated to
// the host's client functions. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "handlers.h"
#include "hello_args.h"
#include "subcommand.h"

namespace plinth::connection {

using sdk::Api;

std::vector<std::string_view> ArgsFrom(const Call& c, int from) {
  std::vector<std::string_view> out;
  for (int i = from; i < c.argc(); ++i) out.push_back(c.arg(i));
  return out;
}

const plinth_option_t* g_requirepass = nullptr;
const plinth_option_t* g_replicaof = nullptr;

void FindOptions() { g_requirepass = sdk::FindOption("requirepass"); }

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
  if (!text::ParseInt32(c.arg(1), &db)) return c.Error(common::kNotInteger);
  if (Api().client_select(c.raw(), db) != PLINTH_OK) return c.Error(common::kDbOutOfRange);
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
  Api().client_set_authenticated(c.raw(), sdk::OptionString(g_requirepass).empty() ? 1 : 0);
  c.Simple("RESET");
}

void Auth(Call& c) {
  if (c.argc() > 3) return c.Error(common::kSyntaxError);
  std::string requirepass = sdk::OptionString(g_requirepass);
  std::string_view user = "default", pass = c.arg(1);
  if (c.argc() == 2) {
    if (requirepass.empty()) return c.Error(kAuthWithoutPassword);
  } else {
    user = c.arg(1);
    pass = c.arg(2);
  }
  if (!CredentialsValid(requirepass, user, pass)) return c.Error(kWrongPass);
  Api().client_set_authenticated(c.raw(), 1);
  c.Ok();
}

void Hello(Call& c) {
  HelloArgs args;
  std::string error;
  if (!ParseHello(ArgsFrom(c, 1), &args, &error)) return c.Error(error);
  if (args.has_auth) {
    if (!CredentialsValid(sdk::OptionString(g_requirepass), args.user, args.pass))
      return c.Error(kWrongPass);
    Api().client_set_authenticated(c.raw(), 1);
  }
  if (!Api().client_authenticated(c.raw())) return c.Error(kHelloNoAuth);
  if (args.has_name) SetName(c, args.name);
  if (args.proto != 0) Api().client_set_protocol(c.raw(), static_cast<int32_t>(args.proto));
  ReplyHello(c);
}

}  // namespace plinth::connection
