// Encoding choices for collections, made once the whole (small) value is seen or, for large
// sets, hashes and zsets, as soon as the length is known.
#include "common/rdb/collection_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/rdb/format.h"

namespace plinth::rdb {
namespace {

int32_t NoReadLen(plinth_rdb_io_t*, uint64_t*) { return PLINTH_ERR; }
int32_t NoReadString(plinth_rdb_io_t*, const char**, size_t*) { return PLINTH_ERR; }
int32_t NoReadDouble(plinth_rdb_io_t*, double*) { return PLINTH_ERR; }
int32_t NoReadRaw(plinth_rdb_io_t*, void*, size_t) { return PLINTH_ERR; }
// The plain forms have no raw fields: a type that writes one has the wrong form.
int32_t NoWriteRaw(plinth_rdb_io_t*, const void*, size_t) { return PLINTH_ERR; }

}  // namespace

std::string ScoreText(double v) {
  char buf[32];
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9007199254740992.0 &&
      !(v == 0 && std::signbit(v))) {
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(v));
    return std::string(buf, r.ptr);
  }
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

CollectionWriter::CollectionWriter(Emitter* out, std::string_view key, int64_t expire_ms,
                                   uint32_t plain_type)
    : out_(out), key_(key), expire_ms_(expire_ms), type_(plain_type) {
  io_.struct_size = sizeof io_;
  io_.ctx = this;
  io_.write_len = &WriteLen;
  io_.write_string = &WriteString;
  io_.write_double = &WriteDouble;
  io_.read_len = &NoReadLen;
  io_.read_string = &NoReadString;
  io_.read_double = &NoReadDouble;
  io_.write_raw = &NoWriteRaw;
  io_.read_raw = &NoReadRaw;
}

bool CollectionWriter::Bad(std::string what) {
  if (error_.empty()) error_ = std::move(what);
  return false;
}

bool CollectionWriter::Header(uint8_t rdb_type) {
  if (expire_ms_ >= 0 &&
      !(out_->Byte(kOpExpireTimeMs) && out_->Le(static_cast<uint64_t>(expire_ms_), 8))) {
    return false;
  }
  return out_->Byte(rdb_type) && out_->String(key_);
}

int32_t CollectionWriter::WriteLen(plinth_rdb_io_t* io, uint64_t n) {
  auto* self = static_cast<CollectionWriter*>(io->ctx);
  if (self->mode_ != Mode::kNoLen) return self->Bad("rdb_save wrote a second length"), PLINTH_ERR;
  if (n > (uint64_t{1} << 62)) return self->Bad("rdb_save wrote a length out of range"), PLINTH_ERR;
  self->count_ = n;
  bool pairs = self->type_ == PLINTH_RDB_HASH || self->type_ == PLINTH_RDB_ZSET_2;
  self->atoms_ = pairs ? n * 2 : n;
  uint64_t small = self->type_ == PLINTH_RDB_SET ? kIntsetMaxEntries : kListpackMaxEntries;
  if (n == 0) {
    self->mode_ = Mode::kEmpty;
  } else if (self->type_ == PLINTH_RDB_LIST) {
    self->mode_ = Mode::kList;
  } else if (n <= small) {
    self->mode_ = Mode::kBuffer;
  } else {
    self->mode_ = Mode::kStream;
    uint8_t t = self->type_ == PLINTH_RDB_SET    ? kTypeSet
                : self->type_ == PLINTH_RDB_HASH ? kTypeHash
                                                 : kTypeZset2;
    if (!self->Header(t) || !self->out_->Len(n)) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

int32_t CollectionWriter::WriteString(plinth_rdb_io_t* io, const char* s, size_t len) {
  auto* self = static_cast<CollectionWriter*>(io->ctx);
  if (self->pos_ >= self->atoms_ || self->NextIsDouble()) {
    return self->Bad("rdb_save wrote more strings than its length"), PLINTH_ERR;
  }
  std::string_view str(s, len);
  ++self->pos_;
  switch (self->mode_) {
    case Mode::kList:
      return self->AddListElement(str) ? PLINTH_OK : PLINTH_ERR;
    case Mode::kBuffer:
      self->strings_.emplace_back(str);
      return PLINTH_OK;
    case Mode::kStream:
      return self->out_->String(str) ? PLINTH_OK : PLINTH_ERR;
    default:
      return PLINTH_ERR;
  }
}

int32_t CollectionWriter::WriteDouble(plinth_rdb_io_t* io, double v) {
  auto* self = static_cast<CollectionWriter*>(io->ctx);
  if (self->pos_ >= self->atoms_ || !self->NextIsDouble()) {
    return self->Bad("rdb_save wrote a double out of place"), PLINTH_ERR;
  }
  ++self->pos_;
  if (self->mode_ == Mode::kBuffer) {
    self->scores_.push_back(v);
    return PLINTH_OK;
  }
  return self->out_->BinaryDouble(v) ? PLINTH_OK : PLINTH_ERR;
}

bool CollectionWriter::AddListElement(std::string_view s) {
  // A node closes before it would pass either limit; a lone large element gets its own node.
  if (node_.count() > 0 &&
      (node_.count() >= kListNodeMaxEntries || node_.bytes() + s.size() + 11 > kListNodeMaxBytes)) {
    nodes_.push_back(node_.Finish());
  }
  node_.Append(s);
  return true;
}

bool CollectionWriter::Finish(std::string* error) {
  bool ok = true;
  if (!error_.empty()) {
    ok = false;
  } else if (mode_ == Mode::kNoLen) {
    ok = Bad("rdb_save wrote no length");
  } else if (pos_ != atoms_) {
    ok = Bad("rdb_save wrote " + std::to_string(pos_) + " of " + std::to_string(atoms_) +
             " elements");
  } else if (mode_ == Mode::kList) {
    ok = FinishList();
  } else if (mode_ == Mode::kBuffer) {
    ok = type_ == PLINTH_RDB_SET    ? FinishSet()
         : type_ == PLINTH_RDB_HASH ? FinishHash()
                                    : FinishZset();
  }
  if (ok && out_->failed()) ok = Bad(out_->error());
  if (!ok) *error = error_.empty() ? out_->error() : error_;
  return ok;
}

bool CollectionWriter::FinishList() {
  if (node_.count() > 0) nodes_.push_back(node_.Finish());
  if (!Header(kTypeListQuicklist2) || !out_->Len(nodes_.size())) return false;
  for (const std::string& node : nodes_) {
    if (!out_->Len(kQuicklistPacked) || !out_->String(node)) return false;
  }
  return true;
}

bool CollectionWriter::FinishSet() {
  std::vector<int64_t> ints;
  ints.reserve(strings_.size());
  for (const std::string& s : strings_) {
    int64_t v = 0;
    if (!ParseCanonicalInt(s, &v)) break;
    ints.push_back(v);
  }
  if (ints.size() == strings_.size()) {
    std::sort(ints.begin(), ints.end());
    // Duplicates would shrink the intset; the plain form lets the loader refuse them.
    if (std::adjacent_find(ints.begin(), ints.end()) == ints.end()) {
      return Header(kTypeSetIntset) && out_->String(EncodeIntset(std::move(ints)));
    }
  }
  if (!Header(kTypeSet) || !out_->Len(count_)) return false;
  for (const std::string& s : strings_) {
    if (!out_->String(s)) return false;
  }
  return true;
}

bool CollectionWriter::FinishHash() {
  bool small = std::all_of(strings_.begin(), strings_.end(),
                           [](const std::string& s) { return s.size() <= kListpackMaxValue; });
  if (small) {
    ListpackBuilder lp;
    for (const std::string& s : strings_) lp.Append(s);
    return Header(kTypeHashListpack) && out_->String(lp.Finish());
  }
  if (!Header(kTypeHash) || !out_->Len(count_)) return false;
  for (const std::string& s : strings_) {
    if (!out_->String(s)) return false;
  }
  return true;
}

bool CollectionWriter::FinishZset() {
  bool small = std::all_of(strings_.begin(), strings_.end(),
                           [](const std::string& s) { return s.size() <= kListpackMaxValue; }) &&
               std::none_of(scores_.begin(), scores_.end(), [](double d) { return std::isnan(d); });
  if (small) {
    // A zset listpack is ordered by score, then member bytes: Redis relies on that order.
    std::vector<size_t> order(strings_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [this](size_t a, size_t b) {
      if (scores_[a] != scores_[b]) return scores_[a] < scores_[b];
      return strings_[a] < strings_[b];
    });
    ListpackBuilder lp;
    for (size_t i : order) {
      lp.Append(strings_[i]);
      lp.Append(ScoreText(scores_[i]));
    }
    return Header(kTypeZsetListpack) && out_->String(lp.Finish());
  }
  if (!Header(kTypeZset2) || !out_->Len(count_)) return false;
  for (size_t i = 0; i < strings_.size(); ++i) {
    if (!out_->String(strings_[i]) || !out_->BinaryDouble(scores_[i])) return false;
  }
  return true;
}

}  // namespace plinth::rdb
