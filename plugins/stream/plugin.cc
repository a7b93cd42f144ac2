// The stream plugin's descriptor: registers the "stream" value type, its options and Redis's
// stream commands with Redis 7.0's arity, flags and key positions. The only file that touches
// the descriptor; the handlers live in the files commands.h lists.
#include <plinth/plugin.hpp>

#include "common/acl_keys.h"
#include "stream/commands.h"
#include "stream/options.h"
#include "stream/type.h"

namespace plinth::stream {
namespace {

constexpr uint32_t kW = PLINTH_CMD_WRITE;
constexpr uint32_t kR = PLINTH_CMD_READONLY;
constexpr uint32_t kF = PLINTH_CMD_FAST;
constexpr uint32_t kOom = PLINTH_CMD_DENYOOM;
constexpr uint32_t kBlock = PLINTH_CMD_BLOCKING;

const sdk::CommandDef kCommands[] = {
    {"xadd", -5, kW | kOom | kF, 1, 1, 1, XAdd, "stream",
     "key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value "
     "[field value ...]",
     "Appends a new entry to a stream", "5.0.0", PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xrange", -4, kR, 1, 1, 1, XRange, "stream", "key start end [COUNT count]",
     "Return a range of elements in a stream, with IDs matching the specified IDs interval",
     "5.0.0", PLINTH_ACL_STREAM},
    {"xrevrange", -4, kR, 1, 1, 1, XRevRange, "stream", "key end start [COUNT count]",
     "Return a range of elements in a stream, with IDs matching the specified IDs interval, in "
     "reverse order (from greater to smaller IDs) compared to XRANGE",
     "5.0.0", PLINTH_ACL_STREAM},
    {"xlen", 2, kR | kF, 1, 1, 1, XLen, "stream", "key", "Return the number of entries in a stream",
     "5.0.0", PLINTH_ACL_STREAM, 0, &common::OneKey<1, 0>},
    {"xdel", -3, kW | kF, 1, 1, 1, XDel, "stream", "key id [id ...]",
     "Removes the specified entries from the stream. Returns the number of items actually "
     "deleted, that may be different from the number of IDs passed in case certain IDs do not "
     "exist.",
     "5.0.0", PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xtrim", -4, kW, 1, 1, 1, XTrim, "stream", "key MAXLEN|MINID [=|~] threshold [LIMIT count]",
     "Trims the stream to (approximately if '~' is passed) a certain size", "5.0.0",
     PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xread", -4, kR | kBlock, 0, 0, 0, XRead, "stream",
     "[COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...]",
     "Return never seen elements in multiple streams, with IDs greater than the ones reported by "
     "the caller for each stream. Can block.",
     "5.0.0", PLINTH_ACL_STREAM, 0, &common::StreamsKeys},
    {"xreadgroup", -7, kW | kBlock, 0, 0, 0, XReadGroup, "stream",
     "GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id "
     "[id ...]",
     "Return new entries from a stream using a consumer group, or access the history of the "
     "pending entries for a given consumer. Can block.",
     "5.0.0", PLINTH_ACL_STREAM, 0, &common::StreamsKeys},
    {"xgroup", -2, kW | kOom, 0, 0, 0, XGroup, "stream",
     "<CREATE key group id|$ [MKSTREAM] [ENTRIESREAD entries-read]|SETID key group id|$ "
     "[ENTRIESREAD entries-read]|DESTROY key group|CREATECONSUMER key group consumer|"
     "DELCONSUMER key group consumer|HELP>",
     "A container for consumer groups commands", "5.0.0"},
    {"xack", -4, kW | kF, 1, 1, 1, XAck, "stream", "key group id [id ...]",
     "Marks a pending message as correctly processed, effectively removing it from the pending "
     "entries list of the consumer group. Return value of the command is the number of messages "
     "successfully acknowledged, that is, the IDs we were actually able to resolve in the PEL.",
     "5.0.0", PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xpending", -3, kR, 1, 1, 1, XPending, "stream",
     "key group [[IDLE min-idle-time] start end count [consumer]]",
     "Return information and entries from a stream consumer group pending entries list, that "
     "are messages fetched but never acknowledged.",
     "5.0.0", PLINTH_ACL_STREAM},
    {"xclaim", -6, kW | kF, 1, 1, 1, XClaim, "stream",
     "key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-time-milliseconds] "
     "[RETRYCOUNT count] [FORCE] [JUSTID] [LASTID lastid]",
     "Changes (or acquires) ownership of a message in a consumer group, as if the message was "
     "delivered to the specified consumer.",
     "5.0.0", PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xautoclaim", -6, kW | kF, 1, 1, 1, XAutoClaim, "stream",
     "key group consumer min-idle-time start [COUNT count] [JUSTID]",
     "Changes (or acquires) ownership of messages in a consumer group, as if the messages were "
     "delivered to the specified consumer.",
     "6.2.0", PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xinfo", -2, kR, 0, 0, 0, XInfo, "stream",
     "<STREAM key [FULL [COUNT count]]|GROUPS key|CONSUMERS key group|HELP>",
     "A container for stream introspection commands", "5.0.0"},
    {"xsetid", -3, kW | kOom | kF, 1, 1, 1, XSetId, "stream",
     "key last-id [ENTRIESADDED entries_added] [MAXDELETEDID max_deleted_entry_id]",
     "An internal command for replicating stream values", "5.0.0", PLINTH_ACL_STREAM,
     PLINTH_KEY_WRITE},
    // Subcommands: their arity, flags, ACL categories and keys as Redis 7.0 declares them
    // (the container's handler runs them).
    {"xgroup|create", -5, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM, 2, 2, 1, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xgroup|createconsumer", 5, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM, 2, 2, 1, nullptr, nullptr,
     nullptr, nullptr, nullptr, PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xgroup|delconsumer", 5, PLINTH_CMD_WRITE, 2, 2, 1, nullptr, nullptr, nullptr, nullptr,
     nullptr, PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xgroup|destroy", 4, PLINTH_CMD_WRITE, 2, 2, 1, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xgroup|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_STREAM},
    {"xgroup|setid", -5, PLINTH_CMD_WRITE, 2, 2, 1, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_STREAM, PLINTH_KEY_WRITE},
    {"xinfo|consumers", 4, PLINTH_CMD_READONLY, 2, 2, 1, nullptr, nullptr, nullptr, nullptr,
     nullptr, PLINTH_ACL_STREAM, PLINTH_KEY_READ},
    {"xinfo|groups", 3, PLINTH_CMD_READONLY, 2, 2, 1, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_STREAM, PLINTH_KEY_READ},
    {"xinfo|help", 2, PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, nullptr, nullptr, nullptr,
     nullptr, nullptr, PLINTH_ACL_STREAM},
    {"xinfo|stream", -3, PLINTH_CMD_READONLY, 2, 2, 1, nullptr, nullptr, nullptr, nullptr, nullptr,
     PLINTH_ACL_STREAM, PLINTH_KEY_READ},
};

bool Init() {
  return RegisterStreamOptions() && RegisterStreamType() && RegisterReadListener() &&
         sdk::RegisterCommands(kCommands);
}

}  // namespace
}  // namespace plinth::stream

PLINTH_PLUGIN("stream", "0.1.0", "Redis stream type and commands (XADD, XREAD, XREADGROUP, ...)",
              plinth::stream::Init, nullptr)
