// Finds where RESP replies end in a byte stream without copying or decoding them, so the load
// generator can count replies (and error replies) of any size. Single-threaded, stateless.
#pragma once

#include <cstddef>

namespace plinth::loadgen {

enum class Scan { kComplete, kNeedMore, kMalformed };

// Looks at one reply (RESP2 or RESP3, arrays and maps nested) at the start of buf[0, len).
// kComplete: *used is its size and *is_error tells whether it is an error reply ('-' or '!').
// kNeedMore: buf holds only part of it. kMalformed: buf does not start with a reply.
Scan ScanReply(const char* buf, size_t len, size_t* used, bool* is_error);

// Checks ScanReply against hand-written cases, every split point included. Returns the number
// of failed checks (0 when all pass) after printing each failure to stderr.
int ReplyScannerSelfTest();

}  // namespace plinth::loadgen
