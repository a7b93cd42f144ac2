// The read side of plinth_rdb_io_t over the file and over decoded blobs.
#include "common/rdb/replay.h"

#include "common/rdb/compact.h"

namespace plinth::rdb {
namespace {

int32_t NoWriteLen(plinth_rdb_io_t*, uint64_t) { return PLINTH_ERR; }
int32_t NoWriteString(plinth_rdb_io_t*, const char*, size_t) { return PLINTH_ERR; }
int32_t NoWriteDouble(plinth_rdb_io_t*, double) { return PLINTH_ERR; }
int32_t NoWriteRaw(plinth_rdb_io_t*, const void*, size_t) { return PLINTH_ERR; }
int32_t NoReadRaw(plinth_rdb_io_t*, void*, size_t) { return PLINTH_ERR; }  // plain forms: none

template <typename T>
void SetUp(plinth_rdb_io_t* io, T* self) {
  io->struct_size = sizeof *io;
  io->ctx = self;
  io->write_len = &NoWriteLen;
  io->write_string = &NoWriteString;
  io->write_double = &NoWriteDouble;
  io->read_len = &T::ReadLen;
  io->read_string = &T::ReadString;
  io->read_double = &T::ReadDouble;
  io->write_raw = &NoWriteRaw;
  io->read_raw = &NoReadRaw;
}

}  // namespace

uint64_t AtomCount(uint32_t plain_type, uint64_t count) {
  bool pairs = plain_type == PLINTH_RDB_HASH || plain_type == PLINTH_RDB_ZSET_2;
  return pairs ? count * 2 : count;
}

StreamReplay::StreamReplay(Input* in, uint32_t plain_type, uint64_t count, bool string_scores)
    : in_(in),
      type_(plain_type),
      count_(count),
      atoms_(AtomCount(plain_type, count)),
      string_scores_(string_scores) {
  SetUp(&io_, this);
}

int32_t StreamReplay::ReadLen(plinth_rdb_io_t* io, uint64_t* n) {
  auto* self = static_cast<StreamReplay*>(io->ctx);
  if (self->len_read_) return PLINTH_ERR;
  self->len_read_ = true;
  *n = self->count_;
  return PLINTH_OK;
}

int32_t StreamReplay::ReadString(plinth_rdb_io_t* io, const char** s, size_t* len) {
  auto* self = static_cast<StreamReplay*>(io->ctx);
  if (!self->len_read_ || self->pos_ >= self->atoms_ || self->NextIsDouble()) return PLINTH_ERR;
  if (!self->in_->String(&self->buf_)) return PLINTH_ERR;
  ++self->pos_;
  *s = self->buf_.data();
  *len = self->buf_.size();
  return PLINTH_OK;
}

int32_t StreamReplay::ReadDouble(plinth_rdb_io_t* io, double* v) {
  auto* self = static_cast<StreamReplay*>(io->ctx);
  if (!self->len_read_ || self->pos_ >= self->atoms_ || !self->NextIsDouble()) return PLINTH_ERR;
  bool ok = self->string_scores_ ? self->in_->StringDouble(v) : self->in_->BinaryDouble(v);
  if (!ok) return PLINTH_ERR;
  ++self->pos_;
  return PLINTH_OK;
}

bool StreamReplay::Drain() {
  if (in_->failed()) return false;
  len_read_ = true;
  while (pos_ < atoms_) {
    if (NextIsDouble()) {
      double d = 0;
      if (ReadDouble(&io_, &d) != PLINTH_OK) return false;
    } else {
      const char* s = nullptr;
      size_t len = 0;
      if (ReadString(&io_, &s, &len) != PLINTH_OK) return false;
    }
  }
  return true;
}

bool DecodeNode(const QuicklistNode& node, std::vector<std::string>* out, std::string* error) {
  switch (node.kind) {
    case QuicklistNode::kZiplist:
      return DecodeZiplist(node.blob, out, error);
    case QuicklistNode::kListpack:
      return DecodeListpack(node.blob, out, error);
    case QuicklistNode::kPlain:
      out->push_back(node.blob);
      return true;
  }
  return false;
}

MemoryReplay::MemoryReplay(uint32_t plain_type, uint64_t count, std::vector<std::string> atoms)
    : type_(plain_type),
      count_(count),
      atoms_(AtomCount(plain_type, count)),
      batch_(std::move(atoms)) {
  SetUp(&io_, this);
}

MemoryReplay::MemoryReplay(uint64_t count, const std::vector<QuicklistNode>* nodes)
    : type_(PLINTH_RDB_LIST), count_(count), atoms_(count), nodes_(nodes) {
  SetUp(&io_, this);
}

const std::string* MemoryReplay::Next() {
  if (!len_read_ || pos_ >= atoms_) return nullptr;
  while (batch_pos_ >= batch_.size()) {
    if (nodes_ == nullptr || node_ >= nodes_->size()) return nullptr;
    batch_.clear();
    batch_pos_ = 0;
    std::string error;
    if (!DecodeNode((*nodes_)[node_++], &batch_, &error)) return nullptr;
  }
  ++pos_;
  return &batch_[batch_pos_++];
}

int32_t MemoryReplay::ReadLen(plinth_rdb_io_t* io, uint64_t* n) {
  auto* self = static_cast<MemoryReplay*>(io->ctx);
  if (self->len_read_) return PLINTH_ERR;
  self->len_read_ = true;
  *n = self->count_;
  return PLINTH_OK;
}

int32_t MemoryReplay::ReadString(plinth_rdb_io_t* io, const char** s, size_t* len) {
  auto* self = static_cast<MemoryReplay*>(io->ctx);
  if (self->type_ == PLINTH_RDB_ZSET_2 && self->pos_ % 2 == 1) return PLINTH_ERR;
  const std::string* atom = self->Next();
  if (atom == nullptr) return PLINTH_ERR;
  *s = atom->data();
  *len = atom->size();
  return PLINTH_OK;
}

int32_t MemoryReplay::ReadDouble(plinth_rdb_io_t* io, double* v) {
  auto* self = static_cast<MemoryReplay*>(io->ctx);
  if (self->type_ != PLINTH_RDB_ZSET_2 || self->pos_ % 2 == 0) return PLINTH_ERR;
  const std::string* atom = self->Next();
  if (atom == nullptr || !ParseScore(*atom, v)) return PLINTH_ERR;
  return PLINTH_OK;
}

}  // namespace plinth::rdb
