// Checks a whole RDB file without loading it anywhere: reads every item, counts keys per
// type and encoding, and reports the first error with its offset. For a checker tool and for
// tests. Any thread (one source per call).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/rdb/source.h"

namespace plinth::rdb {

struct VerifyReport {
  int version = 0;
  uint64_t keys = 0;
  uint64_t expires = 0;                          // keys with an expiry
  uint64_t empty_keys_skipped = 0;               // collections with no element
  std::map<std::string, uint64_t> keys_by_type;  // "string", "list", "set", "zset", "hash"
  std::map<int, uint64_t> keys_by_rdb_type;      // the type byte in the file: count
  std::map<std::string, std::string> aux;        // aux fields, the last value of each
  uint64_t bytes = 0;                            // bytes read
  bool checksum_verified = false;                // a non-zero checksum was present and matched
  std::string error;                             // "" when the file is well formed
  uint64_t error_offset = 0;
};

// Reads source to its end (the EOF opcode and checksum). Returns true when the file is well
// formed; else false with report->error ("... at offset N") and report->error_offset set.
// The counts cover what was read before an error.
bool Verify(Source* source, VerifyReport* report);

}  // namespace plinth::rdb
