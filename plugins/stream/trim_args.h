// The option words of XADD and XTRIM (NOMKSTREAM, MAXLEN|MINID [=|~] threshold, LIMIT n, and
// XADD's id), parsed with Redis 7.0's order of checks and error texts. Main thread.
#ifndef PLINTH_STREAM_TRIM_ARGS_H
#define PLINTH_STREAM_TRIM_ARGS_H

#include <plinth/plugin.hpp>

#include "stream/stream.h"

namespace plinth::stream {

struct AddTrimArgs {
  TrimArgs trim;
  bool id_given = false;
  bool seq_given = true;
  StreamId id;
  bool no_mkstream = false;
  int trim_arg_idx = 0;  // index of the threshold argument
};

// Parses from argument 2 on. Returns the index of XADD's id (or of the last word for XTRIM),
// or -1 after replying an error.
int ParseAddTrimArgs(const sdk::Call& c, bool xadd, AddTrimArgs* out);

// The command with its approximate trim written exactly ("~" -> "=", the threshold replaced
// by what the stream holds now, LIMIT dropped) and, for XADD, the id at id_idx replaced by
// the one generated, for replicas and the AOF.
std::vector<std::string> RewriteForPropagation(const sdk::Call& c, const AddTrimArgs& a,
                                               const Stream& s, int id_idx, const StreamId* id);

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_TRIM_ARGS_H
