// The writer's file structure; collections go through CollectionWriter.
#include "common/rdb/writer.h"

#include <cstdio>

#include "common/rdb/collection_writer.h"
#include "common/rdb/format.h"
#include "common/rdb/stream_value.h"

namespace plinth::rdb {

bool Writer::Begin() {
  char header[10];
  std::snprintf(header, sizeof header, "REDIS%04d", kWriteVersion);
  return out_.Bytes(header, 9);
}

bool Writer::Aux(std::string_view name, std::string_view value) {
  return out_.Byte(kOpAux) && out_.String(name) && out_.String(value);
}

bool Writer::AuxInt(std::string_view name, int64_t value) {
  return Aux(name, std::to_string(value));
}

bool Writer::SelectDb(uint64_t db) { return out_.Byte(kOpSelectDb) && out_.Len(db); }

bool Writer::ResizeDb(uint64_t keys, uint64_t expires) {
  return out_.Byte(kOpResizeDb) && out_.Len(keys) && out_.Len(expires);
}

bool Writer::String(std::string_view key, int64_t expire_ms, std::string_view value) {
  if (expire_ms >= 0 &&
      !(out_.Byte(kOpExpireTimeMs) && out_.Le(static_cast<uint64_t>(expire_ms), 8))) {
    return false;
  }
  return out_.Byte(kTypeString) && out_.String(key) && out_.String(value);
}

bool Writer::Collection(std::string_view key, int64_t expire_ms, uint32_t plain_type, SaveFn save,
                        const void* payload) {
  if (out_.failed()) return false;
  if (plain_type == PLINTH_RDB_STREAM_LISTPACKS_2) return Stream(key, expire_ms, save, payload);
  if (plain_type != PLINTH_RDB_LIST && plain_type != PLINTH_RDB_SET &&
      plain_type != PLINTH_RDB_HASH && plain_type != PLINTH_RDB_ZSET_2) {
    return out_.Fail("unknown plain RDB type " + std::to_string(plain_type));
  }
  CollectionWriter capture(&out_, key, expire_ms, plain_type);
  std::string error;
  if (save(payload, capture.io()) != PLINTH_OK) {
    capture.Finish(&error);
    return out_.Fail("rdb_save failed" + (error.empty() ? std::string() : " (" + error + ")"));
  }
  if (!capture.Finish(&error)) return out_.Fail(error);
  return true;
}

bool Writer::Stream(std::string_view key, int64_t expire_ms, SaveFn save, const void* payload) {
  if (expire_ms >= 0 &&
      !(out_.Byte(kOpExpireTimeMs) && out_.Le(static_cast<uint64_t>(expire_ms), 8))) {
    return false;
  }
  if (!out_.Byte(kTypeStreamListpacks2) || !out_.String(key)) return false;
  StreamValueWriter direct(&out_);
  if (save(payload, direct.io()) != PLINTH_OK) return out_.Fail("rdb_save failed (stream)");
  return !out_.failed();
}

bool Writer::Finish() {
  if (!out_.Byte(kOpEof)) return false;
  uint64_t crc = options_.checksum ? out_.crc() : 0;
  if (!out_.Le(crc, 8)) return false;
  if (!out_.sink()->Flush()) {
    std::string why = out_.sink()->Error();
    return out_.Fail("write error" + (why.empty() ? std::string() : " (" + why + ")"));
  }
  return true;
}

}  // namespace plinth::rdb
