// Base file writing (see base_file.h): an RDB base through the snapshot library, or AOF commands
// generated from each key's plain RDB form.
#include "aof/base_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <plinth/plugin.hpp>

#include "aof/fs_util.h"
#include "aof/rewrite_form.h"

namespace plinth::aof {
namespace {

constexpr size_t kFlushBytes = 64 * 1024;
constexpr uint64_t kAutosyncBytes = 4u << 20;  // Redis's REDIS_AUTOSYNC_BYTES

// A plinth_rdb_io_t that records what a type's rdb_save writes.
struct Capture {
  plinth_rdb_io_t io{};
  PlainForm form;

  Capture() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* i, uint64_t n) {
      Self(i)->form.items.push_back({PlainForm::Kind::kLen, n, {}, 0});
      return int32_t{PLINTH_OK};
    };
    io.write_string = [](plinth_rdb_io_t* i, const char* s, size_t len) {
      Self(i)->form.items.push_back({PlainForm::Kind::kString, 0, std::string(s, len), 0});
      return int32_t{PLINTH_OK};
    };
    io.write_double = [](plinth_rdb_io_t* i, double v) {
      Self(i)->form.items.push_back({PlainForm::Kind::kDouble, 0, {}, v});
      return int32_t{PLINTH_OK};
    };
    io.read_len = [](plinth_rdb_io_t*, uint64_t*) { return int32_t{PLINTH_ERR}; };
    io.read_string = [](plinth_rdb_io_t*, const char**, size_t*) { return int32_t{PLINTH_ERR}; };
    io.read_double = [](plinth_rdb_io_t*, double*) { return int32_t{PLINTH_ERR}; };
    // The raw fields belong to the stream form, which has no AOF command form here yet: the
    // rewrite fails with its "no form an AOF can hold" error (an RDB preamble holds streams).
    io.write_raw = [](plinth_rdb_io_t*, const void*, size_t) { return int32_t{PLINTH_ERR}; };
    io.read_raw = [](plinth_rdb_io_t*, void*, size_t) { return int32_t{PLINTH_ERR}; };
  }
  static Capture* Self(plinth_rdb_io_t* i) { return static_cast<Capture*>(i->ctx); }
};

struct AofWriter {
  plinth_plugin_t* self;
  int fd;
  bool incremental_fsync;
  int64_t now_ms;
  std::string out;
  uint64_t since_sync = 0;
  std::string err;

  bool Drain() {
    if (WriteFully(fd, out) != out.size()) {
      err = std::string("can't write the AOF base: ") + std::strerror(errno);
      return false;
    }
    since_sync += out.size();
    out.clear();
    if (incremental_fsync && since_sync >= kAutosyncBytes) {
      since_sync = 0;
      if (fdatasync(fd) != 0) {
        err = std::string("can't sync the AOF base: ") + std::strerror(errno);
        return false;
      }
    }
    return true;
  }

  // One key; returns false to stop the visit.
  bool Key(std::string_view key, const plinth_value_t* v, int64_t expire_ms) {
    if (expire_ms >= 0 && expire_ms < now_ms) return true;  // expired: not worth rebuilding
    if (sdk::Api().value_type(v) == PLINTH_TYPE_STRING) {
      size_t len = 0;
      const char* s = sdk::Api().value_string(v, &len);
      AppendStringCommand(&out, key, std::string_view(s ? s : "", len));
    } else {
      Capture cap;
      uint32_t rdb_type = 0;
      if (sdk::Api().value_rdb_save(v, &cap.io, &rdb_type) != PLINTH_OK ||
          !AppendCollectionCommands(&out, key, rdb_type, cap.form)) {
        err = "key '" + std::string(key) + "' has a type with no form an AOF can hold";
        return false;
      }
    }
    if (expire_ms >= 0) AppendExpireCommand(&out, key, expire_ms);
    return out.size() < kFlushBytes || Drain();
  }
};

}  // namespace

bool WriteAofBase(plinth_plugin_t* self, int fd, bool incremental_fsync, std::string* err) {
  AofWriter w{self, fd, incremental_fsync, sdk::Api().time_us(self) / 1000, {}, 0, {}};
  const int32_t dbs = sdk::Api().db_total(self);
  for (int32_t db = 0; db < dbs; ++db) {
    if (sdk::Api().db_keys(self, db, nullptr) == 0) continue;
    AppendSelectCommand(&w.out, db);
    auto visit = [](void* arg, const char* key, size_t klen, const plinth_value_t* v,
                    int64_t expire_ms) -> int32_t {
      return static_cast<AofWriter*>(arg)->Key(std::string_view(key, klen), v, expire_ms) ? 0 : 1;
    };
    if (sdk::Api().db_visit(self, db, visit, &w) != PLINTH_OK || !w.err.empty()) {
      *err = w.err.empty() ? "can't visit database " + std::to_string(db) : w.err;
      return false;
    }
  }
  if (!w.Drain()) {
    *err = w.err;
    return false;
  }
  return true;
}

bool WriteBase(plinth_plugin_t* self, int fd, bool rdb, bool incremental_fsync, std::string* err) {
  if (!rdb) return WriteAofBase(self, fd, incremental_fsync, err);
  rdb::SaveOptions o;
  o.aof_base = true;
  return rdb::SaveKeyspace(self, fd, o, err);
}

}  // namespace plinth::aof
