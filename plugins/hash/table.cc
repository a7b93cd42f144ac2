// The large hash encoding (see table.h).
#include "hash/table.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace plinth::hash {
namespace {

uint64_t hash_seed = 0x9e3779b97f4a7c15ull;

constexpr size_t kMinBuckets = 4;

inline uint64_t Mix(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  return x;
}

inline uint64_t Reverse64(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(v);
}

inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

void SetHashSeed(uint64_t seed) { hash_seed = seed | 1; }

uint64_t HashBytes(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = hash_seed ^ (n * 0x9e3779b97f4a7c15ull);
  while (n >= 8) {
    h = Mix(h ^ Load64(p)) + 0x632be59bd9b4e019ull;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  return Mix(h ^ tail ^ (static_cast<uint64_t>(n) << 56));
}

Table::~Table() {
  for (size_t b = 0; b < nbuckets_; ++b) {
    for (Entry* e = buckets_[b]; e;) {
      Entry* next = e->next;
      std::free(e);
      e = next;
    }
  }
  std::free(buckets_);
}

size_t Table::Bytes() const {
  return sizeof(Table) + nbuckets_ * sizeof(Entry*) + size_ * sizeof(Entry) + entry_bytes_;
}

Table::Entry* Table::NewEntry(uint32_t hash, std::string_view field, std::string_view value) {
  auto* e = static_cast<Entry*>(std::malloc(sizeof(Entry) + field.size() + value.size()));
  if (!e) throw std::bad_alloc();
  e->next = nullptr;
  e->hash = hash;
  e->flen = static_cast<uint32_t>(field.size());
  e->vlen = static_cast<uint32_t>(value.size());
  if (!field.empty()) std::memcpy(e->data, field.data(), field.size());
  if (!value.empty()) std::memcpy(e->data + field.size(), value.data(), value.size());
  return e;
}

Table* Table::Clone() const {
  auto* t = new (std::nothrow) Table();
  if (!t) return nullptr;
  try {
    t->Resize(nbuckets_);
    for (size_t b = 0; b < nbuckets_; ++b) {
      Entry** tail = &t->buckets_[b];
      for (const Entry* e = buckets_[b]; e; e = e->next) {
        *tail = NewEntry(e->hash, e->field(), e->value());
        tail = &(*tail)->next;
        ++t->size_;
        t->entry_bytes_ += e->flen + e->vlen;
      }
    }
  } catch (const std::bad_alloc&) {
    delete t;
    return nullptr;
  }
  return t;
}

Table::Entry** Table::Link(std::string_view field, uint32_t hash) const {
  Entry** link = &buckets_[hash & (nbuckets_ - 1)];
  for (; *link; link = &(*link)->next) {
    const Entry* e = *link;
    if (e->hash == hash && e->flen == field.size() &&
        std::memcmp(e->data, field.data(), field.size()) == 0) {
      break;
    }
  }
  return link;
}

const Table::Entry* Table::Find(std::string_view field) const {
  if (size_ == 0) return nullptr;
  return *Link(field, static_cast<uint32_t>(HashBytes(field)));
}

void Table::Resize(size_t nbuckets) {
  if (nbuckets < kMinBuckets) nbuckets = kMinBuckets;
  auto** fresh = static_cast<Entry**>(std::calloc(nbuckets, sizeof(Entry*)));
  if (!fresh) throw std::bad_alloc();
  for (size_t b = 0; b < nbuckets_; ++b) {
    for (Entry* e = buckets_[b]; e;) {
      Entry* next = e->next;
      Entry** head = &fresh[e->hash & (nbuckets - 1)];
      e->next = *head;
      *head = e;
      e = next;
    }
  }
  std::free(buckets_);
  buckets_ = fresh;
  nbuckets_ = nbuckets;
}

void Table::GrowIfFull() {
  if (size_ >= nbuckets_) Resize(nbuckets_ ? nbuckets_ * 2 : kMinBuckets);
}

void Table::Insert(std::string_view field, std::string_view value) {
  GrowIfFull();
  const auto hash = static_cast<uint32_t>(HashBytes(field));
  Entry* e = NewEntry(hash, field, value);
  Entry** head = &buckets_[hash & (nbuckets_ - 1)];
  e->next = *head;
  *head = e;
  ++size_;
  entry_bytes_ += field.size() + value.size();
}

bool Table::Set(std::string_view field, std::string_view value) {
  if (nbuckets_ == 0) Resize(kMinBuckets);
  const auto hash = static_cast<uint32_t>(HashBytes(field));
  Entry** link = Link(field, hash);
  if (!*link) {
    if (size_ >= nbuckets_) {
      Insert(field, value);  // grows first; the link found above is stale
      return true;
    }
    *link = NewEntry(hash, field, value);
    ++size_;
    entry_bytes_ += field.size() + value.size();
    return true;
  }
  Entry* e = *link;
  if (e->vlen != value.size()) {
    void* grown = std::realloc(e, sizeof(Entry) + e->flen + value.size());
    if (!grown) throw std::bad_alloc();
    e = static_cast<Entry*>(grown);
    *link = e;
    entry_bytes_ = entry_bytes_ - e->vlen + value.size();
    e->vlen = static_cast<uint32_t>(value.size());
  }
  if (!value.empty()) std::memcpy(e->data + e->flen, value.data(), value.size());
  return false;
}

bool Table::Delete(std::string_view field) {
  if (size_ == 0) return false;
  Entry** link = Link(field, static_cast<uint32_t>(HashBytes(field)));
  Entry* e = *link;
  if (!e) return false;
  *link = e->next;
  entry_bytes_ -= e->flen + e->vlen;
  std::free(e);
  --size_;
  // Shrink below one eighth full, as Redis's 10% rule, so a drained table gives memory back.
  if (nbuckets_ > kMinBuckets && size_ * 8 < nbuckets_) {
    try {
      Resize(nbuckets_ / 2);
    } catch (const std::bad_alloc&) {
      // Keeping the larger array is harmless.
    }
  }
  return true;
}

uint64_t Table::NextCursor(uint64_t cursor, uint64_t mask) {
  // Increment the bits under mask in reverse order: buckets that split or merge on a resize
  // stay on the same side of the cursor.
  cursor |= ~mask;
  cursor = Reverse64(cursor);
  ++cursor;
  return Reverse64(cursor);
}

}  // namespace plinth::hash
