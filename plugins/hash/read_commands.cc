// The hash read commands: HGET, HMGET, HEXISTS, HLEN, HSTRLEN, HKEYS, HVALS and HGETALL. A
// missing key reads as an empty hash. HGETALL is a map in RESP3 (a flat array in RESP2).
#include "hash/access.h"
#include "hash/commands.h"

namespace plinth::hash {

void HGetCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  std::string_view v;
  if (h && h->Get(c.arg(2), &v))
    c.Bulk(v);
  else
    c.Null();
}

void HMGetCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Array(c.argc() - 2);
  for (int i = 2; i < c.argc(); ++i) {
    std::string_view v;
    if (h && h->Get(c.arg(i), &v))
      c.Bulk(v);
    else
      c.Null();
  }
}

void HExistsCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Integer(h && h->Get(c.arg(2), nullptr) ? 1 : 0);
}

void HLenCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Integer(h ? static_cast<int64_t>(h->Size()) : 0);
}

void HStrLenCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  std::string_view v;
  c.Integer(h && h->Get(c.arg(2), &v) ? static_cast<int64_t>(v.size()) : 0);
}

void HKeysCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Array(h ? static_cast<int64_t>(h->Size()) : 0);
  if (h) h->ForEach([&](std::string_view k, std::string_view) { c.Bulk(k); });
}

void HValsCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Array(h ? static_cast<int64_t>(h->Size()) : 0);
  if (h) h->ForEach([&](std::string_view, std::string_view v) { c.Bulk(v); });
}

void HGetAllCommand(Call& c) {
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  c.Map(h ? static_cast<int64_t>(h->Size()) : 0);
  if (h) {
    h->ForEach([&](std::string_view k, std::string_view v) {
      c.Bulk(k);
      c.Bulk(v);
    });
  }
}

}  // namespace plinth::hash
