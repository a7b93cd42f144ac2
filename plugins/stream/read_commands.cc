// XRANGE, XREVRANGE and XLEN.
#include <plinth/text.hpp>

#include "stream/access.h"
#include "stream/commands.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

void RangeGeneric(Call& c, bool rev) {
  const int start_idx = rev ? 3 : 2, end_idx = rev ? 2 : 3;
  StreamId start, end;
  bool startex = false, endex = false;
  if (!ParseRangeId(c.arg(start_idx), &start, &startex, 0)) return c.Error(kErrInvalidId);
  if (startex && !start.Incr()) return c.Error(kErrInvalidStart);
  if (!ParseRangeId(c.arg(end_idx), &end, &endex, UINT64_MAX)) return c.Error(kErrInvalidId);
  if (endex && !end.Decr()) return c.Error(kErrInvalidEnd);
  int64_t count = -1;
  for (int j = 4; j < c.argc(); ++j) {
    if (text::EqualsNoCase(c.arg(j), "COUNT") && c.argc() - j - 1 >= 1) {
      if (!IntArg(c, j + 1, &count)) return;
      if (count < 0) count = 0;
      ++j;
    } else {
      return c.Error(errors::kSyntax);
    }
  }
  bool wrong = false;
  const Stream* s = FindStream(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  if (!s) return c.Array(0);
  if (count == 0) return c.NullArray();
  ReplyRange(c, *s, start, end, rev, count == -1 ? 0 : static_cast<size_t>(count));
}

}  // namespace

void XRange(Call& c) { RangeGeneric(c, false); }
void XRevRange(Call& c) { RangeGeneric(c, true); }

void XLen(Call& c) {
  bool wrong = false;
  const Stream* s = FindStream(c, c.arg(1), &wrong);
  if (wrong) return c.Error(errors::kWrongType);
  c.Integer(s ? static_cast<int64_t>(s->length) : 0);
}

}  // namespace plinth::stream
