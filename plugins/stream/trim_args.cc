// XADD/XTRIM option parsing (see trim_args.h).
#include "stream/trim_args.h"

#include <plinth/text.hpp>

#include "stream/access.h"
#include "stream/errors.h"

namespace plinth::stream {
namespace {

using text::EqualsNoCase;

// MAXLEN/MINID [=|~] threshold at argument *i (the keyword). Returns false after replying.
bool ParseStrategy(const Call& c, int* i, bool maxlen, AddTrimArgs* a) {
  if (a->trim.strategy != TrimStrategy::kNone) {
    c.Error(kErrMaxMin);
    return false;
  }
  const int moreargs = c.argc() - 1 - *i;
  a->trim.approx = false;
  const std::string_view next = c.arg(*i + 1);
  if (moreargs >= 2 && next == "~") {
    a->trim.approx = true;
    ++*i;
  } else if (moreargs >= 2 && next == "=") {
    ++*i;
  }
  if (maxlen) {
    if (!IntArg(c, *i + 1, &a->trim.maxlen)) return false;
    if (a->trim.maxlen < 0) {
      c.Error(kErrMaxlenNegative);
      return false;
    }
  } else if (!StrictIdArg(c, *i + 1, &a->trim.minid)) {
    return false;
  }
  ++*i;
  a->trim.strategy = maxlen ? TrimStrategy::kMaxLen : TrimStrategy::kMinId;
  a->trim_arg_idx = *i;
  return true;
}

}  // namespace

int ParseAddTrimArgs(const Call& c, bool xadd, AddTrimArgs* a) {
  int i = 2;
  bool limit_given = false;
  for (; i < c.argc(); ++i) {
    const int moreargs = c.argc() - 1 - i;
    const std::string_view opt = c.arg(i);
    if (xadd && opt == "*") {
      break;
    } else if (EqualsNoCase(opt, "maxlen") && moreargs) {
      if (!ParseStrategy(c, &i, true, a)) return -1;
    } else if (EqualsNoCase(opt, "minid") && moreargs) {
      if (!ParseStrategy(c, &i, false, a)) return -1;
    } else if (EqualsNoCase(opt, "limit") && moreargs) {
      if (!IntArg(c, i + 1, &a->trim.limit)) return -1;
      if (a->trim.limit < 0) {
        c.Error(kErrLimitNegative);
        return -1;
      }
      limit_given = true;
      ++i;
    } else if (xadd && EqualsNoCase(opt, "nomkstream")) {
      a->no_mkstream = true;
    } else if (xadd) {
      if (!ParseId(opt, &a->id, true, 0, &a->seq_given)) {
        c.Error(kErrInvalidId);
        return -1;
      }
      a->id_given = true;
      break;
    } else {
      c.Error(errors::kSyntax);
      return -1;
    }
  }
  if (a->trim.limit && a->trim.strategy == TrimStrategy::kNone) {
    c.Error(kErrLimitNoStrategy);
    return -1;
  }
  if (!xadd && a->trim.strategy == TrimStrategy::kNone) {
    c.Error(kErrTrimNoStrategy);
    return -1;
  }
  if (limit_given) {
    if (!a->trim.approx) {
      c.Error(kErrLimitNoApprox);
      return -1;
    }
  } else if (a->trim.approx) {
    const int64_t per_node = CurrentLimits().max_entries;
    a->trim.limit = 100 * per_node;
    if (a->trim.limit <= 0 || a->trim.limit > 1000000) a->trim.limit = 10000;
  } else {
    a->trim.limit = 0;
  }
  return i;
}

std::vector<std::string> RewriteForPropagation(const Call& c, const AddTrimArgs& a, const Stream& s,
                                               int id_idx, const StreamId* id) {
  std::vector<std::string> out;
  for (int i = 1; i < c.argc(); ++i) {
    std::string arg(c.arg(i));
    if (a.trim.approx && i == a.trim_arg_idx - 1) {
      arg.assign(1, '=');
    } else if (a.trim.approx && i == a.trim_arg_idx) {
      arg = a.trim.strategy == TrimStrategy::kMaxLen ? std::to_string(s.length)
                                                     : s.first_id.ToString();
    } else if (id && i == id_idx) {
      arg = id->ToString();
    } else if (i < (id ? id_idx : c.argc()) && EqualsNoCase(arg, "limit") && i + 1 < c.argc()) {
      ++i;  // exact trims take no LIMIT
      continue;
    }
    out.push_back(std::move(arg));
  }
  return out;
}

}  // namespace plinth::stream
