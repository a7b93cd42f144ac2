// The lazy-free thread: frees large values (a plugin type whose free_effort exceeds
// kLazyFreeThreshold) off the main thread, as Redis's UNLINK does, so unlinking a million-member
// set returns at once. One worker per process, started on first use; values of every core go
// through it.
#pragma once

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>

namespace plinth::host {

// Above this much work (about one per allocation) a value is freed on the worker.
constexpr size_t kLazyFreeThreshold = 64;

// Drops the caller's reference to v: on the worker when v is a plugin-typed value that only
// the caller holds and whose type's free_effort exceeds kLazyFreeThreshold, else now. Main
// thread.
void ReleaseLazily(const plinth_value_t* v);
// Values handed to the worker and not yet freed (INFO lazyfree_pending_objects). Any thread.
uint64_t LazyFreePending();
// Waits until the worker has freed everything handed to it so far (tests). Any thread.
void LazyFreeDrain();

}  // namespace plinth::host
