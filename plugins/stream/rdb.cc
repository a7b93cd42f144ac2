// Stream RDB save and load (see rdb.h). Everything read is checked before it is trusted: node
// keys are 16 bytes, node listpacks have Redis's layout with ids rising across nodes, the
// counts agree, and every PEL entry belongs to exactly one consumer.
#include "stream/rdb.h"

#include <cstring>
#include <string>

namespace plinth::stream {
namespace {

bool Ok(int32_t rc) { return rc == PLINTH_OK; }

bool WriteTime(plinth_rdb_io_t* io, int64_t ms) {
  unsigned char b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = static_cast<unsigned char>(static_cast<uint64_t>(ms) >> (8 * i));
  return Ok(io->write_raw(io, b, 8));
}

bool ReadTime(plinth_rdb_io_t* io, int64_t* ms) {
  unsigned char b[8];
  if (!Ok(io->read_raw(io, b, 8))) return false;
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  *ms = static_cast<int64_t>(v);
  return true;
}

bool WriteId(plinth_rdb_io_t* io, const StreamId& id) {
  return Ok(io->write_len(io, id.ms)) && Ok(io->write_len(io, id.seq));
}

bool ReadId(plinth_rdb_io_t* io, StreamId* id) {
  return Ok(io->read_len(io, &id->ms)) && Ok(io->read_len(io, &id->seq));
}

bool SaveGroup(const std::string& name, const Group& g, plinth_rdb_io_t* io) {
  if (!Ok(io->write_string(io, name.data(), name.size())) || !WriteId(io, g.last_id) ||
      !Ok(io->write_len(io, static_cast<uint64_t>(g.entries_read))) ||
      !Ok(io->write_len(io, g.pel.size())))
    return false;
  unsigned char key[16];
  for (const auto& [id, n] : g.pel) {
    id.Encode(key);
    if (!Ok(io->write_raw(io, key, 16)) || !WriteTime(io, n->delivery_time) ||
        !Ok(io->write_len(io, n->delivery_count)))
      return false;
  }
  if (!Ok(io->write_len(io, g.consumers.size()))) return false;
  for (const auto& [cname, c] : g.consumers) {
    if (!Ok(io->write_string(io, cname.data(), cname.size())) || !WriteTime(io, c->seen_time) ||
        !Ok(io->write_len(io, c->pel.size())))
      return false;
    for (const auto& [id, n] : c->pel) {
      id.Encode(key);
      if (!Ok(io->write_raw(io, key, 16))) return false;
    }
  }
  return true;
}

bool LoadNodes(plinth_rdb_io_t* io, Stream* s, uint64_t* live, StreamId* top) {
  uint64_t n = 0;
  if (!Ok(io->read_len(io, &n))) return false;
  StreamId prev_last;
  bool any = false;
  for (uint64_t i = 0; i < n; ++i) {
    const char* p = nullptr;
    size_t len = 0;
    if (!Ok(io->read_string(io, &p, &len)) || len != 16) return false;
    const StreamId master = StreamId::Decode(reinterpret_cast<const unsigned char*>(p));
    if (!Ok(io->read_string(io, &p, &len))) return false;
    std::string lp(p, len);
    int64_t count = 0;
    StreamId last;
    if (!node::Validate(lp, master, &count, &last)) return false;
    if (any && master <= prev_last) return false;
    s->nodes.emplace_hint(s->nodes.end(), master, std::move(lp));
    *live += static_cast<uint64_t>(count);
    prev_last = last;
    any = true;
  }
  *top = prev_last;
  return true;
}

std::unique_ptr<Group> LoadGroup(uint32_t type, plinth_rdb_io_t* io, const Stream& s) {
  StreamId last;
  if (!ReadId(io, &last)) return nullptr;
  int64_t entries_read = 0;
  if (type >= PLINTH_RDB_STREAM_LISTPACKS_2) {
    uint64_t v = 0;
    if (!Ok(io->read_len(io, &v))) return nullptr;
    entries_read = static_cast<int64_t>(v);
  } else {
    entries_read = EstimateEntriesRead(s, last);
  }
  auto g = std::make_unique<Group>(last, entries_read);
  uint64_t npel = 0;
  if (!Ok(io->read_len(io, &npel))) return nullptr;
  unsigned char key[16];
  for (uint64_t i = 0; i < npel; ++i) {
    auto n = std::make_unique<Nack>();
    if (!Ok(io->read_raw(io, key, 16)) || !ReadTime(io, &n->delivery_time) ||
        !Ok(io->read_len(io, &n->delivery_count)))
      return nullptr;
    if (!g->pel.emplace(StreamId::Decode(key), std::move(n)).second) return nullptr;
  }
  uint64_t nconsumers = 0;
  if (!Ok(io->read_len(io, &nconsumers))) return nullptr;
  for (uint64_t i = 0; i < nconsumers; ++i) {
    const char* p = nullptr;
    size_t len = 0;
    if (!Ok(io->read_string(io, &p, &len))) return nullptr;
    const std::string name(p, len);
    int64_t seen = 0, active = -1;
    if (!ReadTime(io, &seen)) return nullptr;
    if (type >= PLINTH_RDB_STREAM_LISTPACKS_3 && !ReadTime(io, &active)) return nullptr;
    Consumer* c = g->Create(name, seen);
    if (!c) return nullptr;
    c->active_time = active;
    uint64_t cpel = 0;
    if (!Ok(io->read_len(io, &cpel))) return nullptr;
    for (uint64_t k = 0; k < cpel; ++k) {
      if (!Ok(io->read_raw(io, key, 16))) return nullptr;
      auto it = g->pel.find(StreamId::Decode(key));
      if (it == g->pel.end() || it->second->consumer) return nullptr;
      it->second->consumer = c;
      c->pel.emplace(it->first, it->second.get());
    }
  }
  for (const auto& [id, n] : g->pel)
    if (!n->consumer) return nullptr;
  return g;
}

}  // namespace

bool SaveStream(const Stream& s, plinth_rdb_io_t* io) {
  if (!Ok(io->write_len(io, s.nodes.size()))) return false;
  unsigned char key[16];
  for (const auto& [master, lp] : s.nodes) {
    master.Encode(key);
    if (!Ok(io->write_string(io, reinterpret_cast<const char*>(key), 16)) ||
        !Ok(io->write_string(io, lp.data(), lp.size())))
      return false;
  }
  if (!Ok(io->write_len(io, s.length)) || !WriteId(io, s.last_id) || !WriteId(io, s.first_id) ||
      !WriteId(io, s.max_deleted_id) || !Ok(io->write_len(io, s.entries_added)) ||
      !Ok(io->write_len(io, s.groups.size())))
    return false;
  for (const auto& [name, g] : s.groups)
    if (!SaveGroup(name, *g, io)) return false;
  return true;
}

std::unique_ptr<Stream> LoadStream(uint32_t type, plinth_rdb_io_t* io) {
  if (type != PLINTH_RDB_STREAM_LISTPACKS && type != PLINTH_RDB_STREAM_LISTPACKS_2 &&
      type != PLINTH_RDB_STREAM_LISTPACKS_3)
    return nullptr;
  if (!io->read_raw) return nullptr;
  auto s = std::make_unique<Stream>();
  uint64_t live = 0;
  StreamId top;  // the largest id in a node, deleted or not
  if (!LoadNodes(io, s.get(), &live, &top)) return nullptr;
  if (!Ok(io->read_len(io, &s->length)) || !ReadId(io, &s->last_id)) return nullptr;
  if (s->length != live || s->last_id < top) return nullptr;
  if (type >= PLINTH_RDB_STREAM_LISTPACKS_2) {
    if (!ReadId(io, &s->first_id) || !ReadId(io, &s->max_deleted_id) ||
        !Ok(io->read_len(io, &s->entries_added)))
      return nullptr;
  } else {
    s->RefreshFirstId();
    s->entries_added = s->length;
  }
  uint64_t ngroups = 0;
  if (!Ok(io->read_len(io, &ngroups))) return nullptr;
  for (uint64_t i = 0; i < ngroups; ++i) {
    const char* p = nullptr;
    size_t len = 0;
    if (!Ok(io->read_string(io, &p, &len))) return nullptr;
    std::string name(p, len);
    std::unique_ptr<Group> g = LoadGroup(type, io, *s);
    if (!g || !s->groups.emplace(std::move(name), std::move(g)).second) return nullptr;
  }
  return s;
}

}  // namespace plinth::stream
