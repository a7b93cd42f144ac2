// SetValue (see set_value.h): the encoding rules of Redis 7.0's sets.
#include "set/set_value.h"

#include <atomic>
#include <charconv>
#include <plinth/text.hpp>

namespace plinth::set {
namespace {

std::atomic<int64_t> max_intset_entries{512};

}  // namespace

void SetMaxIntsetEntries(int64_t n) { max_intset_entries.store(n, std::memory_order_relaxed); }
int64_t MaxIntsetEntries() { return max_intset_entries.load(std::memory_order_relaxed); }

std::string_view FormatInt(int64_t v, MemberBuf* buf) {
  auto r = std::to_chars(buf->bytes, buf->bytes + sizeof buf->bytes, v);
  return {buf->bytes, static_cast<size_t>(r.ptr - buf->bytes)};
}

std::unique_ptr<SetValue> SetValue::Clone() const {
  auto copy = std::make_unique<SetValue>();
  if (table_) {
    copy->table_ = std::make_unique<MemberTable>();
    copy->table_->CopyFrom(*table_);
  } else {
    copy->ints_.CopyFrom(ints_);
  }
  return copy;
}

bool SetValue::Contains(std::string_view member) const {
  if (table_) return table_->Contains(member);
  int64_t v;
  return text::ParseInt64(member, &v) && ints_.Contains(v);
}

void SetValue::ConvertToTable(size_t n) {
  if (table_) {
    table_->Reserve(n);
    return;
  }
  auto table = std::make_unique<MemberTable>();
  table->Reserve(n > ints_.Size() ? n : ints_.Size());
  MemberBuf buf;
  for (size_t i = 0; i < ints_.Size(); ++i) table->Add(FormatInt(ints_.At(i), &buf));
  table_ = std::move(table);
  ints_.Clear();
}

bool SetValue::Add(std::string_view member) {
  if (table_) return table_->Add(member);
  int64_t v;
  if (text::ParseInt64(member, &v)) {
    if (ints_.Contains(v)) return false;
    // Redis caps the limit at 2^30 entries whatever the option says.
    int64_t limit = MaxIntsetEntries() < (int64_t{1} << 30) ? MaxIntsetEntries() : int64_t{1} << 30;
    if (static_cast<int64_t>(ints_.Size()) + 1 <= limit) return ints_.Add(v);
  }
  ConvertToTable(ints_.Size() + 1);
  return table_->Add(member);
}

bool SetValue::Remove(std::string_view member) {
  if (table_) return table_->Remove(member);
  int64_t v;
  return text::ParseInt64(member, &v) && ints_.Remove(v);
}

std::string_view SetValue::At(size_t i, MemberBuf* buf) const {
  if (table_) return table_->At(i);
  return FormatInt(ints_.At(i), buf);
}

void SetValue::RemoveAt(size_t i) {
  if (table_) {
    table_->RemoveAt(i);
  } else {
    ints_.RemoveAt(i);
  }
}

size_t SetValue::MemoryUsage() const {
  size_t n = sizeof(SetValue);
  if (table_) return n + sizeof(MemberTable) + table_->AllocatedBytes();
  return n + ints_.AllocatedBytes();
}

}  // namespace plinth::set
