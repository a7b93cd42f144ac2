// plinth-check-aof's logic: verifies a manifest and every file it lists (or one AOF file), and
// with fix cuts a truncated tail off the last incr file. Pure C++ over files; no ABI types.
#ifndef PLINTH_AOF_CHECK_CHECKER_H
#define PLINTH_AOF_CHECK_CHECKER_H

#include <ostream>
#include <string>

namespace plinth::aof {

// Checks path: a manifest (named *.manifest, or whose text starts with "file ") and the files
// it lists in its folder, or a single AOF file. Writes what it finds to out, ending with "AOF
// is valid", a fix, or the first error with its file and byte offset. Returns the exit code:
// 0 valid (or fixed), 1 otherwise.
int CheckAof(const std::string& path, bool fix, std::ostream& out);

}  // namespace plinth::aof

#endif  // PLINTH_AOF_CHECK_CHECKER_H
