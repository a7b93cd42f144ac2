// libFuzzer target for plinth::rdb::Reader. Input: one control byte, then an RDB file. The
// file is read twice, once by Verify (every element read) and once by a visitor that reads
// only the first (control byte) elements of each collection and leaves the rest for the
// reader to skip; the target aborts when the two disagree on the outcome or the error.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/rdb/reader.h"
#include "common/rdb/source.h"
#include "common/rdb/verify.h"

namespace {

using plinth::rdb::KeyInfo;
using plinth::rdb::MemorySource;
using plinth::rdb::Reader;

void Check(bool ok) {
  if (!ok) std::abort();
}

class Partial final : public plinth::rdb::Visitor {
 public:
  explicit Partial(uint64_t limit) : limit_(limit) {}
  bool String(const KeyInfo&, std::string_view) override { return true; }
  bool Collection(const KeyInfo&, uint32_t type, plinth_rdb_io_t* io) override {
    uint64_t n = 0;
    if (type == PLINTH_RDB_STREAM_LISTPACKS || type == PLINTH_RDB_STREAM_LISTPACKS_2) {
      // Passed through as tokens: the node count comes first, a string never before it.
      const char* s = nullptr;
      size_t len = 0;
      Check(io->read_string(io, &s, &len) != PLINTH_OK);
      Check(io->read_len(io, &n) == PLINTH_OK);
      char raw[16];
      Check(n > 0 || limit_ == 0 || io->read_raw(io, raw, 16) != PLINTH_OK);
      return true;
    }
    Check(io->read_len(io, &n) == PLINTH_OK && n > 0);
    Check(io->read_len(io, &n) != PLINTH_OK);  // the length is given once
    for (uint64_t i = 0; i < n && i < limit_; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      double d = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return false;
      if (type == PLINTH_RDB_HASH && io->read_string(io, &s, &len) != PLINTH_OK) return false;
      if (type == PLINTH_RDB_ZSET_2 && io->read_double(io, &d) != PLINTH_OK) return false;
    }
    return true;
  }
  std::string Error() const override { return "malformed collection"; }

 private:
  uint64_t limit_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  uint64_t limit = data[0];
  std::string_view file(reinterpret_cast<const char*>(data) + 1, size - 1);

  MemorySource whole(file);
  plinth::rdb::VerifyReport report;
  bool ok = plinth::rdb::Verify(&whole, &report);
  Check(ok == report.error.empty());
  Check(report.bytes <= file.size());

  MemorySource again(file);
  Partial partial(limit);
  Reader reader(&again, &partial);
  Reader::Status status = reader.Run();
  Check((status == Reader::Status::kDone) == ok);
  if (!ok) {
    // Errors in elements the partial visitor skipped surface while skipping, with the same
    // offset; the message may differ only by who noticed.
    Check(reader.error_offset() == report.error_offset);
    Check(reader.error().find(" at offset ") != std::string::npos);
  }
  return 0;
}
