// The Memory port of the shell: the allocator's figures and knobs (tcmalloc; libc malloc or
// the sanitizer's allocator in sanitizer builds), the process's resident set, and what the
// clients' buffers hold as the cron last counted. Main thread unless noted.
#pragma once

#include <cstdint>
#include <string>

#include "host/core/env.h"

namespace plinth::host {

struct ClientTable;

class ShellMemory final : public Memory {
 public:
  explicit ShellMemory(const ClientTable& clients) : clients_(clients) {}

  // Any thread.
  int64_t UsedMemory() override;
  int64_t NotCountedMemory() override;
  int64_t ClientMemory() override;
  int64_t RssMemory() override;
  void ReleaseFreeMemory() override;
  void AllocatorLimit(int64_t maxmemory) override;
  std::string AllocatorStats() override;

 private:
  const ClientTable& clients_;
};

// Appends the shell's fields of INFO memory (rss, fragmentation against used, the allocator's
// own figures, pending lazy frees) to out.
void MemoryInfoFields(int64_t used, std::string* out);

}  // namespace plinth::host
