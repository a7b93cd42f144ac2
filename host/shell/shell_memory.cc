// The allocator and the process's memory as the shell measures them.
#ifndef PLINTH_NO_TCMALLOC
#include <gperftools/malloc_extension.h>
#else
#include <malloc.h>
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizer runtime's allocator figure (GCC ships no header declaring it).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif
#endif
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "host/core/info.h"
#include "host/core/lazy_free.h"
#include "host/shell/shell_clients.h"
#include "host/shell/shell_memory.h"

namespace plinth::host {
namespace {

void Field(std::string* o, const char* name, const std::string& v) { InfoLine(o, name, v); }
void Field(std::string* o, const char* name, int64_t v) { InfoLine(o, name, v); }

int64_t RssBytes() {
  std::ifstream f("/proc/self/statm");
  long long pages = 0, rss = 0;
  f >> pages >> rss;
  return rss * sysconf(_SC_PAGESIZE);
}

size_t TcmallocProp(const char* name) {
  size_t v = 0;
#ifndef PLINTH_NO_TCMALLOC
  MallocExtension::instance()->GetNumericProperty(name, &v);
#else
  (void)name;
#endif
  return v;
}

}  // namespace

void MemoryInfoFields(int64_t used, std::string* o) {
  const int64_t rss = RssBytes();
  Field(o, "used_memory_rss", rss);
  Field(o, "used_memory_rss_human", HumanBytes(rss));
  Field(o, "mem_fragmentation_ratio",
        used ? std::to_string(static_cast<double>(rss) / static_cast<double>(used)) : "0");
#ifndef PLINTH_NO_TCMALLOC
  Field(o, "mem_allocator", "tcmalloc");
#else
  Field(o, "mem_allocator", "libc");
#endif
  Field(o, "tcmalloc_heap_size", static_cast<int64_t>(TcmallocProp("generic.heap_size")));
  Field(o, "tcmalloc_pageheap_free_bytes",
        static_cast<int64_t>(TcmallocProp("tcmalloc.pageheap_free_bytes")));
  Field(o, "tcmalloc_pageheap_unmapped_bytes",
        static_cast<int64_t>(TcmallocProp("tcmalloc.pageheap_unmapped_bytes")));
  Field(o, "tcmalloc_thread_cache_free_bytes",
        static_cast<int64_t>(TcmallocProp("tcmalloc.current_total_thread_cache_bytes")));
  Field(o, "lazyfree_pending_objects", static_cast<int64_t>(LazyFreePending()));
}

int64_t ShellMemory::UsedMemory() {
#ifndef PLINTH_NO_TCMALLOC
  return static_cast<int64_t>(TcmallocProp("generic.current_allocated_bytes"));
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return static_cast<int64_t>(__sanitizer_get_current_allocated_bytes());
#else
  return static_cast<int64_t>(mallinfo2().uordblks);
#endif
}

int64_t ShellMemory::NotCountedMemory() { return clients_.replica_buffers; }

int64_t ShellMemory::ClientMemory() { return clients_.buffers; }

int64_t ShellMemory::RssMemory() { return RssBytes(); }

void ShellMemory::ReleaseFreeMemory() {
#ifndef PLINTH_NO_TCMALLOC
  MallocExtension::instance()->ReleaseFreeMemory();
#else
  malloc_trim(0);
#endif
}

// tcmalloc's settings (32 MiB of thread caches, free spans kept) suit a server without a limit.
// Under maxmemory they would be a few percent of RSS above it that eviction cannot reach: the
// thread caches get a hundredth of the limit (1 to 32 MiB), and free spans go back to the
// system at once. Without a limit again, the settings are as they were.
void ShellMemory::AllocatorLimit(int64_t maxmemory) {
#ifndef PLINTH_NO_TCMALLOC
  static size_t caches_before = 0;  // 0: not limited now
  MallocExtension* m = MallocExtension::instance();
  constexpr char kCaches[] = "tcmalloc.max_total_thread_cache_bytes";
  if (maxmemory <= 0) {
    if (caches_before == 0) return;
    m->SetNumericProperty(kCaches, caches_before);
    m->SetNumericProperty("tcmalloc.aggressive_memory_decommit", 0);
    caches_before = 0;
    return;
  }
  if (caches_before == 0 && !m->GetNumericProperty(kCaches, &caches_before)) return;
  constexpr int64_t kMiB = 1 << 20;
  m->SetNumericProperty(kCaches, static_cast<size_t>(std::clamp(maxmemory / 100, kMiB, 32 * kMiB)));
  m->SetNumericProperty("tcmalloc.aggressive_memory_decommit", 1);
#else
  (void)maxmemory;
#endif
}

std::string ShellMemory::AllocatorStats() {
#ifndef PLINTH_NO_TCMALLOC
  std::string text(size_t{64} * 1024, '\0');
  MallocExtension::instance()->GetStats(text.data(), static_cast<int>(text.size()));
  text.resize(std::strlen(text.c_str()));
  return text;
#else
  return Memory::AllocatorStats();
#endif
}

}  // namespace plinth::host
