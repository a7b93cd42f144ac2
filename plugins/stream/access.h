// Shared helpers of the stream command handlers: looking keys up by type, storing streams,
// keyspace events, waking blocked readers, and replying ids and entries in Redis 7.0's shapes.
// Main thread (command handlers).
#ifndef PLINTH_STREAM_ACCESS_H
#define PLINTH_STREAM_ACCESS_H

#include <cstdint>
#include <memory>
#include <plinth/plugin.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "stream/stream.h"

namespace plinth::stream {

using sdk::Call;

// The stream under key for reading (nullptr when missing). Sets *wrong for another type.
const Stream* FindStream(const Call& c, std::string_view key, bool* wrong);
// The writable stream under key (copy-on-write; counts as a change). Call only when the
// command will change it. Throws std::bad_alloc when the copy ran out of memory.
Stream* MutableStream(const Call& c, std::string_view key);
// Stores s under key, replacing any value.
void StoreStream(const Call& c, std::string_view key, std::unique_ptr<Stream> s);
// Raises keyspace event `event` of class stream on key.
void Notify(const Call& c, const char* event, std::string_view key);
// Tells readers blocked on key that it may serve them now.
void SignalReady(const Call& c, std::string_view key);
// True when the client speaks RESP3.
bool Resp3(const Call& c);

// Replies an id as a bulk "<ms>-<seq>".
void ReplyId(const Call& c, const StreamId& id);
// Replies one entry: [id, [field, value, ...]].
void ReplyEntry(const Call& c, const NodeEntry& e);
// Replies [start, end] of s (rev: backwards), at most count entries (0: all), as an array.
size_t ReplyRange(const Call& c, const Stream& s, const StreamId& start, const StreamId& end,
                  bool rev, size_t count);
// Replies the one entry id as XCLAIM does ([id, fields]); false (nothing replied) when it is
// not there.
bool ReplyOneEntry(const Call& c, const Stream& s, const StreamId& id);

// Parses argument i as an integer, replying err (or the generic integer error) when it is not.
bool IntArg(const Call& c, int i, int64_t* out, std::string_view err = {});
// Parses argument i as a strict id, replying the invalid-id error when it is not.
bool StrictIdArg(const Call& c, int i, StreamId* id);
// Parses arguments from..argc-1 as strict ids into *ids, replying the invalid-id error at the
// first that is not one.
bool StrictIdArgs(const Call& c, int from, std::vector<StreamId>* ids);
// Propagates command argv (instead of the verbatim command).
void Propagate(const Call& c, const char* command, const std::vector<std::string>& args);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_ACCESS_H
