// plinth-check-rdb: reads an RDB file through the server's own reader without loading it, and
// says whether it is well formed: its version, checksum, keys per type, aux fields, or the first
// error with its byte offset. Exit status 0 when the file is good, 1 when not, 2 on usage.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/rdb/source.h"
#include "common/rdb/verify.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fprintf(stderr, "usage: plinth-check-rdb <file.rdb>\n");
    return 2;
  }
  const int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "Cannot open %s: %s\n", argv[1], std::strerror(errno));
    return 1;
  }
  plinth::rdb::FdSource source(fd);
  plinth::rdb::VerifyReport r;
  const bool ok = plinth::rdb::Verify(&source, &r);
  close(fd);
  std::printf("RDB version %d, %llu bytes read\n", r.version,
              static_cast<unsigned long long>(r.bytes));
  for (const auto& [name, value] : r.aux) std::printf("aux %s: %s\n", name.c_str(), value.c_str());
  std::printf("keys: %llu (%llu with an expiry)", static_cast<unsigned long long>(r.keys),
              static_cast<unsigned long long>(r.expires));
  for (const auto& [type, n] : r.keys_by_type)
    std::printf(", %s %llu", type.c_str(), static_cast<unsigned long long>(n));
  std::printf("\n");
  if (!ok) {
    std::printf("RDB error: %s\n", r.error.c_str());
    return 1;
  }
  std::printf("checksum: %s\n", r.checksum_verified ? "OK" : "none (rdbchecksum no)");
  std::printf("RDB looks OK\n");
  return 0;
}
