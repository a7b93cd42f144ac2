// The entry operations of a database: what Set, StringResize, SetExpire and Delete
// do to entries (value.h) and the expiring array, on the table of db_table.cc.
#include "host/core/db.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "host/core/db_slots.h"

namespace plinth::host {

using namespace db_slots;

namespace {

// An entry for key holding a copy of s[0, len).
Entry* StringEntry(std::string_view key, const char* s, size_t len, int64_t expire_ms) {
  if (len <= kEmbedMax) return EntryCreate(key, s, len, len, nullptr, expire_ms >= 0, expire_ms);
  plinth_value* v = ValueCreateString(s, len);
  return v ? EntryCreate(key, nullptr, 0, 0, v, expire_ms >= 0, expire_ms) : nullptr;
}

// An entry for key holding v (consumed): a small string, or one inside another key's entry,
// is copied, keeping its encoding (a raw string stays raw, as Redis's object does when renamed
// or moved); anything else is pointed at.
Entry* EntryFor(std::string_view key, plinth_value* v, int64_t expire_ms) {
  if (v->type == PLINTH_TYPE_STRING && (StringLen(v) <= kEmbedMax || (v->flags & kValKey))) {
    Entry* e = StringEntry(key, StringData(v), StringLen(v), expire_ms);
    if (e) SetValueEnc(EntryValue(e), ValueEnc(v));
    ValueRelease(v);
    return e;
  }
  return EntryCreate(key, nullptr, 0, 0, v, expire_ms >= 0, expire_ms);
}

}  // namespace

void Db::Swap(const Where& w, Entry* old, Entry* fresh) {
  Bucket& b = w.table->buckets[w.bucket];
  SetSlot(b, w.slot, fresh, b.tag[w.slot]);
  EntrySetAccess(fresh, EntryAccess(old));  // the key's use goes on (Redis keeps LFU counters)
  const bool old_in = EntryExpireMs(old) >= 0, fresh_in = EntryExpireMs(fresh) >= 0;
  if (old_in && fresh_in) {
    const uint32_t i = EntryExpIndex(old);
    expiring_[i] = fresh;
    EntrySetExpIndex(fresh, i);
  } else if (old_in) {
    Unexpire(old);
  } else if (fresh_in) {
    AddExpiring(fresh);
  }
  ValueRelease(old);
}

void Db::AddExpiring(Entry* e) {
  EntrySetExpIndex(e, static_cast<uint32_t>(expiring_.size()));
  expiring_.push_back(e);
}

void Db::Unexpire(Entry* e) {
  if (EntryExpireMs(e) < 0) return;
  const uint32_t i = EntryExpIndex(e);
  Entry* last = expiring_.back();
  expiring_[i] = last;
  EntrySetExpIndex(last, i);
  expiring_.pop_back();
  EntrySetExpire(e, -1);
}

Entry* Db::Place(uint64_t h, Entry* old, Entry* fresh) {
  if (!fresh) return nullptr;
  if (old) {
    Swap(SlotOf(old), old, fresh);
    return fresh;
  }
  if (!Insert(fresh, h)) {
    ValueRelease(fresh);
    return nullptr;
  }
  if (EntryExpireMs(fresh) >= 0) AddExpiring(fresh);
  MaybeResize();
  return fresh;
}

Entry* Db::Set(std::string_view key, uint64_t h, Entry* old, plinth_value* v, int64_t expire_ms) {
  RehashStep(kRehashPerOp);
  return Place(h, old, EntryFor(key, v, expire_ms));
}

Entry* Db::Set(std::string_view key, uint64_t h, Entry* old, const char* s, size_t len,
               bool keep_ttl) {
  RehashStep(kRehashPerOp);
  if (old) {
    plinth_value* v = EntryValue(old);
    // In place: a small string in its entry, or a large one in its own allocation.
    if ((v == old || len > kEmbedMax) && ValueStringOverwrite(v, s, len)) {
      if (!keep_ttl) Unexpire(old);
      return old;
    }
  }
  return Place(h, old, StringEntry(key, s, len, old && keep_ttl ? EntryExpireMs(old) : -1));
}

char* Db::StringResize(Entry* e, size_t len) {
  plinth_value* v = EntryValue(e);
  const bool shared = v->refs.load(std::memory_order_acquire) != 1;
  const size_t vlen = StringLen(v);
  if (!shared && (len <= vlen || len <= StringRoom(v))) {
    char* d = StringData(v);
    if (len > vlen) std::memset(d + vlen, 0, len - vlen);
    d[len] = 0;
    SetStringLen(v, len);
    SetValueEnc(v, PLINTH_ENC_RAW);
    return d;
  }
  if (len > kMaxStringLen) return nullptr;
  // Like Redis's strings: double while small, then grow by 1 MiB steps.
  size_t cap = len;
  if (len > vlen) cap = len < (1u << 20) ? len * 2 : len + (1u << 20);
  cap = std::min(cap, kMaxStringLen);
  const size_t keep = std::min(vlen, len);
  const int64_t exp = EntryExpireMs(e);
  plinth_value* target = nullptr;
  Entry* fresh;
  if (cap <= kEmbedMax) {
    fresh = EntryCreate(EntryKey(e), StringData(v), keep, cap, nullptr, exp >= 0, exp);
  } else if (v != e && !shared) {  // its own allocation, held by nobody else: grow it
    target = static_cast<plinth_value*>(std::realloc(v, sizeof(plinth_value) + cap + 1));
    if (!target) return nullptr;
    EntrySetTarget(e, target);
    fresh = e;
  } else {
    target = ValueCreateStringRoom(StringData(v), keep, cap);
    if (!target) return nullptr;
    if (v != e) {  // the entry itself is never shared: repoint it
      EntrySetTarget(e, target);
      ValueRelease(v);
      fresh = e;
    } else {
      fresh = EntryCreate(EntryKey(e), nullptr, 0, 0, target, exp >= 0, exp);
    }
  }
  if (!fresh) return nullptr;
  if (fresh != e) Swap(SlotOf(e), e, fresh);
  plinth_value* nv = EntryValue(fresh);
  char* d = StringData(nv);
  if (len > keep) std::memset(d + keep, 0, len - keep);
  d[len] = 0;
  SetStringLen(nv, len);
  SetValueEnc(nv, PLINTH_ENC_RAW);
  return d;
}

bool Db::Delete(std::string_view key) {
  RehashStep(kRehashPerOp);
  Where w;
  if (!Locate(key, HashKey(key), &w)) return false;
  Entry* e = SlotPtr(w.table->buckets[w.bucket], w.slot);
  Unexpire(e);
  RemoveAt(w);
  ValueRelease(e);
  MaybeResize();
  return true;
}

Entry* Db::SetExpire(Entry* e, int64_t ms) {
  if (ms < 0) {
    Unexpire(e);
    return e;
  }
  if (e->flags & kValExpire) {
    if (EntryExpireMs(e) < 0) AddExpiring(e);
    EntrySetExpire(e, ms);
    return e;
  }
  // Its first TTL: a copy of the entry with the expiry part takes its place.
  plinth_value* target = nullptr;
  if (e->flags & kValIndirect) {
    target = EntryValue(e);
    ValueRetain(target);
  }
  Entry* fresh = target ? EntryCreate(EntryKey(e), nullptr, 0, 0, target, true, ms)
                        : EntryCreate(EntryKey(e), StringData(e), StringLen(e), StringLen(e),
                                      nullptr, true, ms);
  if (!fresh) return nullptr;
  if (!target) SetValueEnc(fresh, ValueEnc(e));
  Swap(SlotOf(e), e, fresh);
  return fresh;
}

}  // namespace plinth::host
