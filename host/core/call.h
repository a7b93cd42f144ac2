// One command execution (plinth_call_t): the core, the session and reply sink of the caller,
// the arguments, the reply's shape so far, and what the command asks to propagate. Lives on
// the stack of Dispatch::Execute. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <string>
#include <vector>

namespace plinth::host {
class Core;
struct ReplySink;
struct Command;
struct Session;
}  // namespace plinth::host

struct plinth_call {
  plinth::host::Core* core = nullptr;
  plinth::host::Session* session = nullptr;  // nullptr: an internal call with no client
  plinth::host::ReplySink* sink = nullptr;   // nullptr: replies are dropped
  plinth::host::Command* cmd = nullptr;
  int32_t argc = 0;
  const char* const* argv = nullptr;
  const size_t* argvlen = nullptr;
  int32_t db = 0;
  int64_t now_ms = 0;
  // The first key's bytes as the request holds them and their hash, when the batch prefetch
  // computed it (nullptr: none); a lookup of that key in db reuses the hash.
  const char* hashed_key = nullptr;
  size_t hashed_len = 0;
  uint64_t key_hash = 0;

  // The reply's shape: top-level replies started, and how many elements each open aggregate
  // still needs (innermost last). A second top-level reply is dropped; open aggregates are
  // completed with nulls when the handler returns (dispatch.cc). Past kMaxDepth levels of
  // nesting the shape is no longer tracked for the rest of the call.
  static constexpr int32_t kMaxDepth = 64;
  uint64_t replies = 0;
  int32_t depth = 0;
  bool untracked = false;
  bool dropped = false;  // some reply item was dropped
  int64_t open[kMaxDepth];
  bool error_reply = false;
  bool replicated = false;  // replicate() was called: the verbatim command is not sent
  bool verbatim = false;    // replicate_verbatim: the verbatim command is sent regardless
  bool no_propagate = false;
  bool no_reply = false;                    // call_no_reply: the handler sends nothing, on purpose
  int32_t block_state = PLINTH_BLOCK_NONE;  // call_block_state
  bool blocked = false;                     // call_block succeeded: no reply expected
};

namespace plinth::host {

// Whether the next reply item of call may go out (the top-level reply is not complete yet);
// records the item in the shape. aggregate: the number of elements the item opens (0 for a
// scalar). Main thread.
inline bool ReplyAccept(plinth_call_t* c, int64_t aggregate) {
  if (c->depth == 0) {
    if (c->replies > 0 && !c->untracked) {
      c->dropped = true;
      return false;
    }
    c->replies++;
    if (aggregate <= 0) return true;
  }
  if (aggregate > 0) {
    if (c->depth == plinth_call::kMaxDepth) {
      c->untracked = true;  // too deep to follow: stop checking this call's shape
      c->depth = 0;
      return true;
    }
    c->open[c->depth++] = aggregate;
    return true;
  }
  // A complete element: close every aggregate it completes.
  while (c->depth > 0 && --c->open[c->depth - 1] == 0) c->depth--;
  return true;
}

}  // namespace plinth::host
