// SADD, SREM, SMEMBERS, SISMEMBER, SMISMEMBER, SCARD and SMOVE. A command that changes nothing
// never asks for a writable set, so it counts as no change and is not propagated (Redis 7.0).
#include <memory>

#include "set/access.h"
#include "set/commands.h"

namespace plinth::set {

void SAdd(Call& c) {
  std::string_view key = c.arg(1);
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, key, &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  int argc = c.argc();
  int64_t added = 0;
  if (!set) {
    auto fresh = std::make_unique<SetValue>();
    for (int i = 2; i < argc; ++i) added += fresh->Add(c.arg(i));
    StoreSet(c, key, std::move(fresh));
  } else {
    int first = 2;
    while (first < argc && set->Contains(c.arg(first))) ++first;
    if (first == argc) return c.Integer(0);
    SetValue* w = WriteSet(c, key);
    for (int i = first; i < argc; ++i) added += w->Add(c.arg(i));
  }
  SetEvent(c, "sadd", key);
  c.Integer(added);
}

void SRem(Call& c) {
  std::string_view key = c.arg(1);
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, key, &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  int argc = c.argc();
  int first = 2;
  while (set && first < argc && !set->Contains(c.arg(first))) ++first;
  if (!set || first == argc) return c.Integer(0);
  SetValue* w = WriteSet(c, key);
  int64_t removed = 0;
  for (int i = first; i < argc && w->Size() > 0; ++i) removed += w->Remove(c.arg(i));
  SetEvent(c, "srem", key);
  if (w->Size() == 0) DeleteEmptied(c, key);
  c.Integer(removed);
}

void SMembers(Call& c) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  if (!set) return c.Set(0);
  c.Set(static_cast<int64_t>(set->Size()));
  set->ForEach([&](std::string_view m) { c.Bulk(m); });
}

void SIsMember(Call& c) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  c.Integer(set && set->Contains(c.arg(2)) ? 1 : 0);
}

void SMIsMember(Call& c) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  c.Array(c.argc() - 2);
  for (int i = 2; i < c.argc(); ++i) c.Integer(set && set->Contains(c.arg(i)) ? 1 : 0);
}

void SCard(Call& c) {
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  c.Integer(set ? static_cast<int64_t>(set->Size()) : 0);
}

void SMove(Call& c) {
  std::string_view src_key = c.arg(1), dst_key = c.arg(2), member = c.arg(3);
  bool src_wrong = false, dst_wrong = false;
  const SetValue* src = ReadSet(c, src_key, &src_wrong);
  const SetValue* dst = ReadSet(c, dst_key, &dst_wrong);
  if (!src && !src_wrong) return c.Integer(0);
  if (src_wrong || dst_wrong) return c.Error(errors::kWrongType);
  // Compare keys, not payloads: COPY makes two keys share one payload.
  if (src_key == dst_key) return c.Integer(src->Contains(member) ? 1 : 0);
  if (!src->Contains(member)) return c.Integer(0);
  SetValue* w = WriteSet(c, src_key);
  w->Remove(member);
  SetEvent(c, "srem", src_key);
  if (w->Size() == 0) DeleteEmptied(c, src_key);
  dst = ReadSet(c, dst_key, &dst_wrong);
  if (!dst) {
    auto fresh = std::make_unique<SetValue>();
    fresh->Add(member);
    StoreSet(c, dst_key, std::move(fresh));
    SetEvent(c, "sadd", dst_key);
  } else if (!dst->Contains(member)) {
    WriteSet(c, dst_key)->Add(member);
    SetEvent(c, "sadd", dst_key);
  }
  c.Integer(1);
}

}  // namespace plinth::set
