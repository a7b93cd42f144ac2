// MULTI/EXEC/DISCARD/WATCH/UNWATCH and the watched-key index. Queueing itself happens in
// dispatch (Dispatch::Execute), which sees every command before its handler.
#include "host/core/transaction.h"

#include <algorithm>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

Transaction::~Transaction() { Unwatch(); }

void Transaction::EndMulti() {
  active = aborted = false;
  queue.clear();
  queued_bytes = 0;
  queued_flags = 0;
}

void Transaction::Unwatch() {
  if (watches) watches->UnwatchAll(this);
}

void Watches::Watch(Transaction* t, int32_t db, std::string_view key, bool expired) {
  for (const WatchedKey& w : t->watched)
    if (w.db == db && w.key == key) return;
  if (by_db_.size() <= static_cast<size_t>(db)) by_db_.resize(static_cast<size_t>(db) + 1);
  by_db_[db][std::string(key)].push_back(t);
  t->watched.push_back({db, std::string(key), expired});
  t->watches = this;
  count_++;
}

void Watches::UnwatchAll(Transaction* t) {
  for (const WatchedKey& w : t->watched) {
    Index& index = by_db_[w.db];
    auto it = index.find(w.key);
    if (it == index.end()) continue;
    std::vector<Transaction*>& list = it->second;
    list.erase(std::find(list.begin(), list.end(), t));
    if (list.empty()) index.erase(it);
    count_--;
  }
  t->watched.clear();
  t->dirty = false;
}

void Watches::Touched(int32_t db, std::string_view key, const Db& d, bool expiry) {
  if (static_cast<size_t>(db) >= by_db_.size()) return;
  Index& index = by_db_[db];
  auto it = index.find(key);
  if (it == index.end()) return;
  // A key expired when watched and now deleted for that expiry changed nothing a client saw.
  const bool expiry_deletion = expiry && d.Find(key) == nullptr;
  for (Transaction* t : it->second) {
    auto w = std::find_if(t->watched.begin(), t->watched.end(),
                          [&](const WatchedKey& k) { return k.db == db && k.key == key; });
    if (expiry_deletion && w != t->watched.end() && w->expired)
      w->expired = false;
    else
      t->dirty = true;
  }
}

void Watches::Replacing(int32_t db, const Db& d, const Db* other, int64_t now_ms) {
  if (static_cast<size_t>(db) >= by_db_.size()) return;
  auto live = [now_ms](const Db* x, const std::string& key) {
    const Entry* e = x ? x->Find(key) : nullptr;
    return e != nullptr && !EntryExpired(e, now_ms);
  };
  for (auto& [key, list] : by_db_[db])
    if (live(&d, key) || live(other, key))
      for (Transaction* t : list) t->dirty = true;
}

namespace {

constexpr std::string_view kExecAbort =
    "EXECABORT Transaction discarded because of previous errors.";

Core& CoreOf(void* ctx) { return *static_cast<Core*>(ctx); }

void Error(plinth_call_t* c, std::string_view msg) {
  c->core->plugins.api->reply_error(c, msg.data(), msg.size());
}

void Ok(plinth_call_t* c) { c->core->plugins.api->reply_simple(c, "OK", 2); }

void Multi(plinth_call_t* c, void*) {
  if (!c->session || !c->sink) return Error(c, "ERR transactions need a client");
  Transaction& t = c->session->tx;
  if (t.active) return Error(c, "ERR MULTI calls can not be nested");
  t.active = true;
  Ok(c);
}

void Discard(plinth_call_t* c, void*) {
  if (!c->session) return Error(c, "ERR DISCARD without MULTI");
  Transaction& t = c->session->tx;
  if (!t.active) return Error(c, "ERR DISCARD without MULTI");
  t.EndMulti();
  t.Unwatch();
  Ok(c);
}

// Whether a key t watches has expired since it was watched (Redis 7.0 fails EXEC then, even
// though nothing deleted the key yet).
bool WatchedKeyExpired(Core& core, const Transaction& t, int64_t now_ms) {
  for (const WatchedKey& w : t.watched) {
    if (w.expired || static_cast<size_t>(w.db) >= core.keyspace.dbs.size()) continue;
    const Entry* e = core.keyspace.dbs[w.db].Find(w.key);
    if (e && EntryExpired(e, now_ms)) return true;
  }
  return false;
}

void Exec(plinth_call_t* c, void* ctx) {
  Core& core = CoreOf(ctx);
  if (!c->session || !c->sink) return Error(c, "ERR EXEC without MULTI");
  Session& s = *c->session;
  Transaction& t = s.tx;
  if (!t.active) return Error(c, "ERR EXEC without MULTI");
  const bool aborted = t.aborted;
  const bool changed = t.dirty || WatchedKeyExpired(core, t, c->now_ms);
  t.Unwatch();  // before the queue runs: EXEC's own commands may touch the keys
  if (aborted || changed) {
    t.EndMulti();
    return aborted ? Error(c, kExecAbort) : core.plugins.api->reply_null_array(c);
  }
  // The queued commands reply straight into the sink, inside EXEC's array: the call records
  // the array as its one complete reply.
  plinth_reply_item_t array{};
  array.struct_size = sizeof array;
  array.type = PLINTH_REPLY_ARRAY;
  array.integer = static_cast<int64_t>(t.queue.size());
  c->sink->Item(array);
  c->replies = 1;
  t.active = false;  // what runs now runs, not queues
  t.executing = true;
  core.propagation.BeginExecUnit();
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::vector<std::string>& args : t.queue) {
    argv.clear();
    lens.clear();
    for (const std::string& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    core.dispatch.Execute(s, *c->sink, static_cast<int32_t>(argv.size()), argv.data(), lens.data());
  }
  core.propagation.EndExecUnit();
  t.executing = false;
  t.EndMulti();
  s.last_command = c->cmd;
  s.last_subcommand.clear();
}

void Watch(plinth_call_t* c, void* ctx) {
  Core& core = CoreOf(ctx);
  if (!c->session) return Error(c, "ERR transactions need a client");
  Transaction& t = c->session->tx;
  if (t.active) return Error(c, "ERR WATCH inside MULTI is not allowed");
  for (int32_t i = 1; i < c->argc; ++i) {
    const std::string_view key(c->argv[i], c->argvlen[i]);
    const Entry* e = core.keyspace.dbs[c->db].Find(key);
    core.keyspace.watches.Watch(&t, c->db, key, e != nullptr && EntryExpired(e, c->now_ms));
  }
  Ok(c);
}

void Unwatch(plinth_call_t* c, void*) {
  if (c->session) c->session->tx.Unwatch();
  Ok(c);
}

}  // namespace

namespace {
// WATCH's keys: named, neither read nor written (Redis's key specs), so any key pattern of the
// user's allows them.
int32_t WatchKeys(int32_t argc, const char* const*, const size_t*, plinth_key_ref_t* out) {
  for (int32_t i = 1; i < argc; ++i) out[i - 1] = {i, 0};
  return argc - 1;
}
}  // namespace

void RegisterTransactionCommands(Core& core) {
  constexpr uint32_t kF = PLINTH_CMD_FAST | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING |
                          PLINTH_CMD_STALE | PLINTH_CMD_NOPROPAGATE;
  struct Def {
    const char* name;
    int32_t arity;
    uint32_t flags;
    int32_t first_key, last_key;
    plinth_command_fn fn;
    const char* summary;
    const char* args;
    const char* since;
  };
  const Def defs[] = {
      {"multi", 1, kF | PLINTH_CMD_SKIP_MULTI, 0, 0, Multi, "Starts a transaction.", "", "1.2.0"},
      {"exec", 1,
       PLINTH_CMD_NOSCRIPT | PLINTH_CMD_LOADING | PLINTH_CMD_STALE | PLINTH_CMD_NOPROPAGATE |
           PLINTH_CMD_SKIP_MULTI,
       0, 0, Exec, "Executes all commands in a transaction.", "", "1.2.0"},
      {"discard", 1, kF | PLINTH_CMD_SKIP_MULTI, 0, 0, Discard, "Discards a transaction.", "",
       "2.0.0"},
      {"watch", -2, kF | PLINTH_CMD_SKIP_MULTI, 1, -1, Watch,
       "Monitors changes to keys to determine the execution of a transaction.", "key [key ...]",
       "2.2.0"},
      {"unwatch", 1, kF, 0, 0, Unwatch, "Forgets about watched keys of a transaction.", "",
       "2.2.0"},
  };
  for (const Def& d : defs) {
    plinth_command_spec_t spec{};
    spec.struct_size = sizeof spec;
    spec.name = d.name;
    spec.arity = d.arity;
    spec.flags = d.flags;
    spec.first_key = d.first_key;
    spec.last_key = d.last_key;
    spec.key_step = d.first_key ? 1 : 0;
    spec.handler = d.fn;
    spec.ctx = &core;
    spec.summary = d.summary;
    spec.since = d.since;
    spec.group = "transactions";
    spec.args = d.args;
    spec.acl_categories = PLINTH_ACL_TRANSACTION;
    if (d.fn == Watch) spec.keys = WatchKeys;
    core.registry.AddCommand(&spec, "host");
  }
}

}  // namespace plinth::host
