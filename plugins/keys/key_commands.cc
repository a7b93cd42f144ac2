// DEL, UNLINK, EXISTS, TYPE, TOUCH, RENAME, RENAMENX, COPY, MOVE and SWAPDB: whole-key
// operations delegated to the host's keyspace. Main thread.
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <string>

#include "common/subcommand.h"
#include "keys/handlers.h"
#include "keys/options.h"

namespace plinth::keys {

using sdk::Api;

std::vector<std::string_view> ArgsFrom(const Call& c, int from) {
  std::vector<std::string_view> out;
  for (int i = from; i < c.argc(); ++i) out.push_back(c.arg(i));
  return out;
}

void Replicate(const Call& c, const char* command, std::initializer_list<std::string_view> args) {
  c.Replicate(command, args);
}

void NoPropagate(const Call& c) { Api().call_no_propagate(c.raw()); }

void NotifyGeneric(const Call& c, const char* event, std::string_view key) {
  Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, event, key.data(), key.size());
}

void NotifyGenericInDb(const Call& c, int32_t db, const char* event, std::string_view key) {
  // keyspace_event reports the call's database: select db around it.
  const int32_t current = Api().db_current(c.raw());
  if (db == current) return NotifyGeneric(c, event, key);
  if (Api().client_select(c.raw(), db) != PLINTH_OK) return;
  NotifyGeneric(c, event, key);
  Api().client_select(c.raw(), current);
}

namespace {

// DEL and UNLINK: the host decides whether a value is freed off the main thread.
// DEL, or with lazy UNLINK (large values freed off the main thread).
void DeleteKeys(Call& c, bool lazy) {
  int64_t deleted = 0;
  for (int i = 1; i < c.argc(); ++i) {
    std::string_view k = c.arg(i);
    if (lazy ? Api().key_unlink(c.raw(), k.data(), k.size()) == 1 : c.Delete(k)) {
      NotifyGeneric(c, "del", k);
      ++deleted;
    }
  }
  if (deleted == 0) NoPropagate(c);
  c.Integer(deleted);
}

int64_t CountExisting(const Call& c) {
  int64_t n = 0;
  for (int i = 1; i < c.argc(); ++i)
    if (c.Get(c.arg(i)) != nullptr) ++n;
  return n;
}

constexpr std::string_view kSameObject = "ERR source and destination objects are the same";

int32_t MoveKey(const Call& c, std::string_view src, std::string_view dst, int32_t db,
                uint32_t flags) {
  return Api().key_move(c.raw(), src.data(), src.size(), dst.data(), dst.size(), db, flags);
}

void RenameGeneric(Call& c, bool nx) {
  std::string_view src = c.arg(1), dst = c.arg(2);
  if (src == dst) {
    NoPropagate(c);
    if (c.ExpireGet(src) == -2) return c.Error(errors::kNoSuchKey);
    return nx ? c.Integer(0) : c.Ok();
  }
  int32_t r = MoveKey(c, src, dst, -1, nx ? PLINTH_MOVE_NX : 0);
  if (r == -1) {
    NoPropagate(c);
    return c.Error(errors::kNoSuchKey);
  }
  if (r == 1) {
    NotifyGeneric(c, "rename_from", src);
    NotifyGeneric(c, "rename_to", dst);
  }
  if (nx) {
    if (r != 1) NoPropagate(c);
    return c.Integer(r == 1 ? 1 : 0);
  }
  c.Ok();
}

}  // namespace

void Del(Call& c) { DeleteKeys(c, false); }
void Unlink(Call& c) { DeleteKeys(c, true); }
void Exists(Call& c) { c.Integer(CountExisting(c)); }
// TOUCH stamps its keys' access even for a CLIENT NO-TOUCH client (Redis): the client's flag is
// lifted for its own lookups.
void Touch(Call& c) {
  size_t len = 0;
  const bool no_touch = Api().client_attr_get(c.raw(), PLINTH_CLIENT_NO_TOUCH, &len) != nullptr;
  if (no_touch) Api().client_attr_set(c.raw(), PLINTH_CLIENT_NO_TOUCH, "", 0);
  c.Integer(CountExisting(c));
  if (no_touch) Api().client_attr_set(c.raw(), PLINTH_CLIENT_NO_TOUCH, "1", 1);
}

void Type(Call& c) {
  const plinth_value_t* v = c.Get(c.arg(1));
  const char* name = v ? Api().type_name(sdk::Host::self, Api().value_type(v)) : nullptr;
  c.Simple(name ? name : "none");
}

void Rename(Call& c) { RenameGeneric(c, false); }
void RenameNx(Call& c) { RenameGeneric(c, true); }

void Copy(Call& c) {
  std::string error;
  CopyOptions opts;
  opts.dst_db = Api().db_current(c.raw());
  if (!ParseCopyOptions(ArgsFrom(c, 3), Api().db_count(c.raw()), &opts, &error)) {
    NoPropagate(c);
    return c.Error(error);
  }
  std::string_view src = c.arg(1), dst = c.arg(2);
  if (opts.dst_db == Api().db_current(c.raw()) && src == dst) {
    NoPropagate(c);
    return c.Error(kSameObject);
  }
  uint32_t flags = PLINTH_MOVE_COPY | (opts.replace ? PLINTH_MOVE_REPLACE : 0);
  int32_t r = MoveKey(c, src, dst, opts.dst_db, flags);
  if (r == -3) {
    NoPropagate(c);
    return c.Error(errors::kDbIndexOutOfRange);
  }
  if (r == 1) NotifyGenericInDb(c, opts.dst_db, "copy_to", dst);
  if (r != 1) NoPropagate(c);
  c.Integer(r == 1 ? 1 : 0);
}

void Move(Call& c) {
  std::string error;
  int32_t db = 0;
  if (!ParseDbIndex(c.arg(2), Api().db_count(c.raw()), &db, &error)) {
    NoPropagate(c);
    return c.Error(error);
  }
  if (db == Api().db_current(c.raw())) {
    NoPropagate(c);
    return c.Error(kSameObject);
  }
  std::string_view key = c.arg(1);
  int32_t r = MoveKey(c, key, key, db, PLINTH_MOVE_NX);
  if (r == -3) {
    NoPropagate(c);
    return c.Error(errors::kDbIndexOutOfRange);
  }
  if (r == 1) {
    NotifyGeneric(c, "move_from", key);
    NotifyGenericInDb(c, db, "move_to", key);
  }
  if (r != 1) NoPropagate(c);
  c.Integer(r == 1 ? 1 : 0);
}

void SwapDb(Call& c) {
  int32_t a = 0, b = 0;
  if (!text::ParseInt32(c.arg(1), &a)) {
    NoPropagate(c);
    return c.Error("ERR invalid first DB index");
  }
  if (!text::ParseInt32(c.arg(2), &b)) {
    NoPropagate(c);
    return c.Error("ERR invalid second DB index");
  }
  if (Api().db_swap(c.raw(), a, b) != PLINTH_OK) {
    NoPropagate(c);
    return c.Error(errors::kDbIndexOutOfRange);
  }
  c.Ok();
}

}  // namespace plinth::keys
