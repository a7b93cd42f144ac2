// The stream options, under Redis's names: stream-node-max-bytes (4096, a memory size) and
// stream-node-max-entries (100), both mutable. They set the NodeLimits of stream.h. Main
// thread, init only.
#ifndef PLINTH_STREAM_OPTIONS_H
#define PLINTH_STREAM_OPTIONS_H

namespace plinth::stream {

// Registers the options; false when the host refused one.
bool RegisterStreamOptions();

}  // namespace plinth::stream

#endif  // PLINTH_STREAM_OPTIONS_H
