// Shared handler helpers (see access.h).
#include "stream/access.h"

#include <new>
#include <plinth/text.hpp>
#include <vector>

#include "stream/errors.h"
#include "stream/type.h"

namespace plinth::stream {

const Stream* FindStream(const Call& c, std::string_view key, bool* wrong) {
  *wrong = false;
  const plinth_value_t* v = c.Get(key);
  if (!v) return nullptr;
  if (sdk::Api().value_type(v) != StreamTypeId()) {
    *wrong = true;
    return nullptr;
  }
  return static_cast<const Stream*>(sdk::Api().value_payload(v));
}

Stream* MutableStream(const Call& c, std::string_view key) {
  void* p = sdk::Api().key_payload_mut(c.raw(), key.data(), key.size(), StreamTypeId());
  if (!p) throw std::bad_alloc();
  return static_cast<Stream*>(p);
}

void StoreStream(const Call& c, std::string_view key, std::unique_ptr<Stream> s) {
  plinth_value_t* v = sdk::Api().value_create_typed(sdk::Host::self, StreamTypeId(), s.get());
  if (!v) throw std::bad_alloc();
  s.release();
  sdk::Api().key_set(c.raw(), key.data(), key.size(), v, 0);
}

void Notify(const Call& c, const char* event, std::string_view key) {
  sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_STREAM, event, key.data(), key.size());
}

void SignalReady(const Call& c, std::string_view key) {
  sdk::Api().key_signal_ready(c.raw(), key.data(), key.size());
}

bool Resp3(const Call& c) { return sdk::Api().client_protocol(c.raw()) == 3; }

void ReplyId(const Call& c, const StreamId& id) { c.Bulk(id.ToString()); }

void ReplyEntry(const Call& c, const NodeEntry& e) {
  c.Array(2);
  ReplyId(c, e.id);
  c.Array(static_cast<int64_t>(e.fields.size() * 2));
  for (const auto& [f, v] : e.fields) {
    c.Bulk(f.Text());
    c.Bulk(v.Text());
  }
}

size_t ReplyRange(const Call& c, const Stream& s, const StreamId& start, const StreamId& end,
                  bool rev, size_t count) {
  std::vector<NodeEntry> got;
  s.Range(start, end, rev, count, [&got](const NodeEntry& e) {
    got.push_back(e);
    return true;
  });
  c.Array(static_cast<int64_t>(got.size()));
  for (const NodeEntry& e : got) ReplyEntry(c, e);
  return got.size();
}

bool ReplyOneEntry(const Call& c, const Stream& s, const StreamId& id) {
  bool found = false;
  s.Range(id, id, false, 1, [&](const NodeEntry& e) {
    ReplyEntry(c, e);
    found = true;
    return false;
  });
  return found;
}

bool IntArg(const Call& c, int i, int64_t* out, std::string_view err) {
  if (text::ParseInt64(c.arg(i), out)) return true;
  if (err.empty()) {
    c.Error(errors::kNotInteger);
  } else {
    c.Error(std::string("ERR ") + std::string(err));
  }
  return false;
}

bool StrictIdArg(const Call& c, int i, StreamId* id) {
  if (ParseId(c.arg(i), id, true, 0)) return true;
  c.Error(kErrInvalidId);
  return false;
}

bool StrictIdArgs(const Call& c, int from, std::vector<StreamId>* ids) {
  for (int i = from; i < c.argc(); ++i) {
    StreamId id;
    if (!StrictIdArg(c, i, &id)) return false;
    ids->push_back(id);
  }
  return true;
}

void Propagate(const Call& c, const char* command, const std::vector<std::string>& args) {
  std::vector<std::string_view> views(args.begin(), args.end());
  c.Replicate(command, views, PLINTH_REPLICATE_NO_VALIDATE);
}

}  // namespace plinth::stream
