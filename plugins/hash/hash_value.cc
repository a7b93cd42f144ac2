// A hash value and its encoding conversion (see hash_value.h).
#include "hash/hash_value.h"

#include <new>

namespace plinth::hash {

Hash* Hash::Clone() const {
  auto* h = new (std::nothrow) Hash();
  if (!h) return nullptr;
  if (table_) {
    h->table_.reset(table_->Clone());
    if (!h->table_) {
      delete h;
      return nullptr;
    }
    return h;
  }
  try {
    h->lp_ = lp_;
  } catch (const std::bad_alloc&) {
    delete h;
    return nullptr;
  }
  return h;
}

size_t Hash::MemoryUsage() const { return sizeof(Hash) + (table_ ? table_->Bytes() : lp_.Bytes()); }

bool Hash::Get(std::string_view field, std::string_view* value) const {
  if (!table_) return lp_.Get(field, value);
  const Table::Entry* e = table_->Find(field);
  if (!e) return false;
  if (value) *value = e->value();
  return true;
}

void Hash::ConvertToTable() {
  if (table_) return;
  auto t = std::make_unique<Table>();
  lp_.ForEach([&](std::string_view k, std::string_view v) { t->Insert(k, v); });
  table_ = std::move(t);
  lp_ = Listpack();
}

bool Hash::Set(std::string_view field, std::string_view value, const Limits& limits) {
  if (!table_ && TooLong(field, value, limits)) ConvertToTable();
  if (table_) return table_->Set(field, value);
  const bool added = lp_.Set(field, value);
  if (lp_.Size() > limits.max_entries) {
    try {
      ConvertToTable();
    } catch (const std::bad_alloc&) {
      if (added) lp_.Delete(field);  // a new pair is undone; an update stays
      throw;
    }
  }
  return added;
}

void Hash::Insert(std::string_view field, std::string_view value, const Limits& limits) {
  if (!table_ && (TooLong(field, value, limits) || lp_.Size() + 1 > limits.max_entries)) {
    ConvertToTable();
  }
  if (table_)
    table_->Insert(field, value);
  else
    lp_.Append(field, value);
}

bool Hash::Delete(std::string_view field) {
  return table_ ? table_->Delete(field) : lp_.Delete(field);
}

}  // namespace plinth::hash
