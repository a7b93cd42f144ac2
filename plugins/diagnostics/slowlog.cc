#include "diagnostics/slowlog.h"

#include <utility>

namespace plinth::diagnostics {

void Slowlog::Add(SlowlogEntry e) {
  e.id = next_id_++;
  entries_.push_front(std::move(e));
  SetMaxLen(max_len_);
}

void Slowlog::SetMaxLen(size_t n) {
  max_len_ = n;
  while (entries_.size() > max_len_) entries_.pop_back();
}

}  // namespace plinth::diagnostics
