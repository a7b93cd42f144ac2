// ACL LOG entries, grouped like Redis's.
#include "acl/acl_log.h"

namespace plinth::acl {

void AclLog::Add(LogEntry e, int64_t now_ms) {
  constexpr int64_t kGroupMs = 60000;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->reason == e.reason && it->context == e.context && it->object == e.object &&
        it->username == e.username && now_ms - it->updated_ms < kGroupMs) {
      e.count = it->count + 1;
      entries_.erase(it);
      break;
    }
  }
  e.updated_ms = now_ms;
  entries_.push_front(std::move(e));
  while (entries_.size() > max_len_) entries_.pop_back();
}

void AclLog::SetMaxLen(size_t n) {
  max_len_ = n;
  while (entries_.size() > max_len_) entries_.pop_back();
}

}  // namespace plinth::acl
