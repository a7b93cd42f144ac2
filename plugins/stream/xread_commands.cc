// XREAD and XREADGROUP, with BLOCK through the host's call_block: a reader that finds nothing
// blocks on its keys; the host runs the command again when a key is signalled (XADD, a group
// destroyed) or its timeout passes (a null array). The ids a blocked XREAD resolved ("$") are
// kept per client so the woken run reads past them, as Redis keeps them in the client.
// Main thread.
#include <limits>
#include <plinth/text.hpp>
#include <unordered_map>
#include <vector>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/delivery.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

using sdk::Api;
using text::EqualsNoCase;

constexpr size_t kBlockedDefaultCount = 1000;

// client id -> the ids its blocked XREAD waits past.
std::unordered_map<uint64_t, std::vector<StreamId>>& Waiting() {
  static std::unordered_map<uint64_t, std::vector<StreamId>> waiting;
  return waiting;
}

struct ReadArgs {
  bool group_read = false;
  int64_t timeout = -1;
  int64_t count = 0;
  int streams_arg = 0;
  int nstreams = 0;
  bool noack = false;
  std::string_view group, consumer;
};

// Parses the options up to STREAMS. False after replying an error.
bool ParseRead(const Call& c, bool group_read, ReadArgs* a) {
  a->group_read = group_read;
  for (int i = 1; i < c.argc(); ++i) {
    const int moreargs = c.argc() - i - 1;
    const std::string_view o = c.arg(i);
    if (EqualsNoCase(o, "BLOCK") && moreargs) {
      ++i;
      if (!IntArg(c, i, &a->timeout, "timeout is not an integer or out of range")) return false;
      if (a->timeout < 0) {
        c.Error(errors::kTimeoutNegative);
        return false;
      }
      if (a->timeout > 0 && a->timeout > std::numeric_limits<int64_t>::max() - c.NowMs()) {
        c.Error(errors::kTimeoutOutOfRange);
        return false;
      }
    } else if (EqualsNoCase(o, "COUNT") && moreargs) {
      ++i;
      if (!IntArg(c, i, &a->count)) return false;
      if (a->count < 0) a->count = 0;
    } else if (EqualsNoCase(o, "STREAMS") && moreargs) {
      a->streams_arg = i + 1;
      const int n = c.argc() - a->streams_arg;
      if (n % 2 != 0) {
        c.Error(
            "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
            "specified.");
        return false;
      }
      a->nstreams = n / 2;
      break;
    } else if (EqualsNoCase(o, "GROUP") && moreargs >= 2) {
      if (!group_read) {
        c.Error("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
        return false;
      }
      a->group = c.arg(i + 1);
      a->consumer = c.arg(i + 2);
      i += 2;
    } else if (EqualsNoCase(o, "NOACK")) {
      if (!group_read) {
        c.Error("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
        return false;
      }
      a->noack = true;
    } else {
      c.Error(errors::kSyntax);
      return false;
    }
  }
  if (a->streams_arg == 0) {
    c.Error(errors::kSyntax);
    return false;
  }
  if (group_read && a->group.data() == nullptr) {
    c.Error("ERR Missing GROUP option for XREADGROUP");
    return false;
  }
  return true;
}

// Resolves the ids ("$", ">", explicit) and checks types and groups. woken: a wrong type or a
// missing group does not fail (the reader keeps waiting, or hears NOGROUP when its group went).
bool ResolveIds(const Call& c, const ReadArgs& a, bool woken, std::vector<StreamId>* ids) {
  for (int k = 0; k < a.nstreams; ++k) {
    const std::string_view key = c.arg(a.streams_arg + k);
    const std::string_view arg = c.arg(a.streams_arg + a.nstreams + k);
    bool wrong = false;
    const Stream* s = FindStream(c, key, &wrong);
    if (wrong && !woken) {
      c.Error(errors::kWrongType);
      return false;
    }
    if (a.group_read && !woken && (!s || !s->FindGroup(a.group))) {
      c.Error("NOGROUP No such key '" + std::string(key) + "' or consumer group '" +
              std::string(a.group) + "' in XREADGROUP with GROUP option");
      return false;
    }
    if (a.group_read && woken && s && !s->FindGroup(a.group)) {
      c.Error("NOGROUP the consumer group this client was blocked on no longer exists");
      return false;
    }
    StreamId id;
    if (arg == "$") {
      if (a.group_read) {
        c.Error(
            "ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the "
            "history of this consumer by specifying a proper ID, or use the > ID to get new "
            "messages. The $ ID would just return an empty result set.");
        return false;
      }
      if (s) id = s->last_id;
    } else if (arg == ">") {
      if (!a.group_read) {
        c.Error(
            "ERR The > ID can be specified only when calling XREADGROUP using the GROUP "
            "<group> <consumer> option.");
        return false;
      }
      id = StreamId::Max();
    } else if (!ParseId(arg, &id, true, 0)) {
      c.Error(kErrInvalidId);
      return false;
    }
    ids->push_back(id);
  }
  return true;
}

// Serves every key that has something; replies and returns true when one did.
bool Serve(const Call& c, const ReadArgs& a, std::vector<StreamId>& ids, size_t count) {
  struct Ready {
    int k;
    StreamId gt;
    bool history;
  };
  std::vector<Ready> ready;
  for (int k = 0; k < a.nstreams; ++k) {
    bool wrong = false;
    const Stream* s = FindStream(c, c.arg(a.streams_arg + k), &wrong);
    if (!s) continue;
    StreamId gt = ids[k], maxid;
    if (a.group_read) {
      const Group* g = s->FindGroup(a.group);
      if (!g) continue;
      if (!gt.IsMax()) {
        ready.push_back({k, gt, true});
      } else if (s->length && s->LastLive(&maxid) && maxid > g->last_id) {
        ready.push_back({k, g->last_id, false});
      }
    } else if (s->length && s->LastLive(&maxid) && maxid > gt) {
      ready.push_back({k, gt, false});
    }
  }
  if (ready.empty()) return false;
  Resp3(c) ? c.Map(static_cast<int64_t>(ready.size()))
           : c.Array(static_cast<int64_t>(ready.size()));
  for (const Ready& r : ready) {
    const std::string_view key = c.arg(a.streams_arg + r.k);
    StreamId start = r.gt;
    start.Incr();
    if (!Resp3(c)) c.Array(2);
    c.Bulk(key);
    if (!a.group_read) {
      bool wrong = false;
      ReplyRange(c, *FindStream(c, key, &wrong), start, StreamId::Max(), false, count);
      continue;
    }
    Stream* s = MutableStream(c, key);
    Group* g = s->FindGroup(a.group);
    const GroupRef ref{key, a.group};
    Consumer* consumer = LookupOrCreateConsumer(c, ref, g, a.consumer);
    if (r.history) {
      DeliverHistory(c, *s, consumer, start, count);
    } else {
      DeliverNew(c, ref, s, g, consumer, start, count, a.noack);
    }
  }
  return true;
}

void ReadGeneric(Call& c, bool group_read) {
  ReadArgs a;
  if (!ParseRead(c, group_read, &a)) return;
  const int32_t state = Api().call_block_state(c.raw());
  const uint64_t client = Api().client_id(c.raw());
  if (group_read) Api().call_no_propagate(c.raw());
  if (state == PLINTH_BLOCK_TIMEOUT) {
    Waiting().erase(client);
    return c.NullArray();
  }
  const bool woken = state == PLINTH_BLOCK_WOKEN;
  std::vector<StreamId> ids;
  auto saved = Waiting().find(client);
  if (woken && !group_read && saved != Waiting().end()) {
    ids = saved->second;
  } else if (!ResolveIds(c, a, woken, &ids)) {
    Waiting().erase(client);
    return;
  }
  size_t count = static_cast<size_t>(a.count);
  if (woken && count == 0) count = kBlockedDefaultCount;
  if (Serve(c, a, ids, count)) {
    Waiting().erase(client);
    return;
  }
  if (a.timeout == -1) return c.NullArray();
  std::vector<const char*> keys;
  std::vector<size_t> lens;
  for (int k = 0; k < a.nstreams; ++k) {
    const std::string_view key = c.arg(a.streams_arg + k);
    keys.push_back(key.data());
    lens.push_back(key.size());
  }
  if (Api().call_block(c.raw(), a.nstreams, keys.data(), lens.data(), a.timeout) != PLINTH_OK) {
    Waiting().erase(client);
    return c.NullArray();
  }
  if (!group_read) Waiting()[client] = ids;
}

void OnClient(void*, uint64_t client_id, uint32_t) { Waiting().erase(client_id); }

}  // namespace

void XRead(Call& c) { ReadGeneric(c, false); }
void XReadGroup(Call& c) { ReadGeneric(c, true); }

bool RegisterReadListener() {
  return Api().client_listener_register(sdk::Host::self, &OnClient, nullptr) == PLINTH_OK;
}

}  // namespace plinth::stream
