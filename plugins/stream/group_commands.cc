// XGROUP (CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER, HELP) and XACK, with Redis
// 7.0's order of checks: options first, then the key, then the group.
#include <memory>
#include <plinth/text.hpp>
#include <vector>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/container.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

using text::EqualsNoCase;

enum Sub { kCreate, kSetId, kDestroy, kCreateConsumer, kDelConsumer, kHelp };

void Help(const Call& c) {
  ReplyHelp(
      c, "XGROUP",
      {"CREATE <key> <groupname> <id|$> [option]",
       "    Create a new consumer group. Options are:", "    * MKSTREAM",
       "      Create the empty stream if it does not exist.", "    * ENTRIESREAD entries_read",
       "      Set the group's entries_read counter (internal use).",
       "CREATECONSUMER <key> <groupname> <consumer>",
       "    Create a new consumer in the specified group.",
       "DELCONSUMER <key> <groupname> <consumer>", "    Remove the specified consumer.",
       "DESTROY <key> <groupname>", "    Remove the specified group.",
       "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
       "    Set the current group ID and entries_read counter."});
}

// CREATE once the options, key and group were checked; s is nullptr with MKSTREAM and no key.
void Create(const Call& c, const Stream* ro, int64_t entries_read) {
  const std::string_view key = c.arg(2), name = c.arg(3);
  StreamId id;
  if (c.arg(4) == "$") {
    if (ro) id = ro->last_id;
  } else if (!StrictIdArg(c, 4, &id)) {
    return;
  }
  if (ro && ro->FindGroup(name)) return c.Error(kErrBusyGroup);
  Stream* s = nullptr;
  if (ro) {
    s = MutableStream(c, key);
  } else {
    auto fresh = std::make_unique<Stream>();
    s = fresh.get();
    StoreStream(c, key, std::move(fresh));
  }
  s->groups.emplace(std::string(name), std::make_unique<Group>(id, entries_read));
  c.Ok();
  Notify(c, "xgroup-create", key);
}

}  // namespace

void XGroup(Call& c) {
  const int sub = FindSubcommand(c, "xgroup",
                                 {{"create", -5},
                                  {"setid", -5},
                                  {"destroy", 4},
                                  {"createconsumer", 5},
                                  {"delconsumer", 5},
                                  {"help", 2}});
  if (sub < 0) return;
  if (sub == kHelp) return Help(c);
  bool mkstream = false;
  int64_t entries_read = kInvalidEntriesRead;
  for (int i = 5; i < c.argc();) {
    const std::string_view w = c.arg(i);
    if (sub == kCreate && EqualsNoCase(w, "MKSTREAM")) {
      mkstream = true;
      ++i;
    } else if ((sub == kCreate || sub == kSetId) && EqualsNoCase(w, "ENTRIESREAD") &&
               i + 1 < c.argc()) {
      if (!IntArg(c, i + 1, &entries_read)) return;
      if (entries_read < 0 && entries_read != kInvalidEntriesRead)
        return c.Error("ERR value for ENTRIESREAD must be positive or -1");
      i += 2;
    } else {
      return SubcommandSyntaxError(c, "XGROUP");
    }
  }
  const std::string_view key = c.arg(2), name = c.arg(3);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  const Group* g = ro ? ro->FindGroup(name) : nullptr;
  if (!mkstream) {
    if (!ro) return c.Error(kErrKeyRequired);
    if (!g && (sub == kSetId || sub == kCreateConsumer || sub == kDelConsumer))
      return c.Error("NOGROUP No such consumer group '" + std::string(name) + "' for key name '" +
                     std::string(key) + "'");
  }
  switch (sub) {
    case kCreate:
      if (c.argc() > 8) return SubcommandSyntaxError(c, "XGROUP");
      return Create(c, ro, entries_read);
    case kSetId: {
      if (c.argc() != 5 && c.argc() != 7) return SubcommandSyntaxError(c, "XGROUP");
      StreamId id;
      if (c.arg(4) == "$") {
        id = ro->last_id;
      } else if (!ParseId(c.arg(4), &id, false, 0)) {
        return c.Error(kErrInvalidId);
      }
      Group* mg = MutableStream(c, key)->FindGroup(name);
      mg->last_id = id;
      mg->entries_read = entries_read;
      c.Ok();
      return Notify(c, "xgroup-setid", key);
    }
    case kDestroy:
      if (!g) return c.Integer(0);
      MutableStream(c, key)->groups.erase(std::string(name));
      c.Integer(1);
      Notify(c, "xgroup-destroy", key);
      return SignalReady(c, key);
    case kCreateConsumer: {
      if (g->Find(c.arg(4))) return c.Integer(0);
      MutableStream(c, key)->FindGroup(name)->Create(c.arg(4), c.NowMs());
      c.Integer(1);
      return Notify(c, "xgroup-createconsumer", key);
    }
    case kDelConsumer: {
      if (!g->Find(c.arg(4))) return c.Integer(0);
      Group* mg = MutableStream(c, key)->FindGroup(name);
      c.Integer(static_cast<int64_t>(mg->Delete(mg->Find(c.arg(4)))));
      return Notify(c, "xgroup-delconsumer", key);
    }
  }
}

void XAck(Call& c) {
  const std::string_view key = c.arg(1);
  bool wrong = false;
  const Stream* ro = FindStream(c, key, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  const Group* g = ro ? ro->FindGroup(c.arg(2)) : nullptr;
  if (!g) return c.Integer(0);
  std::vector<StreamId> ids;
  if (!StrictIdArgs(c, 3, &ids)) return;
  bool any = false;
  for (const StreamId& id : ids) any = any || g->pel.count(id);
  if (!any) return c.Integer(0);
  Group* mg = MutableStream(c, key)->FindGroup(c.arg(2));
  int64_t acked = 0;
  for (const StreamId& id : ids) acked += mg->Ack(id) ? 1 : 0;
  c.Integer(acked);
}

}  // namespace plinth::stream
