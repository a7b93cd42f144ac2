// The multi-key and blocking pops: LMPOP, BLMPOP, BLPOP, BRPOP, BLMOVE and BRPOPLPUSH. A
// blocking handler first tries to serve; when no key has data it blocks through the host's
// call_block, and the host runs it again when a key is signalled (PLINTH_BLOCK_WOKEN: try again,
// block again if still nothing, a key of another type included, as Redis 7.0 keeps waiting) or
// when the timeout passes (PLINTH_BLOCK_TIMEOUT: a null array, for BLMOVE too, as Redis 7.0;
// inside MULTI BLMOVE and BRPOPLPUSH answer a null bulk at once). A served blocking pop
// propagates as its non-blocking form. Main thread.
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "list/args.h"
#include "list/commands.h"
#include "list/errors.h"

namespace plinth::list {
namespace {

using sdk::Api;

int32_t BlockState(const Call& c) { return Api().call_block_state(c.raw()); }

// Blocks the client on keys, or replies the timeout reply (a null array, or a null bulk) when
// the call cannot block (inside MULTI).
void BlockOrReplyNull(const Call& c, const std::vector<std::string_view>& keys, int64_t ms,
                      bool null_array) {
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (std::string_view k : keys) {
    ptrs.push_back(k.data());
    lens.push_back(k.size());
  }
  if (Api().call_block(c.raw(), static_cast<int32_t>(keys.size()), ptrs.data(), lens.data(), ms) ==
      PLINTH_OK)
    return;
  if (null_array) {
    c.NullArray();
  } else {
    c.Null();
  }
}

struct MPopArgs {
  int first_key = 0;
  int numkeys = 0;
  bool left = true;
  uint64_t count = 1;
};

// Parses "numkeys key... LEFT|RIGHT [COUNT n]" from argument numkeys_idx on. Returns the error
// to reply, or an empty view.
std::string_view ParseMPop(const Call& c, int numkeys_idx, MPopArgs* out) {
  const int argc = c.argc();
  int64_t numkeys = 0;
  if (!text::ParseInt64(c.arg(numkeys_idx), &numkeys) || numkeys < 1)
    return errors::kNumkeysNotPositive;
  if (numkeys >= argc - numkeys_idx - 1) return errors::kSyntax;  // no room for LEFT|RIGHT
  out->first_key = numkeys_idx + 1;
  out->numkeys = static_cast<int>(numkeys);
  const int where = out->first_key + out->numkeys;
  if (!ParseSide(c.arg(where), &out->left)) return errors::kSyntax;
  bool has_count = false;
  for (int j = where + 1; j < argc; ++j) {
    if (!has_count && IsToken(c.arg(j), "COUNT") && j + 1 < argc) {
      int64_t n = 0;
      if (!text::ParseInt64(c.arg(++j), &n) || n < 1) return errors::kCountNotPositive;
      out->count = static_cast<uint64_t>(n);
      has_count = true;
    } else {
      return errors::kSyntax;
    }
  }
  return {};
}

// Serves LMPOP/BLMPOP from the first key holding a list. Returns false when none has data (and
// replies nothing); replies WRONGTYPE for another type unless woken (then it is skipped).
bool ServeMPop(const Call& c, const MPopArgs& a, bool woken) {
  for (int i = a.first_key; i < a.first_key + a.numkeys; ++i) {
    const std::string_view key = c.arg(i);
    bool wrong = false;
    const QuickList* l = FindList(c, key, &wrong);
    if (wrong && !woken) {
      c.Error(errors::kWrongType);
      return true;
    }
    if (!l) continue;
    const uint64_t n = PopAndReply(c, key, a.left, a.count, PopReply::kKeyAndArray);
    Propagate(c, a.left ? "LPOP" : "RPOP", {key, std::to_string(n)});
    return true;
  }
  return false;
}

// BLPOP/BRPOP key [key ...] timeout.
void BlockingPop(Call& c, bool left) {
  const int argc = c.argc();
  int64_t ms = 0;
  if (const char* err = ParseTimeoutMs(c.arg(argc - 1), &ms)) return c.Error(err);
  const int32_t state = BlockState(c);
  if (state == PLINTH_BLOCK_TIMEOUT) return c.NullArray();
  std::vector<std::string_view> keys;
  for (int i = 1; i < argc - 1; ++i) {
    const std::string_view key = c.arg(i);
    bool wrong = false;
    const QuickList* l = FindList(c, key, &wrong);
    if (wrong && state != PLINTH_BLOCK_WOKEN) return c.Error(errors::kWrongType);
    if (l) {
      PopAndReply(c, key, left, 1, PopReply::kKeyAndBulk);
      return Propagate(c, left ? "LPOP" : "RPOP", {key});
    }
    keys.push_back(key);
  }
  BlockOrReplyNull(c, keys, ms, true);
}

// BLMOVE/BRPOPLPUSH once the sides and the timeout are parsed; rpoplpush: propagate as
// RPOPLPUSH rather than LMOVE.
void BlockingMove(Call& c, bool from_left, bool to_left, int64_t ms, bool rpoplpush) {
  const int32_t state = BlockState(c);
  // Redis 7.0 times every list waiter out with a null array, BLMOVE included; only the
  // immediate answer inside MULTI is a null bulk.
  if (state == PLINTH_BLOCK_TIMEOUT) return c.NullArray();
  const std::string_view src = c.arg(1), dst = c.arg(2);
  bool wrong = false;
  const QuickList* l = FindList(c, src, &wrong);
  if (wrong && state != PLINTH_BLOCK_WOKEN) return c.Error(errors::kWrongType);
  if (!l) return BlockOrReplyNull(c, {src}, ms, false);
  FindList(c, dst, &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  MoveAndReply(c, src, dst, from_left, to_left);
  if (rpoplpush) {
    Propagate(c, "RPOPLPUSH", {src, dst});
  } else {
    Propagate(c, "LMOVE", {src, dst, from_left ? "LEFT" : "RIGHT", to_left ? "LEFT" : "RIGHT"});
  }
}

}  // namespace

void LMPop(Call& c) {
  MPopArgs a;
  std::string_view err = ParseMPop(c, 1, &a);
  if (!err.empty()) return c.Error(err);
  if (!ServeMPop(c, a, false)) c.NullArray();
}

void BLMPop(Call& c) {
  MPopArgs a;
  std::string_view err = ParseMPop(c, 2, &a);
  if (!err.empty()) return c.Error(err);
  int64_t ms = 0;
  if (const char* terr = ParseTimeoutMs(c.arg(1), &ms)) return c.Error(terr);
  const int32_t state = BlockState(c);
  if (state == PLINTH_BLOCK_TIMEOUT) return c.NullArray();
  if (ServeMPop(c, a, state == PLINTH_BLOCK_WOKEN)) return;
  std::vector<std::string_view> keys;
  for (int i = a.first_key; i < a.first_key + a.numkeys; ++i) keys.push_back(c.arg(i));
  BlockOrReplyNull(c, keys, ms, true);
}

void BLPop(Call& c) { BlockingPop(c, true); }
void BRPop(Call& c) { BlockingPop(c, false); }

void BLMove(Call& c) {
  bool from_left = true, to_left = true;
  if (!ParseSide(c.arg(3), &from_left) || !ParseSide(c.arg(4), &to_left))
    return c.Error(errors::kSyntax);
  int64_t ms = 0;
  if (const char* err = ParseTimeoutMs(c.arg(5), &ms)) return c.Error(err);
  BlockingMove(c, from_left, to_left, ms, false);
}

void BRPopLPush(Call& c) {
  int64_t ms = 0;
  if (const char* err = ParseTimeoutMs(c.arg(3), &ms)) return c.Error(err);
  BlockingMove(c, false, true, ms, true);
}

}  // namespace plinth::list
