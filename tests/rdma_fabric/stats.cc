// Traffic counters and the stats file: with RDMA_FABRIC_STATS_DIR set, each process writes
// <dir>/<pid>.json (rewritten every second by the progress thread and once more at exit), so a
// test can prove which processes moved bytes over verbs. Any thread.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

std::atomic<uint64_t> g_counters[kCounterCount];

const char* const kNames[kCounterCount] = {
    "connections_established",
    "connect_rejected",
    "disconnects",
    "sends_posted",
    "writes_posted",
    "writes_with_imm_posted",
    "bytes_sent",
    "bytes_written",
    "recv_completions",
    "send_completions",
    "errors",
    "flushed",
    "rnr_waits",
    "cq_overruns",
};

std::mutex& FileMutex() {
  static auto* mu = new std::mutex();  // never destroyed: used from the exit path
  return *mu;
}

}  // namespace

void Count(Counter counter, uint64_t n) {
  g_counters[counter].fetch_add(n, std::memory_order_relaxed);
}

void WriteStatsFile() {
  const char* dir = getenv("RDMA_FABRIC_STATS_DIR");
  if (dir == nullptr || *dir == '\0') return;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  std::string json = "{\"pid\": " + std::to_string(getpid()) + ", \"exe\": \"";
  for (const char* p = exe; *p != '\0'; ++p) {
    if (*p == '"' || *p == '\\') json += '\\';
    json += *p;
  }
  json += "\"";
  for (int i = 0; i < kCounterCount; ++i) {
    json += ", \"";
    json += kNames[i];
    json += "\": " + std::to_string(g_counters[i].load(std::memory_order_relaxed));
  }
  json += "}\n";
  std::string path = std::string(dir) + "/" + std::to_string(getpid()) + ".json";
  std::string tmp = path + ".tmp";
  std::lock_guard<std::mutex> lock(FileMutex());
  FILE* f = fopen(tmp.c_str(), "w");
  if (f == nullptr) return;
  fputs(json.c_str(), f);
  if (fclose(f) == 0) rename(tmp.c_str(), path.c_str());
}

namespace {

__attribute__((destructor)) void WriteStatsAtExit() { WriteStatsFile(); }

}  // namespace

}  // namespace plinth::rdma_fabric

extern "C" void fabric_count(enum fabric_counter counter, uint64_t n) {
  plinth::rdma_fabric::Count(static_cast<plinth::rdma_fabric::Counter>(counter), n);
}
