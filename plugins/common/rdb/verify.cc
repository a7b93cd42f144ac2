// Verify: a Reader with a visitor that counts and reads every element.
#include "common/rdb/verify.h"

#include "common/rdb/reader.h"

namespace plinth::rdb {
namespace {

class Counter final : public Visitor {
 public:
  explicit Counter(VerifyReport* report) : report_(report) {}

  bool Aux(std::string_view name, std::string_view value) override {
    report_->aux[std::string(name)] = std::string(value);
    return true;
  }
  bool String(const KeyInfo& key, std::string_view) override {
    Count(key, "string");
    return true;
  }
  bool Collection(const KeyInfo& key, uint32_t plain_type, plinth_rdb_io_t* io) override {
    if (plain_type == PLINTH_RDB_STREAM_LISTPACKS || plain_type == PLINTH_RDB_STREAM_LISTPACKS_2 ||
        plain_type == PLINTH_RDB_STREAM_LISTPACKS_3) {
      Count(key, "stream");  // the reader checked its structure; its listpacks are the type's
      return true;
    }
    const char* name = plain_type == PLINTH_RDB_LIST   ? "list"
                       : plain_type == PLINTH_RDB_SET  ? "set"
                       : plain_type == PLINTH_RDB_HASH ? "hash"
                                                       : "zset";
    Count(key, name);
    // Reads every element, as a loader would, so a malformed element surfaces here.
    uint64_t n = 0;
    if (io->read_len(io, &n) != PLINTH_OK) return false;
    for (uint64_t i = 0; i < n; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      double d = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return false;
      if (plain_type == PLINTH_RDB_HASH && io->read_string(io, &s, &len) != PLINTH_OK) {
        return false;
      }
      if (plain_type == PLINTH_RDB_ZSET_2 && io->read_double(io, &d) != PLINTH_OK) return false;
    }
    return true;
  }
  std::string Error() const override { return "malformed collection"; }

 private:
  void Count(const KeyInfo& key, const char* type) {
    ++report_->keys;
    if (key.expire_ms >= 0) ++report_->expires;
    ++report_->keys_by_type[type];
    ++report_->keys_by_rdb_type[key.rdb_type];
  }

  VerifyReport* report_;
};

}  // namespace

bool Verify(Source* source, VerifyReport* report) {
  *report = VerifyReport();
  Counter counter(report);
  Reader reader(source, &counter);
  Reader::Status status = reader.Run();
  report->version = reader.version();
  report->bytes = reader.offset();
  report->empty_keys_skipped = reader.empty_keys_skipped();
  report->checksum_verified = reader.checksum_verified();
  if (status == Reader::Status::kDone) return true;
  report->error = reader.error();
  report->error_offset = reader.error_offset();
  return false;
}

}  // namespace plinth::rdb
