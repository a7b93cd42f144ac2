// What the shell tells the core about the world: INFO fields of the clients, memory and server
// sections, CLIENT LIST lines and CLIENT KILL.
#ifndef PLINTH_NO_TCMALLOC
#include <gperftools/malloc_extension.h>
#else
#include <malloc.h>
#include <netinet/in.h>
#include <sys/socket.h>
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizer runtime's allocator figure (GCC ships no header declaring it).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif
#endif
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "host/core/info.h"
#include "host/core/lazy_free.h"
#include "host/shell/client.h"
#include "host/shell/server.h"

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

void Memory(std::string* o, int64_t used) {
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

}  // namespace

void Shell::InfoFields(std::string_view section, std::string* out) {
  if (section == "server") {
    Field(out, "multiplexing_api", "libuv");
    Field(out, "hz", limits.hz);
  } else if (section == "listeners") {
    Field(out, "tcp_port", TcpPort());
  } else if (section == "clients") {
    Field(out, "connected_clients", static_cast<int64_t>(clients.size()));
    Field(out, "maxclients", limits.maxclients);
    Field(out, "blocked_clients", static_cast<int64_t>(core.blocking.Count()));
  } else if (section == "memory") {
    Memory(out, UsedMemory());
  } else if (section == "io_threads") {
    io.Info(out);
  }
}

int64_t Shell::TcpPort() const {
  for (const Listener* l : listeners) {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    int type = 0;
    socklen_t tlen = sizeof type;
    if (getsockname(l->fd, reinterpret_cast<sockaddr*>(&a), &len) != 0 ||
        getsockopt(l->fd, SOL_SOCKET, SO_TYPE, &type, &tlen) != 0 || type != SOCK_STREAM)
      continue;
    if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&a)->sin_port);
    if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&a)->sin6_port);
  }
  return 0;
}

int64_t Shell::UsedMemory() {
#ifndef PLINTH_NO_TCMALLOC
  return static_cast<int64_t>(TcmallocProp("generic.current_allocated_bytes"));
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return static_cast<int64_t>(__sanitizer_get_current_allocated_bytes());
#else
  return static_cast<int64_t>(mallinfo2().uordblks);
#endif
}

int64_t Shell::RssMemory() { return RssBytes(); }

void Shell::ReleaseFreeMemory() {
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
void Shell::AllocatorLimit(int64_t maxmemory) {
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

std::string Shell::AllocatorStats() {
#ifndef PLINTH_NO_TCMALLOC
  std::string text(size_t{64} * 1024, '\0');
  MallocExtension::instance()->GetStats(text.data(), static_cast<int>(text.size()));
  text.resize(std::strlen(text.c_str()));
  return text;
#else
  return Env::AllocatorStats();
#endif
}

void Shell::DescribeClients(uint64_t id, plinth_emit_fn emit, void* arg) {
  if (id) {
    auto it = clients.find(id);
    if (it != clients.end()) {
      std::string line = ClientDescribe(it->second);
      emit(arg, line.data(), line.size());
    }
    return;
  }
  std::vector<Client*> all;
  for (auto& [cid, cl] : clients) all.push_back(cl);
  std::sort(all.begin(), all.end(),
            [](Client* a, Client* b) { return a->session.id < b->session.id; });
  for (Client* cl : all) {
    std::string line = ClientDescribe(cl);
    emit(arg, line.data(), line.size());
  }
}

std::string Shell::ClientAddr(uint64_t id) {
  auto it = clients.find(id);
  return it == clients.end() ? std::string() : it->second->conn.peer;
}

int64_t Shell::KillClients(Session* caller, uint32_t filter, std::string_view want) {
  std::vector<Client*> victims;
  for (auto& [id, cl] : clients) {
    bool match = false;
    if (filter == PLINTH_KILL_ID) match = std::to_string(id) == want;
    if (filter == PLINTH_KILL_ADDR) match = cl->conn.peer == want;
    if (filter == PLINTH_KILL_LADDR) match = cl->conn.local == want;
    if (match) victims.push_back(cl);
  }
  // The caller (or a script's caller: its call sessions share the id) gets its reply first, as
  // in Redis; the others close once the command has returned (ClientClose).
  for (Client* cl : victims) {
    if (caller && cl->session.id == caller->id)
      cl->session.close_after_reply = true;
    else
      ClientClose(cl);
  }
  return static_cast<int64_t>(victims.size());
}

void Shell::ForEachSession(const std::function<void(Session&)>& fn) {
  for (auto& [id, cl] : clients)
    if (!cl->state.closed) fn(cl->session);
}

Session* Shell::FindSession(uint64_t id) {
  auto it = clients.find(id);
  return it == clients.end() || it->second->state.closed ? nullptr : &it->second->session;
}

}  // namespace plinth::host
