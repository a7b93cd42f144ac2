// plinth-check-aof [--fix] <manifest-or-aof-file>: verifies an append-only file set (see
// checker.h). Exit 0 valid or fixed, 1 otherwise.
#include <cstring>
#include <iostream>

#include "aof/check/checker.h"

int main(int argc, char** argv) {
  bool fix = false;
  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--fix") == 0)
      fix = true;
    else if (!path)
      path = argv[i];
    else
      path = nullptr, argc = 0;
  }
  if (!path) {
    std::cerr << "Usage: plinth-check-aof [--fix] <file.manifest|file.aof>\n";
    return 1;
  }
  return plinth::aof::CheckAof(path, fix, std::cout);
}
