// The RDB checksum: CRC-64/Jones (reflected, polynomial 0xad93d23594c935a9, init 0, no final
// xor), as Redis computes over the file up to and including the EOF opcode. Any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plinth::rdb {

// Extends crc over p[0, n): Crc64(Crc64(0, a), b) == Crc64(0, a + b). Crc64(0, "123456789")
// is 0xe9c6d914c4b8d9ca.
uint64_t Crc64(uint64_t crc, const void* p, size_t n);

}  // namespace plinth::rdb
