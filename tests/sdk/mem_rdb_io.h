// An in-memory plinth_rdb_io_t for fake-host tests of a type's rdb_save and rdb_load: what
// the type writes (lengths, strings and doubles), read back in order (lengths and strings).
#pragma once

#include <plinth/plugin.h>

#include <string>
#include <vector>

namespace plinth::testing {

struct MemRdbIo {
  plinth_rdb_io_t io{};
  std::vector<std::string> items;
  size_t next = 0;
  std::string scratch;
  MemRdbIo() {
    io.struct_size = sizeof io;
    io.ctx = this;
    io.write_len = [](plinth_rdb_io_t* i, uint64_t n) {
      Of(i)->items.push_back("#" + std::to_string(n));
      return int32_t{PLINTH_OK};
    };
    io.write_string = [](plinth_rdb_io_t* i, const char* s, size_t n) {
      Of(i)->items.push_back("$" + std::string(s, n));
      return int32_t{PLINTH_OK};
    };
    io.write_double = [](plinth_rdb_io_t* i, double v) {
      Of(i)->items.push_back("%" + std::to_string(v));
      return int32_t{PLINTH_OK};
    };
    io.read_len = [](plinth_rdb_io_t* i, uint64_t* n) {
      MemRdbIo* m = Of(i);
      if (m->next >= m->items.size() || m->items[m->next][0] != '#') return int32_t{PLINTH_ERR};
      *n = std::stoull(m->items[m->next++].substr(1));
      return int32_t{PLINTH_OK};
    };
    io.read_string = [](plinth_rdb_io_t* i, const char** s, size_t* n) {
      MemRdbIo* m = Of(i);
      if (m->next >= m->items.size() || m->items[m->next][0] != '$') return int32_t{PLINTH_ERR};
      m->scratch = m->items[m->next++].substr(1);
      *s = m->scratch.data();
      *n = m->scratch.size();
      return int32_t{PLINTH_OK};
    };
    io.read_double = [](plinth_rdb_io_t*, double*) { return int32_t{PLINTH_ERR}; };
  }
  static MemRdbIo* Of(plinth_rdb_io_t* i) { return static_cast<MemRdbIo*>(i->ctx); }
};

}  // namespace plinth::testing
