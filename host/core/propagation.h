// The propagation stream as the request path feeds it: each effect of a command appended in
// the stream's encoded form while some consumer listens, a command's effects kept together as
// one unit (wrapped in MULTI ... EXEC once it holds two or more, and always inside EXEC), and
// the pending batch delivered to the active consumers. Main thread only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/core/hooks.h"
#include "host/core/stream.h"

namespace plinth::host {

class Propagation {
 public:
  explicit Propagation(Listeners& listeners) : listeners_(listeners) {}

  Stream stream;
  // Whether the stream is being encoded (some batch consumer is active).
  bool Encoding() const { return batch_consumers_ != 0; }
  // Appends one effect, head (when non-null) then argv[0..argc) run in db, while Encoding (a
  // no-op otherwise). Within a unit, a second effect wraps the unit in MULTI ... EXEC.
  void Propagate(int32_t db, const char* head, size_t headlen, int32_t argc,
                 const char* const* argv, const size_t* argvlen);
  // Opens the unit of a top-level command; returns false, changing nothing, when one is open
  // (a command run by another, such as EXEC's, joins its caller's unit).
  bool OpenUnit();
  // Closes the unit OpenUnit opened: what it holds reaches the consumers whole.
  void CloseUnit();
  // Between these (EXEC), the unit is wrapped in MULTI ... EXEC whatever it holds.
  void BeginExecUnit() { exec_unit_ = true; }
  void EndExecUnit() { exec_unit_ = false; }
  // Delivers the pending batch to the active consumers (the core's BeforeSleep).
  void Deliver();
  // Recounts the active batch consumers after one changed (stream_consumer_active).
  void CountActiveConsumers();

 private:
  struct Unit {
    bool open = false;
    bool multi = false;  // MULTI is in the stream: CloseUnit appends EXEC
    uint32_t effects = 0;
    size_t mark = 0;  // where the first effect starts in the stream's pending bytes
  };
  Listeners& listeners_;
  Unit unit_;
  size_t batch_consumers_ = 0;  // active consumers with on_batch: the stream is encoded
  bool exec_unit_ = false;      // inside EXEC: effects are wrapped in MULTI/EXEC
};

}  // namespace plinth::host
