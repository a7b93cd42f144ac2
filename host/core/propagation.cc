// The request path's side of the propagation stream (propagation.h).
#include "host/core/propagation.h"

namespace plinth::host {

void Propagation::Propagate(int32_t db, const char* head, size_t headlen, int32_t argc,
                            const char* const* argv, const size_t* argvlen) {
  if (!batch_consumers_) return;
  if (unit_.open && !unit_.multi && (exec_unit_ || unit_.effects > 0)) {
    unit_.multi = true;
    if (unit_.effects > 0) {
      stream.InsertMulti(unit_.mark);  // the unit's first effect turned out not to be its last
    } else {
      stream.Append(db, "MULTI", 5, 0, nullptr, nullptr);  // EXEC: wrapped whatever it holds
    }
  }
  const size_t at = stream.Append(db, head, headlen, argc, argv, argvlen);
  if (unit_.open && unit_.effects++ == 0) unit_.mark = at;
}

bool Propagation::OpenUnit() {
  if (unit_.open) return false;
  unit_.open = true;
  return true;
}

void Propagation::CloseUnit() {
  if (unit_.multi) stream.Append(stream.db(), "EXEC", 4, 0, nullptr, nullptr);
  unit_ = Unit{};
}

void Propagation::Deliver() {
  if (!stream.Pending()) return;
  const plinth_stream_batch_t batch = stream.Batch();
  for (const StreamConsumer& sc : listeners_.consumers)
    if (sc.active && sc.spec.on_batch) sc.spec.on_batch(sc.spec.ctx, &batch);
  stream.Delivered();
}

void Propagation::CountActiveConsumers() {
  const size_t before = batch_consumers_;
  batch_consumers_ = 0;
  for (const StreamConsumer& sc : listeners_.consumers)
    batch_consumers_ += sc.active && sc.spec.on_batch;
  // A consumer (re)starts: the database the stream was last in means nothing to it.
  if (batch_consumers_ > before) stream.Reselect();
}

}  // namespace plinth::host
