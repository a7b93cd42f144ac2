// Keyspace notifications: the notify-keyspace-events option and the keyspace listener that
// turns the host's events into messages on __keyspace@<db>__:<key> (payload: the event) and
// __keyevent@<db>__:<event> (payload: the key), as Redis 7.0 publishes them. An event whose
// class is off costs one bit test. Main thread.
#include <string>

#include "common/options.h"
#include "pubsub/handlers.h"
#include "pubsub/notify_flags.h"

namespace plinth::pubsub {
namespace {

uint32_t g_flags = 0;  // PLINTH_NOTIFY_* bits of notify-keyspace-events
const plinth_option_t* g_option = nullptr;

int32_t ApplyNotifyFlags(void*, const char*, const char* value, size_t len, int64_t, char* err,
                         size_t errlen) {
  uint32_t flags = 0;
  if (!ParseNotifyFlags(std::string_view(value, len), &flags)) {
    common::CopyText(std::string(kInvalidNotifyFlags), err, errlen);
    return PLINTH_ERR;
  }
  g_flags = flags;
  return PLINTH_OK;
}

// "__keyspace@" db "__:" name into *out.
void ChannelName(std::string* out, const char* prefix, int32_t db, std::string_view name) {
  out->assign(prefix);
  out->append(std::to_string(db));
  out->append("__:");
  out->append(name);
}

void OnKeyspaceEvent(void*, int32_t db, uint32_t type, const char* event, const char* key,
                     size_t klen) {
  if (!(g_flags & type) || !event) return;
  const Registry& reg = Subs();
  if (reg.Size(Kind::kChannel) == 0 && reg.Size(Kind::kPattern) == 0) return;
  const std::string_view k(key ? key : "", key ? klen : 0);
  std::string channel;
  if (g_flags & PLINTH_NOTIFY_KEYSPACE) {
    ChannelName(&channel, "__keyspace@", db, k);
    Publish(Kind::kChannel, channel, event);
  }
  if (g_flags & PLINTH_NOTIFY_KEYEVENT) {
    ChannelName(&channel, "__keyevent@", db, event);
    Publish(Kind::kChannel, channel, k);
  }
}

}  // namespace

bool RegisterNotifications() {
  g_flags = 0;
  if (!common::RegisterGlobalOption(
          &g_option, "notify-keyspace-events", PLINTH_OPT_STRING, PLINTH_OPT_MUTABLE, "", 0, 0,
          "keyspace event classes published as __keyspace@/__keyevent@ messages (Redis letters "
          "KEg$lshzxetmnd, A for g$lshzxetd)",
          ApplyNotifyFlags)) {
    return false;
  }
  return sdk::Api().keyspace_listener_register(sdk::Host::self, OnKeyspaceEvent, nullptr) ==
         PLINTH_OK;
}

}  // namespace plinth::pubsub
