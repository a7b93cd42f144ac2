// The sorted-set options, registered under Redis's names: zset-max-listpack-entries (128),
// zset-max-listpack-value (64) and their old ziplist aliases, all mutable. They set the
// Limits of zset.h. Main thread, init only.
#ifndef PLINTH_ZSET_OPTIONS_H
#define PLINTH_ZSET_OPTIONS_H

namespace plinth::zset {

// Registers the options; false when the host refused one.
bool RegisterZsetOptions();

}  // namespace plinth::zset

#endif  // PLINTH_ZSET_OPTIONS_H
