// Stream values in the RDB file (see stream_value.h).
#include "common/rdb/stream_value.h"

#include <cstring>

#include "common/rdb/format.h"

namespace plinth::rdb {
namespace {

int32_t NoWriteLen(plinth_rdb_io_t*, uint64_t) { return PLINTH_ERR; }
int32_t NoWriteString(plinth_rdb_io_t*, const char*, size_t) { return PLINTH_ERR; }
int32_t NoWriteDouble(plinth_rdb_io_t*, double) { return PLINTH_ERR; }
int32_t NoWriteRaw(plinth_rdb_io_t*, const void*, size_t) { return PLINTH_ERR; }
int32_t NoReadLen(plinth_rdb_io_t*, uint64_t*) { return PLINTH_ERR; }
int32_t NoReadString(plinth_rdb_io_t*, const char**, size_t*) { return PLINTH_ERR; }
int32_t NoReadDouble(plinth_rdb_io_t*, double*) { return PLINTH_ERR; }
int32_t NoReadRaw(plinth_rdb_io_t*, void*, size_t) { return PLINTH_ERR; }

// Appends tokens as they are read, failing on a bad one.
struct Walker {
  Input* in;
  std::vector<StreamToken>* out;

  bool Len(uint64_t* n = nullptr) {
    uint64_t v = 0;
    if (!in->Len(&v)) return false;
    out->push_back({StreamToken::kLen, v, {}});
    if (n) *n = v;
    return true;
  }
  bool Str() {
    StreamToken t{StreamToken::kString, 0, {}};
    if (!in->String(&t.bytes)) return false;
    out->push_back(std::move(t));
    return true;
  }
  bool Raw(size_t n) {
    StreamToken t{StreamToken::kRaw, 0, std::string(n, '\0')};
    if (!in->Bytes(t.bytes.data(), n)) return false;
    out->push_back(std::move(t));
    return true;
  }
  // A count about to drive a loop: each element costs at least one byte of the file.
  bool Count(uint64_t* n) {
    return Len(n) && (*n < (uint64_t{1} << 40) || in->Fail("stream count out of range"));
  }
};

}  // namespace

bool ReadStreamValue(Input* in, uint8_t type, std::vector<StreamToken>* out, uint32_t* form) {
  *form = type == kTypeStreamListpacks3 ? PLINTH_RDB_STREAM_LISTPACKS_2 : type;
  Walker w{in, out};
  uint64_t nodes = 0;
  if (!w.Count(&nodes)) return false;
  for (uint64_t i = 0; i < nodes; ++i) {
    if (!w.Str()) return false;
    if (out->back().bytes.size() != 16) return in->Fail("stream node key is not a stream id");
    if (!w.Str()) return false;
  }
  // length, last id; then (19 and 21) first id, largest deleted id, entries added.
  const int meta = type == kTypeStreamListpacks ? 3 : 8;
  for (int i = 0; i < meta; ++i)
    if (!w.Len()) return false;
  uint64_t groups = 0;
  if (!w.Count(&groups)) return false;
  for (uint64_t g = 0; g < groups; ++g) {
    if (!w.Str() || !w.Len() || !w.Len()) return false;          // name, last id
    if (type != kTypeStreamListpacks && !w.Len()) return false;  // entries read
    uint64_t pel = 0;
    if (!w.Count(&pel)) return false;
    for (uint64_t i = 0; i < pel; ++i)
      if (!w.Raw(16) || !w.Raw(8) || !w.Len()) return false;  // id, delivery time, count
    uint64_t consumers = 0;
    if (!w.Count(&consumers)) return false;
    for (uint64_t c = 0; c < consumers; ++c) {
      if (!w.Str() || !w.Raw(8)) return false;  // name, seen time
      if (type == kTypeStreamListpacks3) {      // Redis 7.4's active time: not in the _2 form
        char skip[8];
        if (!in->Bytes(skip, 8)) return false;
      }
      uint64_t ids = 0;
      if (!w.Count(&ids)) return false;
      for (uint64_t i = 0; i < ids; ++i)
        if (!w.Raw(16)) return false;
    }
  }
  return true;
}

StreamValueReplay::StreamValueReplay(std::vector<StreamToken> tokens) : tokens_(std::move(tokens)) {
  io_.struct_size = sizeof io_;
  io_.ctx = this;
  io_.write_len = &NoWriteLen;
  io_.write_string = &NoWriteString;
  io_.write_double = &NoWriteDouble;
  io_.read_len = &ReadLen;
  io_.read_string = &ReadString;
  io_.read_double = &NoReadDouble;
  io_.write_raw = &NoWriteRaw;
  io_.read_raw = &ReadRaw;
}

const StreamToken* StreamValueReplay::Next(StreamToken::Kind kind) {
  if (pos_ >= tokens_.size() || tokens_[pos_].kind != kind) return nullptr;
  return &tokens_[pos_++];
}

int32_t StreamValueReplay::ReadLen(plinth_rdb_io_t* io, uint64_t* n) {
  const StreamToken* t = static_cast<StreamValueReplay*>(io->ctx)->Next(StreamToken::kLen);
  if (!t) return PLINTH_ERR;
  *n = t->len;
  return PLINTH_OK;
}

int32_t StreamValueReplay::ReadString(plinth_rdb_io_t* io, const char** s, size_t* len) {
  const StreamToken* t = static_cast<StreamValueReplay*>(io->ctx)->Next(StreamToken::kString);
  if (!t) return PLINTH_ERR;
  *s = t->bytes.data();
  *len = t->bytes.size();
  return PLINTH_OK;
}

int32_t StreamValueReplay::ReadRaw(plinth_rdb_io_t* io, void* p, size_t len) {
  auto* self = static_cast<StreamValueReplay*>(io->ctx);
  if (self->pos_ >= self->tokens_.size() || self->tokens_[self->pos_].kind != StreamToken::kRaw ||
      self->tokens_[self->pos_].bytes.size() != len)
    return PLINTH_ERR;
  std::memcpy(p, self->tokens_[self->pos_++].bytes.data(), len);
  return PLINTH_OK;
}

StreamValueWriter::StreamValueWriter(Emitter* out) : out_(out) {
  io_.struct_size = sizeof io_;
  io_.ctx = this;
  io_.write_len = &WriteLen;
  io_.write_string = &WriteString;
  io_.write_double = &NoWriteDouble;
  io_.read_len = &NoReadLen;
  io_.read_string = &NoReadString;
  io_.read_double = &NoReadDouble;
  io_.write_raw = &WriteRaw;
  io_.read_raw = &NoReadRaw;
}

int32_t StreamValueWriter::WriteLen(plinth_rdb_io_t* io, uint64_t n) {
  return static_cast<StreamValueWriter*>(io->ctx)->out_->Len(n) ? PLINTH_OK : PLINTH_ERR;
}

int32_t StreamValueWriter::WriteString(plinth_rdb_io_t* io, const char* s, size_t len) {
  return static_cast<StreamValueWriter*>(io->ctx)->out_->String(std::string_view(s, len))
             ? PLINTH_OK
             : PLINTH_ERR;
}

int32_t StreamValueWriter::WriteRaw(plinth_rdb_io_t* io, const void* p, size_t len) {
  return static_cast<StreamValueWriter*>(io->ctx)->out_->Bytes(p, len) ? PLINTH_OK : PLINTH_ERR;
}

}  // namespace plinth::rdb
