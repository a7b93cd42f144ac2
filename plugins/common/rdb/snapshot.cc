// Saving and loading the keyspace as RDB through the host API: the writer and reader of the
// codec on one side, db_visit, value_rdb_save, value_rdb_load and key_load on the other.
#include "common/rdb/snapshot.h"

#include <plinth/plugin.hpp>
#include <string_view>

#include "common/rdb/reader.h"
#include "common/rdb/sink.h"
#include "common/rdb/source.h"
#include "common/rdb/writer.h"

namespace plinth::rdb {
namespace {

// What Redis 7.0 writes, so tools that read the field (redis-check-rdb prints it) see a version
// whose format this file follows.
constexpr const char* kRedisVersion = "7.0.0";

int32_t SaveValue(const void* value, plinth_rdb_io_t* io) {
  return sdk::Api().value_rdb_save(static_cast<const plinth_value_t*>(value), io, nullptr);
}

struct SaveState {
  Writer* writer;
  const SaveOptions* options;
  std::string error;
};

int32_t SaveKey(void* arg, const char* key, size_t klen, const plinth_value_t* v,
                int64_t expire_ms) {
  auto* st = static_cast<SaveState*>(arg);
  const std::string_view name(key, klen);
  bool ok;
  if (sdk::Api().value_type(v) == PLINTH_TYPE_STRING) {
    size_t n = 0;
    const char* s = sdk::Api().value_string(v, &n);
    ok = st->writer->String(name, expire_ms, std::string_view(s, n));
  } else {
    const uint32_t form = sdk::Api().value_rdb_type(v);
    if (form == 0) {
      st->error = "key '" + std::string(name) + "' has a type with no RDB form";
      return 1;
    }
    ok = st->writer->Collection(name, expire_ms, form, &SaveValue, v);
  }
  if (!ok) {
    st->error = st->writer->error();
    return 1;
  }
  if (st->options->progress) st->options->progress->fetch_add(1, std::memory_order_relaxed);
  return 0;
}

}  // namespace

bool SaveKeyspace(plinth_plugin_t* self, int fd, const SaveOptions& options, std::string* err) {
  FdSink sink(fd);
  Writer w(&sink, WriterOptions{options.compress, options.checksum});
  SaveState st{&w, &options, {}};
  bool ok = w.Begin() && w.Aux("redis-ver", kRedisVersion) && w.AuxInt("redis-bits", 64) &&
            w.AuxInt("ctime", sdk::Api().time_us(self) / 1000000) && w.AuxInt("used-mem", 0) &&
            w.AuxInt("aof-base", options.aof_base ? 1 : 0);
  const int32_t dbs = sdk::Api().db_total(self);
  for (int32_t db = 0; ok && db < dbs; ++db) {
    uint64_t expires = 0;
    const uint64_t keys = sdk::Api().db_keys(self, db, &expires);
    if (keys == 0) continue;
    ok = w.SelectDb(static_cast<uint64_t>(db)) && w.ResizeDb(keys, expires) &&
         sdk::Api().db_visit(self, db, &SaveKey, &st) == PLINTH_OK;
  }
  ok = ok && w.Finish();
  if (!ok && err) *err = st.error.empty() ? w.error() : st.error;
  return ok;
}

// The reader's visitor: every key into the keyspace.
class KeyspaceVisitor final : public Visitor {
 public:
  explicit KeyspaceVisitor(plinth_plugin_t* self) : self_(self), dbs_(sdk::Api().db_total(self)) {
    now_ms_ = sdk::Api().time_us(self) / 1000;
  }

  bool SelectDb(uint64_t db) override {
    if (db >= static_cast<uint64_t>(dbs_))
      return Fail("database " + std::to_string(db) + " is out of range (databases " +
                  std::to_string(dbs_) + ")");
    return true;
  }

  bool String(const KeyInfo& key, std::string_view value) override {
    if (Expired(key)) return true;
    plinth_value_t* v = sdk::Api().value_create_string(value.data(), value.size());
    if (!v) return Fail("out of memory");
    return Store(key, v);
  }

  bool Collection(const KeyInfo& key, uint32_t plain_type, plinth_rdb_io_t* plain) override {
    if (Expired(key)) return true;
    plinth_value_t* v = sdk::Api().value_rdb_load(self_, plain_type, plain);
    if (!v)
      return Fail("key '" + std::string(key.name) + "': no loaded plugin reads RDB type " +
                  std::to_string(key.rdb_type) + ", or its value is malformed");
    return Store(key, v);
  }

  std::string Error() const override { return error_; }

  uint64_t loaded = 0;
  uint64_t expired = 0;

 private:
  bool Expired(const KeyInfo& key) {
    if (key.expire_ms < 0 || key.expire_ms > now_ms_) return false;
    ++expired;
    return true;
  }
  bool Store(const KeyInfo& key, plinth_value_t* v) {
    if (sdk::Api().key_load(self_, static_cast<int32_t>(key.db), key.name.data(), key.name.size(),
                            v, key.expire_ms) != PLINTH_OK)
      return Fail("duplicate key '" + std::string(key.name) + "' in database " +
                  std::to_string(key.db));
    ++loaded;
    return true;
  }
  bool Fail(std::string why) {
    error_ = std::move(why);
    return false;
  }
  plinth_plugin_t* self_;
  int32_t dbs_;
  int64_t now_ms_;
  std::string error_;
};

KeyspaceLoader::KeyspaceLoader(plinth_plugin_t* self, int fd)
    : source_(std::make_unique<FdSource>(fd)),
      visitor_(std::make_unique<KeyspaceVisitor>(self)),
      reader_(std::make_unique<Reader>(source_.get(), visitor_.get())) {}

KeyspaceLoader::~KeyspaceLoader() = default;

KeyspaceLoader::Status KeyspaceLoader::Step(uint64_t max_keys) {
  const uint64_t until = visitor_->loaded + visitor_->expired + max_keys;
  for (;;) {
    switch (reader_->Step()) {
      case Reader::Status::kDone:
        return Status::kDone;
      case Reader::Status::kError:
        return Status::kError;
      case Reader::Status::kMore:
        if (visitor_->loaded + visitor_->expired >= until) return Status::kMore;
    }
  }
}

const std::string& KeyspaceLoader::error() const { return reader_->error(); }
uint64_t KeyspaceLoader::keys_loaded() const { return visitor_->loaded; }
uint64_t KeyspaceLoader::keys_expired() const { return visitor_->expired; }
uint64_t KeyspaceLoader::offset() const { return reader_->offset(); }

}  // namespace plinth::rdb
