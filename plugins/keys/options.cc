// Small option grammars of the generic/server key commands, byte-exact with Redis's errors.
#include "keys/options.h"

#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::keys {

using text::EqualsNoCase;

bool ParseDbIndex(std::string_view s, int32_t db_count, int32_t* db, std::string* error) {
  // As Redis's getIntFromObjectOrReply: an integer that does not fit 32 bits has its own text.
  int64_t v = 0;
  if (!text::ParseInt64(s, &v)) {
    *error = errors::kNotInteger;
    return false;
  }
  if (v < INT32_MIN || v > INT32_MAX) {
    *error = "ERR value is out of range, value must between -2147483648 and 2147483647";
    return false;
  }
  if (v < 0 || v >= db_count) {
    *error = errors::kDbIndexOutOfRange;
    return false;
  }
  *db = static_cast<int32_t>(v);
  return true;
}

bool ParseCopyOptions(const std::vector<std::string_view>& words, int32_t db_count,
                      CopyOptions* opts, std::string* error) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (EqualsNoCase(words[i], "replace")) {
      opts->replace = true;
    } else if (EqualsNoCase(words[i], "db") && i + 1 < words.size()) {
      if (!ParseDbIndex(words[i + 1], db_count, &opts->dst_db, error)) return false;
      ++i;
    } else {
      *error = errors::kSyntax;
      return false;
    }
  }
  return true;
}

bool ParseFlushMode(const std::vector<std::string_view>& words, FlushMode* mode,
                    std::string* error) {
  if (words.empty()) {
    *mode = FlushMode::kDefault;
  } else if (words.size() == 1 && EqualsNoCase(words[0], "sync")) {
    *mode = FlushMode::kSync;
  } else if (words.size() == 1 && EqualsNoCase(words[0], "async")) {
    *mode = FlushMode::kAsync;
  } else {
    *error = errors::kSyntax;
    return false;
  }
  return true;
}

bool ParseMemoryUsageOptions(const std::vector<std::string_view>& words, std::string* error) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (!EqualsNoCase(words[i], "samples") || i + 1 >= words.size()) {
      *error = errors::kSyntax;
      return false;
    }
    int64_t samples = 0;
    if (!text::ParseInt64(words[i + 1], &samples)) {
      *error = errors::kNotInteger;
      return false;
    }
    if (samples < 0) {
      *error = errors::kSyntax;
      return false;
    }
    ++i;
  }
  return true;
}

}  // namespace plinth::keys
