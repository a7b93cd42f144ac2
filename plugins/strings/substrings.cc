// The commands that read or edit parts of a string: APPEND, STRLEN, GETRANGE (and SUBSTR),
// SETRANGE and LCS. Edits keep the key's TTL and refuse results longer than proto-max-bulk-len,
// as in Redis. Main thread only.
#include <algorithm>
#include <cstring>
#include <plinth/text.hpp>
#include <string>

#include "strings/commands.h"
#include "strings/errors.h"
#include "strings/lcs.h"
#include "strings/range.h"
#include "strings/string_values.h"
#include "strings/token.h"

namespace plinth::strings {
namespace {

// Checks that a string of size + append bytes is allowed, else replies the error.
bool CheckStringLength(const Call& c, uint64_t size, uint64_t append) {
  uint64_t total = size + append;
  if (total < size || total > static_cast<uint64_t>(MaxBulkLen())) {
    c.Error(kErrTooBig);
    return false;
  }
  return true;
}

void ReplyLcsMatches(const Call& c, const LcsResult& r, bool with_len) {
  c.Map(2);
  c.Bulk("matches");
  c.Array(static_cast<int64_t>(r.matches.size()));
  for (const LcsMatch& m : r.matches) {
    c.Array(with_len ? 3 : 2);
    c.Array(2);
    c.Integer(m.a_start);
    c.Integer(m.a_end);
    c.Array(2);
    c.Integer(m.b_start);
    c.Integer(m.b_end);
    if (with_len) c.Integer(m.Length());
  }
  c.Bulk("len");
  c.Integer(r.length);
}

}  // namespace

void AppendCommand(Call& c) {
  std::string_view key = c.arg(1), tail = c.arg(2);
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  if (!v) {
    c.PutString(key, tail);
    c.Event(PLINTH_NOTIFY_STRING, "append", key);
    c.Integer(static_cast<int64_t>(tail.size()));
    return;
  }
  size_t old = Bytes(v).size();
  if (!CheckStringLength(c, old, tail.size())) return;
  // Even an empty tail rewrites the value (a raw string from then on, as Redis's unshared copy).
  char* bytes = ResizeString(c, key, old + tail.size());
  if (!tail.empty()) std::memcpy(bytes + old, tail.data(), tail.size());
  c.Event(PLINTH_NOTIFY_STRING, "append", key);
  c.Integer(static_cast<int64_t>(old + tail.size()));
}

void StrlenCommand(Call& c) {
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, c.arg(1), &v)) return;
  c.Integer(static_cast<int64_t>(Bytes(v).size()));
}

void GetRangeCommand(Call& c) {
  int64_t start = 0, end = 0;
  if (!text::ParseInt64(c.arg(2), &start) || !text::ParseInt64(c.arg(3), &end)) {
    c.Error(errors::kNotInteger);
    return;
  }
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, c.arg(1), &v)) return;
  c.Bulk(GetRange(Bytes(v), start, end));
}

void SetRangeCommand(Call& c) {
  std::string_view key = c.arg(1), patch = c.arg(3);
  int64_t offset = 0;
  if (!text::ParseInt64(c.arg(2), &offset)) {
    c.Error(errors::kNotInteger);
    return;
  }
  if (offset < 0) {
    c.Error(kErrOffsetRange);
    return;
  }
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  std::string_view old = Bytes(v);
  // Writing nothing changes nothing, not even a missing key.
  if (patch.empty()) {
    c.Integer(static_cast<int64_t>(old.size()));
    return;
  }
  if (!CheckStringLength(c, static_cast<uint64_t>(offset), patch.size())) return;
  size_t at = static_cast<size_t>(offset);
  size_t len = std::max(old.size(), at + patch.size());
  std::memcpy(ResizeString(c, key, len) + at, patch.data(), patch.size());
  c.Event(PLINTH_NOTIFY_STRING, "setrange", key);
  c.Integer(static_cast<int64_t>(len));
}

void LcsCommand(Call& c) {
  const plinth_value_t* a = c.Get(c.arg(1));
  const plinth_value_t* b = c.Get(c.arg(2));
  if ((a && sdk::Api().value_type(a) != PLINTH_TYPE_STRING) ||
      (b && sdk::Api().value_type(b) != PLINTH_TYPE_STRING)) {
    c.Error(kErrLcsType);
    return;
  }
  bool idx = false, len = false, with_len = false;
  LcsOptions options;
  for (int j = 3; j < c.argc(); ++j) {
    std::string_view opt = c.arg(j);
    if (IsToken(opt, "IDX")) {
      idx = true;
    } else if (IsToken(opt, "LEN")) {
      len = true;
    } else if (IsToken(opt, "WITHMATCHLEN")) {
      with_len = true;
    } else if (IsToken(opt, "MINMATCHLEN") && j + 1 < c.argc()) {
      if (!text::ParseInt64(c.arg(++j), &options.min_match_len)) {
        c.Error(errors::kNotInteger);
        return;
      }
      if (options.min_match_len < 0) options.min_match_len = 0;
    } else {
      c.Error(errors::kSyntax);
      return;
    }
  }
  if (idx && len) {
    c.Error(kErrLcsLenIdx);
    return;
  }
  options.want_text = !idx && !len;
  options.want_matches = idx;
  options.max_table_bytes = static_cast<uint64_t>(MaxBulkLen());
  LcsResult r;
  switch (ComputeLcs(Bytes(a), Bytes(b), options, &r)) {
    case LcsStatus::kOk:
      break;
    case LcsStatus::kTooLong:
      c.Error(kErrLcsTooLong);
      return;
    case LcsStatus::kTableTooLarge:
      c.Error(kErrLcsTableLimit);
      return;
    case LcsStatus::kNoMemory:
      c.Error(kErrLcsNoMemory);
      return;
  }
  if (idx) {
    ReplyLcsMatches(c, r, with_len);
  } else if (len) {
    c.Integer(r.length);
  } else {
    c.Bulk(r.text);
  }
}

}  // namespace plinth::strings
