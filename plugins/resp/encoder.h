// RESP2/RESP3 reply encoding straight into a host output buffer. Called by the protocol hooks
// on any thread; stateless, so any number of threads may encode at once.
#ifndef PLINTH_PLUGINS_RESP_ENCODER_H
#define PLINTH_PLUGINS_RESP_ENCODER_H

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>

namespace plinth::resp {

// Longest text FormatDouble writes.
inline constexpr size_t kMaxDoubleChars = 32;

// Appends one reply item to out in protocol proto (3 for RESP3, anything else RESP2). RESP2
// downgrades RESP3 types as Redis does: null -> $-1, null array -> *-1, map -> flat array of
// 2n, set and push -> array, double -> bulk text, bool -> :0/:1, verbatim and bignum -> bulk.
// CR and LF inside simple strings and errors become spaces. Returns false when out could not
// grow or item->type is unknown; out->len is then unchanged.
bool EncodeReply(uint32_t proto, const plinth_reply_item_t& item, plinth_outbuf_t* out);

// Appends "$<len>\r\n" to prefix and "\r\n" to suffix: the framing around a bulk sent by
// reference. Returns false when a buffer could not grow.
bool FrameBulk(size_t len, plinth_outbuf_t* prefix, plinth_outbuf_t* suffix);

// Writes d the way Redis replies with doubles (printf "%.17g"; "inf", "-inf", "nan") at dst,
// which has room for kMaxDoubleChars bytes. Returns the byte count.
size_t FormatDouble(double d, char* dst);

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_ENCODER_H
