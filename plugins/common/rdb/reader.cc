// The RDB reader's item loop: opcodes, keys, and the dispatch of each value type to the plain
// stream replay, the blob decoders or the quicklist node reader.
#include "common/rdb/reader.h"

#include <cstdio>
#include <cstring>

#include "common/rdb/compact.h"
#include "common/rdb/format.h"
#include "common/rdb/replay.h"
#include "common/rdb/stream_value.h"

namespace plinth::rdb {
namespace {

int64_t LoadLeSigned(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  if (n < 8 && (v >> (8 * n - 1)) != 0) v |= ~uint64_t{0} << (8 * n);
  return static_cast<int64_t>(v);
}

// A module type id holds a 9-character name in 6-bit symbols above a 10-bit version.
std::string ModuleName(uint64_t id) {
  static const char kSymbols[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string name;
  for (int i = 0; i < 9; ++i) name.push_back(kSymbols[(id >> (10 + (8 - i) * 6)) & 63]);
  return name;
}

const char* BlobName(uint8_t type) {
  switch (type) {
    case kTypeHashZipmap:
      return "zipmap";
    case kTypeSetIntset:
      return "intset";
    case kTypeListZiplist:
    case kTypeZsetZiplist:
    case kTypeHashZiplist:
      return "ziplist";
    default:
      return "listpack";
  }
}

}  // namespace

Reader::Status Reader::Step() {
  if (status_ != Status::kMore) return status_;
  bool ok = false;
  if (version_ == 0) {
    ok = Header();
  } else {
    in_.MarkItem();
    uint8_t op = 0;
    ok = in_.Byte(&op) && Opcode(op);
  }
  if (!ok) status_ = Status::kError;
  return status_;
}

Reader::Status Reader::Run() {
  while (Step() == Status::kMore) {
  }
  return status_;
}

bool Reader::Header() {
  in_.MarkItem();
  char magic[9];
  if (!in_.Bytes(magic, sizeof magic)) return false;
  if (std::memcmp(magic, "REDIS", 5) != 0) return in_.Fail("not an RDB file (no REDIS magic)");
  int v = 0;
  for (int i = 5; i < 9; ++i) {
    if (magic[i] < '0' || magic[i] > '9') return in_.FailAt("bad RDB version digits", 5);
    v = v * 10 + (magic[i] - '0');
  }
  if (v < 1) return in_.FailAt("bad RDB version 0", 5);
  if (v > kMaxReadVersion) {
    return in_.FailAt("RDB version " + std::to_string(v) + " is newer than the newest this " +
                          "server reads (" + std::to_string(kMaxReadVersion) + ")",
                      5);
  }
  version_ = v;
  return true;
}

bool Reader::Opcode(uint8_t op) {
  unsigned char b[8];
  uint64_t a = 0, c = 0;
  switch (op) {
    case kOpAux:
      return in_.String(&key_) && in_.String(&value_) &&
             (visitor_->Aux(key_, value_) || VisitorFailed());
    case kOpResizeDb:
      return in_.Len(&a) && in_.Len(&c) && (visitor_->ResizeDb(a, c) || VisitorFailed());
    case kOpSelectDb:
      if (!in_.Len(&db_)) return false;
      return visitor_->SelectDb(db_) || VisitorFailed();
    case kOpExpireTimeMs:
      if (!in_.Bytes(b, 8)) return false;
      pending_.expire_ms = LoadLeSigned(b, 8);
      if (pending_.expire_ms < 0) pending_.expire_ms = 0;
      return true;
    case kOpExpireTime:
      if (!in_.Bytes(b, 4)) return false;
      pending_.expire_ms = LoadLeSigned(b, 4) * 1000;
      if (pending_.expire_ms < 0) pending_.expire_ms = 0;
      return true;
    case kOpIdle:
      if (!in_.Len(&a)) return false;
      pending_.idle_s = a > INT64_MAX ? INT64_MAX : static_cast<int64_t>(a);
      return true;
    case kOpFreq:
      if (!in_.Bytes(b, 1)) return false;
      pending_.freq = b[0];
      return true;
    case kOpModuleAux:
      return in_.Fail("module aux data is not supported (this server has no modules)");
    case kOpFunction:
    case kOpFunction2:
      return in_.Fail("functions are not supported (this server has no functions yet)");
    case kOpEof:
      return Eof();
    default:
      return Key(op);
  }
}

bool Reader::Eof() {
  if (version_ >= 5) {
    uint64_t expected = in_.crc();
    in_.MarkItem();
    unsigned char b[8];
    if (!in_.Bytes(b, 8)) return false;
    uint64_t stored = static_cast<uint64_t>(LoadLeSigned(b, 8));
    if (stored != 0 && stored != expected) {
      char msg[96];
      std::snprintf(msg, sizeof msg, "RDB checksum mismatch (computed %016llx, file has %016llx)",
                    static_cast<unsigned long long>(expected),
                    static_cast<unsigned long long>(stored));
      return in_.Fail(msg);
    }
    checksum_verified_ = stored != 0;
  }
  status_ = Status::kDone;
  return true;
}

bool Reader::Refuse(uint8_t type) {
  if (type == kTypeModulePreGa || type == kTypeModule2) {
    uint64_t id = 0;
    if (!in_.Len(&id)) return false;
    return in_.Fail("unknown module type (module '" + ModuleName(id) + "', RDB type " +
                    std::to_string(type) + ")");
  }
  return in_.Fail("unknown value type " + std::to_string(type));
}

bool Reader::StreamValue(uint8_t type) {
  std::vector<StreamToken> tokens;
  uint32_t form = 0;
  if (!ReadStreamValue(&in_, type, &tokens, &form)) return false;
  StreamValueReplay replay(std::move(tokens));
  return visitor_->Collection(current_, form, replay.io()) || VisitorFailed();
}

bool Reader::Key(uint8_t type) {
  bool known = type <= kTypeZset2 || type == kTypeModulePreGa || type == kTypeModule2 ||
               (type >= kTypeHashZipmap && type <= kTypeSetListpack) ||
               type == kTypeStreamListpacks3;
  if (!known) return in_.Fail("unknown value type " + std::to_string(type));
  if (!in_.String(&key_)) return false;
  current_ = pending_;
  pending_ = KeyInfo();
  current_.name = key_;
  current_.rdb_type = type;
  current_.db = db_;
  bool ok = false;
  switch (type) {
    case kTypeString:
      ok = in_.String(&value_) && (visitor_->String(current_, value_) || VisitorFailed());
      break;
    case kTypeList:
      ok = Plain(PLINTH_RDB_LIST, false);
      break;
    case kTypeSet:
      ok = Plain(PLINTH_RDB_SET, false);
      break;
    case kTypeZset:
      ok = Plain(PLINTH_RDB_ZSET_2, true);
      break;
    case kTypeHash:
      ok = Plain(PLINTH_RDB_HASH, false);
      break;
    case kTypeZset2:
      ok = Plain(PLINTH_RDB_ZSET_2, false);
      break;
    case kTypeListQuicklist:
    case kTypeListQuicklist2:
      ok = Quicklist(type);
      break;
    case kTypeModulePreGa:
    case kTypeModule2:
      ok = Refuse(type);
      break;
    case kTypeStreamListpacks:
    case kTypeStreamListpacks2:
    case kTypeStreamListpacks3:
      ok = StreamValue(type);
      break;
    default:
      ok = Blob(type);
      break;
  }
  return ok;
}

bool Reader::Plain(uint32_t plain_type, bool string_scores) {
  uint64_t n = 0;
  if (!in_.Len(&n)) return false;
  if (n > (uint64_t{1} << 62)) return in_.Fail("collection length out of range");
  if (n == 0) {
    ++empty_keys_skipped_;
    return true;
  }
  StreamReplay replay(&in_, plain_type, n, string_scores);
  bool ok = visitor_->Collection(current_, plain_type, replay.io());
  if (in_.failed()) return false;
  if (!ok) return VisitorFailed();
  return replay.Drain();
}

bool Reader::Replay(uint32_t plain_type, std::vector<std::string> atoms) {
  bool pairs = plain_type == PLINTH_RDB_HASH || plain_type == PLINTH_RDB_ZSET_2;
  if (pairs && atoms.size() % 2 != 0) return in_.Fail("odd number of elements in a pair blob");
  if (plain_type == PLINTH_RDB_ZSET_2) {
    double d = 0;
    for (size_t i = 1; i < atoms.size(); i += 2) {
      if (!ParseScore(atoms[i], &d)) return in_.Fail("bad zset score in a compact blob");
    }
  }
  uint64_t count = pairs ? atoms.size() / 2 : atoms.size();
  if (count == 0) {
    ++empty_keys_skipped_;
    return true;
  }
  MemoryReplay replay(plain_type, count, std::move(atoms));
  return visitor_->Collection(current_, plain_type, replay.io()) || VisitorFailed();
}

bool Reader::Blob(uint8_t type) {
  if (!in_.String(&value_)) return false;
  std::vector<std::string> atoms;
  std::string error;
  bool ok = false;
  uint32_t plain = PLINTH_RDB_LIST;
  switch (type) {
    case kTypeHashZipmap:
      ok = DecodeZipmap(value_, &atoms, &error), plain = PLINTH_RDB_HASH;
      break;
    case kTypeListZiplist:
      ok = DecodeZiplist(value_, &atoms, &error);
      break;
    case kTypeSetIntset:
      ok = DecodeIntset(value_, &atoms, &error), plain = PLINTH_RDB_SET;
      break;
    case kTypeZsetZiplist:
      ok = DecodeZiplist(value_, &atoms, &error), plain = PLINTH_RDB_ZSET_2;
      break;
    case kTypeHashZiplist:
      ok = DecodeZiplist(value_, &atoms, &error), plain = PLINTH_RDB_HASH;
      break;
    case kTypeHashListpack:
      ok = DecodeListpack(value_, &atoms, &error), plain = PLINTH_RDB_HASH;
      break;
    case kTypeZsetListpack:
      ok = DecodeListpack(value_, &atoms, &error), plain = PLINTH_RDB_ZSET_2;
      break;
    case kTypeSetListpack:
      ok = DecodeListpack(value_, &atoms, &error), plain = PLINTH_RDB_SET;
      break;
    default:
      return in_.Fail("unknown value type " + std::to_string(type));
  }
  if (!ok) return in_.Fail(std::string("bad ") + BlobName(type) + ": " + error);
  return Replay(plain, std::move(atoms));
}

bool Reader::Quicklist(uint8_t type) {
  uint64_t n = 0;
  if (!in_.Len(&n)) return false;
  std::vector<QuicklistNode> nodes;
  std::vector<std::string> scratch;
  std::string error;
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; ++i) {
    QuicklistNode node{QuicklistNode::kZiplist, {}};
    if (type == kTypeListQuicklist2) {
      uint64_t container = 0;
      if (!in_.Len(&container)) return false;
      if (container != kQuicklistPlain && container != kQuicklistPacked) {
        return in_.Fail("bad quicklist node container " + std::to_string(container));
      }
      node.kind = container == kQuicklistPlain ? QuicklistNode::kPlain : QuicklistNode::kListpack;
    }
    if (!in_.String(&node.blob)) return false;
    scratch.clear();
    if (!DecodeNode(node, &scratch, &error)) {
      return in_.Fail(std::string("bad quicklist node (") +
                      (node.kind == QuicklistNode::kZiplist ? "ziplist" : "listpack") +
                      "): " + error);
    }
    if (scratch.empty()) continue;  // Redis drops empty nodes too
    count += scratch.size();
    nodes.push_back(std::move(node));
  }
  if (count == 0) {
    ++empty_keys_skipped_;
    return true;
  }
  MemoryReplay replay(count, &nodes);
  return visitor_->Collection(current_, PLINTH_RDB_LIST, replay.io()) || VisitorFailed();
}

}  // namespace plinth::rdb
