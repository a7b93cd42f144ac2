// Keys functions of the bundled command tables: the argument walks Redis 7.0's key specs and
// getkeys procs describe, with the access each key needs (Redis: "access" is a read, "insert",
// "delete" and "update" are writes).
#include "common/acl_keys.h"

#include <plinth/text.hpp>
#include <string_view>

namespace plinth::common {
namespace {

constexpr uint32_t kR = PLINTH_KEY_READ;
constexpr uint32_t kW = PLINTH_KEY_WRITE;

std::string_view Arg(KeysArgv argv, const size_t* argvlen, int32_t i) {
  return std::string_view(argv[i], argvlen[i]);
}

bool Is(KeysArgv argv, const size_t* argvlen, int32_t i, std::string_view word) {
  return text::EqualsNoCase(Arg(argv, argvlen, i), word);
}

}  // namespace

int32_t SetKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  if (argc < 2) return 0;
  uint32_t flags = kW;
  for (int32_t i = 3; i < argc; ++i)
    if (Is(argv, argvlen, i, "get")) flags |= kR;
  out[0] = {1, flags};
  return 1;
}

int32_t BitfieldKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  if (argc < 2) return 0;
  uint32_t flags = kR;
  // Operations other than GET (SET, INCRBY, OVERFLOW) make it a write, as Redis's key spec.
  for (int32_t i = 2; i < argc; ++i) {
    if (Is(argv, argvlen, i, "get")) {
      i += 2;
    } else if (Is(argv, argvlen, i, "set") || Is(argv, argvlen, i, "incrby")) {
      flags |= kW;
      i += 3;
    } else {
      flags |= kW;
      i += 1;
    }
  }
  out[0] = {1, flags};
  return 1;
}

int32_t SortKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  if (argc < 2) return 0;
  int32_t n = 0;
  out[n++] = {1, kR};
  // Redis's sortGetKeys: options with arguments are skipped so that a GET or BY pattern that
  // reads "store" is not taken for the option; the last STORE wins.
  int32_t store = 0;
  for (int32_t i = 2; i < argc; ++i) {
    if (Is(argv, argvlen, i, "limit")) {
      i += 2;
    } else if (Is(argv, argvlen, i, "get") || Is(argv, argvlen, i, "by")) {
      i += 1;
    } else if (Is(argv, argvlen, i, "store") && i + 1 < argc) {
      store = ++i;
    }
  }
  if (store) out[n++] = {store, kW};
  return n;
}

int32_t StreamsKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  // Redis's xreadGetKeys: options are skipped with their arguments, so that a group or
  // consumer named "streams" is not taken for the keyword.
  for (int32_t i = 1; i < argc; ++i) {
    if (Is(argv, argvlen, i, "block") || Is(argv, argvlen, i, "count")) {
      i += 1;
    } else if (Is(argv, argvlen, i, "group")) {
      i += 2;
    } else if (Is(argv, argvlen, i, "streams")) {
      const int32_t count = (argc - i - 1) / 2;
      for (int32_t k = 0; k < count; ++k) out[k] = {i + 1 + k, kR};
      return count;
    } else if (!Is(argv, argvlen, i, "noack")) {
      return 0;
    }
  }
  return 0;
}

int32_t GeoRadiusKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  if (argc < 2) return 0;
  int32_t n = 0;
  out[n++] = {1, kR};
  // As Redis's georadiusGetKeys: options start at 5 (GEORADIUSBYMEMBER's; GEORADIUS's unit
  // sits there), and the last STORE or STOREDIST names the destination.
  int32_t store = 0;
  for (int32_t i = 5; i + 1 < argc; ++i)
    if (Is(argv, argvlen, i, "store") || Is(argv, argvlen, i, "storedist")) store = ++i;
  if (store) out[n++] = {store, kW};
  return n;
}

int32_t MigrateKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  if (argc < 4) return 0;
  if (argvlen[3] > 0) {
    out[0] = {3, kR | kW};
    return 1;
  }
  for (int32_t i = 6; i < argc; ++i) {
    if (!Is(argv, argvlen, i, "keys")) continue;
    int32_t n = 0;
    for (int32_t k = i + 1; k < argc; ++k) out[n++] = {k, kR | kW};
    return n;
  }
  return 0;
}

}  // namespace plinth::common
