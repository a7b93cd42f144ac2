// LZF, the compression of RDB strings: a stream of literal runs and back references into the
// output. Pure functions, any thread.
#pragma once

#include <cstddef>
#include <string>

namespace plinth::rdb {

// Compresses in[0, n) into *out (replacing its contents). Returns false, with *out
// unspecified, when the compressed form is not shorter than the input.
bool LzfCompress(const char* in, size_t n, std::string* out);

// Decompresses in[0, n) into out[0, out_len). Returns true only when the stream is well
// formed (every literal and back reference stays in bounds) and yields exactly out_len bytes.
bool LzfDecompress(const char* in, size_t n, char* out, size_t out_len);

// The largest output n compressed bytes can produce (a 3-byte back reference yields at most
// 264 bytes); a declared length above it is corrupt.
constexpr size_t LzfMaxExpansion(size_t n) { return n / 3 * 264 + n; }

}  // namespace plinth::rdb
