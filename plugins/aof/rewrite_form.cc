// Commands from plain forms (see rewrite_form.h).
#include "aof/rewrite_form.h"

#include <plinth/plugin.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "aof/aof_reader.h"

namespace plinth::aof {
namespace {

using Kind = PlainForm::Kind;

// Checks that form is one length n followed by n groups of width items: strings, and with
// a double second when scored.
bool Matches(const PlainForm& form, size_t width, bool scored, uint64_t* n) {
  const auto& it = form.items;
  if (it.empty() || it[0].kind != Kind::kLen) return false;
  *n = it[0].len;
  if (*n > (it.size() - 1) / width || (it.size() - 1) != *n * width) return false;
  for (size_t i = 1; i < it.size(); ++i) {
    const bool second = (i - 1) % width == 1;
    if (it[i].kind != (scored && second ? Kind::kDouble : Kind::kString)) return false;
  }
  return true;
}

}  // namespace

bool AppendCollectionCommands(std::string* out, std::string_view key, uint32_t rdb_type,
                              const PlainForm& form) {
  const char* cmd = nullptr;
  size_t width = 1;
  switch (rdb_type) {
    case PLINTH_RDB_LIST:
      cmd = "RPUSH";
      break;
    case PLINTH_RDB_SET:
      cmd = "SADD";
      break;
    case PLINTH_RDB_HASH:
      cmd = "HSET";
      width = 2;
      break;
    case PLINTH_RDB_ZSET_2:
      cmd = "ZADD";
      width = 2;
      break;
    default:
      return false;
  }
  uint64_t n = 0;
  if (!Matches(form, width, rdb_type == PLINTH_RDB_ZSET_2, &n)) return false;
  std::vector<std::string> scores;  // keeps formatted scores alive for the views
  std::vector<std::string_view> argv;
  for (uint64_t done = 0; done < n;) {
    const uint64_t batch = std::min<uint64_t>(kItemsPerCommand, n - done);
    argv.assign({cmd, key});
    scores.clear();
    scores.reserve(batch);
    for (uint64_t k = 0; k < batch; ++k) {
      const size_t at = 1 + (done + k) * width;
      if (rdb_type == PLINTH_RDB_ZSET_2) {
        scores.push_back(FormatScore(form.items[at + 1].dbl));
        argv.push_back(scores.back());
        argv.push_back(form.items[at].str);
      } else {
        for (size_t w = 0; w < width; ++w) argv.push_back(form.items[at + w].str);
      }
    }
    AppendCommand(out, argv);
    done += batch;
  }
  return true;
}

void AppendStringCommand(std::string* out, std::string_view key, std::string_view value) {
  AppendCommand(out, {"SET", key, value});
}

void AppendExpireCommand(std::string* out, std::string_view key, int64_t when_ms) {
  const std::string when = std::to_string(when_ms);
  AppendCommand(out, {"PEXPIREAT", key, when});
}

void AppendSelectCommand(std::string* out, int32_t db) {
  const std::string d = std::to_string(db);
  AppendCommand(out, {"SELECT", d});
}

std::string FormatScore(double score) {
  if (std::isinf(score)) return score > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", score);
  return buf;
}

}  // namespace plinth::aof
