// Matching of option words ("NX", "BYTE", "IDX", ...) the way Redis compares them: ASCII case
// is ignored and, as Redis compares C strings, bytes after an embedded NUL are not seen.
#ifndef PLINTH_STRINGS_TOKEN_H
#define PLINTH_STRINGS_TOKEN_H

#include <plinth/text.hpp>
#include <string_view>

namespace plinth::strings {

// True when arg names the option upper (given in upper case).
inline bool IsToken(std::string_view arg, std::string_view upper) {
  size_t nul = arg.find('\0');
  if (nul != std::string_view::npos) arg = arg.substr(0, nul);
  return text::EqualsNoCase(arg, upper);
}

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_TOKEN_H
