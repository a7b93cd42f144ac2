// HSCAN's argument rules (see scan_args.h).
#include "hash/scan_args.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <plinth/text.hpp>
#include <string>

namespace plinth::hash {

bool ParseScanCursor(std::string_view s, uint64_t* out) {
  const std::string text(s);  // strtoul reads up to the first NUL, as Redis's does
  if (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  *out = v;
  return true;
}

ScanArgsError ParseScanOptions(const std::vector<std::string_view>& args, ScanOptions* out) {
  for (size_t i = 0; i < args.size(); i += 2) {
    const bool has_value = i + 1 < args.size();
    if (has_value && text::EqualsNoCase(args[i], "count")) {
      int64_t n = 0;
      if (!text::ParseInt64(args[i + 1], &n)) return ScanArgsError::kNotInteger;
      if (n < 1) return ScanArgsError::kSyntax;
      out->count = static_cast<uint64_t>(n);
    } else if (has_value && text::EqualsNoCase(args[i], "match")) {
      out->pattern = args[i + 1];
      out->has_pattern = !(out->pattern.size() == 1 && out->pattern[0] == '*');
    } else {
      return ScanArgsError::kSyntax;
    }
  }
  return ScanArgsError::kNone;
}

}  // namespace plinth::hash
