// Splits one inline request line into arguments the way redis-cli and Redis's inline protocol
// do (sdssplitargs rules). Pure function; any thread.
#ifndef PLINTH_PLUGINS_RESP_INLINE_ARGS_H
#define PLINTH_PLUGINS_RESP_INLINE_ARGS_H

#include <cstddef>
#include <string>
#include <vector>

namespace plinth::resp {

// Splits line[0, n) into arguments appended to "store"; the i-th argument found is
// store[offsets[i], offsets[i] + lengths[i]). Rules: arguments are separated by whitespace;
// "double quotes" understand \n \r \t \b \a \xHH and a backslash before any other character;
// 'single quotes' understand only \'; quoting may start inside a word (a"b c" is "ab c"); a
// closing quote must be followed by whitespace or the end of the line. Returns false on an
// unterminated quote or a closing quote followed by something else; the outputs may then hold
// partial results. Appends at most n bytes to store.
bool SplitInlineArgs(const char* line, size_t n, std::string* store, std::vector<size_t>* offsets,
                     std::vector<size_t>* lengths);

}  // namespace plinth::resp

#endif  // PLINTH_PLUGINS_RESP_INLINE_ARGS_H
