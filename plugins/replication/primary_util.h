// Small helpers of the primary side: argument parsing, errors, the replica's peer address and
// the limits its files share. THREAD: main.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::replication {

// repl-backlog-size when the option is missing (Redis's default).
constexpr int64_t kDefaultBacklog = int64_t{1} << 20;
// Stream bytes a replica may have buffered while its snapshot is made and sent (Redis's
// default hard limit of the replica output class); past it the replica is closed.
constexpr size_t kMaxPendingBytes = size_t{256} << 20;
// A snapshot payload is queued to a replica only while less than this waits in its output.
constexpr int64_t kMaxQueuedPayload = int64_t{8} << 20;
// "REPLCONF GETACK *" as the stream carries it.
inline constexpr char kGetAck[] = "*3\r\n$8\r\nREPLCONF\r\n$6\r\nGETACK\r\n$1\r\n*\r\n";

// Argument i of the call ("" when missing). OWNERSHIP: a copy.
std::string Arg(plinth_call_t* call, int32_t i);
// Replies -<text> ("ERR ...").
void ReplyError(plinth_call_t* call, std::string_view text);
// The client's peer IP (CLIENT LIST's addr= without the port), "" when unknown.
std::string PeerIp(plinth_call_t* call, uint64_t id);

}  // namespace plinth::replication
