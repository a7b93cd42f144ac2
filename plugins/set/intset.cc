// IntSet (see intset.h). Values are stored in native byte order; the array is reallocated to
// its exact size on every change, as small sets stay small (set-max-intset-entries).
#include "set/intset.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace plinth::set {
namespace {

uint8_t WidthFor(int64_t v) {
  if (v >= INT16_MIN && v <= INT16_MAX) return 2;
  if (v >= INT32_MIN && v <= INT32_MAX) return 4;
  return 8;
}

int64_t Load(const uint8_t* data, uint8_t width, size_t i) {
  switch (width) {
    case 2: {
      int16_t v;
      std::memcpy(&v, data + i * 2, 2);
      return v;
    }
    case 4: {
      int32_t v;
      std::memcpy(&v, data + i * 4, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, data + i * 8, 8);
      return v;
    }
  }
}

void Store(uint8_t* data, uint8_t width, size_t i, int64_t v) {
  switch (width) {
    case 2: {
      int16_t n = static_cast<int16_t>(v);
      std::memcpy(data + i * 2, &n, 2);
      break;
    }
    case 4: {
      int32_t n = static_cast<int32_t>(v);
      std::memcpy(data + i * 4, &n, 4);
      break;
    }
    default:
      std::memcpy(data + i * 8, &v, 8);
  }
}

}  // namespace

IntSet::~IntSet() { std::free(data_); }

void IntSet::Clear() {
  std::free(data_);
  data_ = nullptr;
  count_ = 0;
  width_ = 2;
}

void IntSet::CopyFrom(const IntSet& other) {
  uint8_t* fresh = nullptr;
  if (other.count_ > 0) {
    fresh = static_cast<uint8_t*>(std::malloc(other.AllocatedBytes()));
    if (!fresh) throw std::bad_alloc();
    std::memcpy(fresh, other.data_, other.AllocatedBytes());
  }
  std::free(data_);
  data_ = fresh;
  count_ = other.count_;
  width_ = other.width_;
}

size_t IntSet::Search(int64_t v, bool* found) const {
  size_t lo = 0, hi = count_;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int64_t m = Load(data_, width_, mid);
    if (m == v) {
      *found = true;
      return mid;
    }
    if (m < v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *found = false;
  return lo;
}

bool IntSet::Contains(int64_t v) const {
  if (WidthFor(v) > width_) return false;
  bool found = false;
  Search(v, &found);
  return found;
}

int64_t IntSet::At(size_t i) const { return Load(data_, width_, i); }

void IntSet::Widen(uint8_t width) {
  uint8_t* fresh = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(count_) * width));
  if (!fresh && count_ > 0) throw std::bad_alloc();
  for (size_t i = 0; i < count_; ++i) Store(fresh, width, i, Load(data_, width_, i));
  std::free(data_);
  data_ = fresh;
  width_ = width;
}

bool IntSet::Add(int64_t v) {
  uint8_t need = WidthFor(v);
  size_t pos;
  if (need > width_) {
    Widen(need);
    // A value wider than every stored one is either below or above all of them.
    pos = v < 0 ? 0 : count_;
  } else {
    bool found = false;
    pos = Search(v, &found);
    if (found) return false;
  }
  size_t bytes = (static_cast<size_t>(count_) + 1) * width_;
  uint8_t* grown = static_cast<uint8_t*>(std::realloc(data_, bytes));
  if (!grown) throw std::bad_alloc();
  data_ = grown;
  std::memmove(data_ + (pos + 1) * width_, data_ + pos * width_, (count_ - pos) * width_);
  Store(data_, width_, pos, v);
  ++count_;
  return true;
}

void IntSet::RemoveAt(size_t i) {
  std::memmove(data_ + i * width_, data_ + (i + 1) * width_, (count_ - i - 1) * width_);
  --count_;
  if (count_ == 0) {
    Clear();
    return;
  }
  // Shrinking never fails in practice; keep the larger block if it does.
  uint8_t* shrunk = static_cast<uint8_t*>(std::realloc(data_, AllocatedBytes()));
  if (shrunk) data_ = shrunk;
}

bool IntSet::Remove(int64_t v) {
  if (WidthFor(v) > width_) return false;
  bool found = false;
  size_t pos = Search(v, &found);
  if (!found) return false;
  RemoveAt(pos);
  return true;
}

}  // namespace plinth::set
