// The replication identity and the feed (see state.h): new ids, the id shift of a promotion,
// and Feed, which every byte of this server's history goes through.
#include "replication/state.h"

#include <random>

#include "replication/backlog.h"
#include "replication/primary.h"

namespace plinth::replication {

std::string NewReplId() {
  static const char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string id(40, '0');
  for (size_t i = 0; i < id.size(); i += 8) {
    uint32_t bits = rd();
    for (size_t j = i; j < i + 8; ++j, bits >>= 4) id[j] = kHex[bits & 15];
  }
  return id;
}

void ShiftReplId(Repl& r) {
  r.replid2 = r.replid;
  r.second_offset = static_cast<int64_t>(r.offset) + 1;
  r.replid = NewReplId();
}

void ChangeReplId(Repl& r) {
  r.replid = NewReplId();
  r.replid2 = std::string(40, '0');
  r.second_offset = -1;
}

void Feed(Repl& r, const char* data, size_t len) {
  if (len == 0) return;
  // A replica keeps a backlog of its primary's stream whether or not it has replicas itself:
  // it serves them, and PSYNC after a promotion.
  if (!r.backlog && r.primary && r.is_replica()) r.primary->ResetBacklog();
  if (r.backlog) r.backlog->Append(data, len);
  r.offset += len;
  if (r.primary) r.primary->SendToReplicas(data, len);
}

}  // namespace plinth::replication
