// plinth-loadgen: sends GETs at a fixed rate (or, with --closed, as fast as replies come back)
// over N connections and prints one JSON object with the rates reached, reply latency
// percentiles and the server's CPU use. Used by bench/e2e/run.py; run it alone with --help.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "closed_loop.h"
#include "fixed_rate.h"
#include "net.h"
#include "reply_scanner.h"

namespace {

using plinth::loadgen::ClosedLoopResult;
using plinth::loadgen::FixedRateConfig;
using plinth::loadgen::FixedRateResult;

void Usage(FILE* f) {
  std::fprintf(f,
               "Usage: plinth-loadgen [--host H] [--port N] [--rate R] [--conns N]\n"
               "                      [--duration S] [--warmup S] [--keys K]\n"
               "                      [--preload VALUE_BYTES] [--server-pid PID] [--rdma]\n"
               "                      [--closed DEPTH [--discard]] [--self-test]\n"
               "Sends GET key:%%012d (i mod K) at R requests/s (0: stay idle) spread over N\n"
               "connections for warmup + duration seconds and prints JSON: rates reached,\n"
               "latency percentiles (write to reply) over the last S seconds and, with\n"
               "--server-pid, the server's CPU use over them. --preload first SETs the K keys.\n"
               "--rdma connects over RDMA (Valkey over RDMA protocol) to --port as rdma-port.\n"
               "--closed keeps DEPTH GETs outstanding per connection instead (no --rate): the\n"
               "rate reached is the result. Bulk payloads are read into a scratch buffer, or\n"
               "with --discard dropped in the kernel, so the reader costs little.\n"
               "Exit status: 0 when the run completed (see \"held\"), 1 on errors, 2 on usage.\n");
}

struct Mode {
  int preload = -1;
  bool self_test = false;
  int closed_depth = 0;  // 0: the fixed-rate generator
  bool discard = false;
};

bool ParseArgs(int argc, char** argv, FixedRateConfig* cfg, Mode* mode) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--self-test") {
      mode->self_test = true;
      continue;
    }
    if (a == "--discard") {
      mode->discard = true;
      continue;
    }
    if (a == "--rdma") {
      cfg->rdma = true;
      continue;
    }
    if (a == "--help" || a == "-h" || i + 1 >= argc) return false;
    const char* v = argv[++i];
    char* end = nullptr;
    const double d = std::strtod(v, &end);
    const bool numeric = end != v && *end == '\0' && d >= 0;
    if (a == "--host") {
      cfg->host = v;
    } else if (!numeric) {
      std::fprintf(stderr, "plinth-loadgen: %s needs a non-negative number\n", a.c_str());
      return false;
    } else if (a == "--port") {
      cfg->port = static_cast<int>(d);
    } else if (a == "--rate") {
      cfg->rate = d;
    } else if (a == "--conns") {
      cfg->conns = static_cast<int>(d);
    } else if (a == "--duration") {
      cfg->duration_s = d;
    } else if (a == "--warmup") {
      cfg->warmup_s = d;
    } else if (a == "--keys") {
      cfg->keys = static_cast<int>(d);
    } else if (a == "--preload") {
      mode->preload = static_cast<int>(d);
    } else if (a == "--closed") {
      mode->closed_depth = static_cast<int>(d);
    } else if (a == "--server-pid") {
      cfg->server_pid = static_cast<int>(d);
    } else {
      std::fprintf(stderr, "plinth-loadgen: unknown option %s\n", a.c_str());
      return false;
    }
  }
  return cfg->conns > 0 && cfg->keys > 0 && cfg->duration_s > 0 &&
         (!mode->discard || mode->closed_depth > 0);
}

void PrintClosedJson(const FixedRateConfig& cfg, int depth, const ClosedLoopResult& r) {
  std::printf(
      "{\"closed_depth\": %d, \"conns\": %d, \"window_s\": %.4f, \"replies\": %llu, "
      "\"errors\": %llu, \"reply_rate\": %.1f, \"p50_us\": %.1f, \"p99_us\": %.1f, "
      "\"p999_us\": %.1f, \"max_us\": %.1f, \"server_cpu_pct\": %.3f}\n",
      depth, cfg.conns, r.window_s, static_cast<unsigned long long>(r.replies),
      static_cast<unsigned long long>(r.errors), r.reply_rate, r.p50_us, r.p99_us, r.p999_us,
      r.max_us, r.server_cpu_pct);
}

void PrintJson(const FixedRateConfig& cfg, const FixedRateResult& r) {
  std::printf(
      "{\"target_rate\": %.1f, \"conns\": %d, \"window_s\": %.4f, \"sent\": %llu, "
      "\"replies\": %llu, \"errors\": %llu, \"unanswered\": %llu, \"sent_rate\": %.1f, "
      "\"reply_rate\": %.1f, \"p50_us\": %.1f, \"p99_us\": %.1f, \"p999_us\": %.1f, "
      "\"max_us\": %.1f, \"mean_us\": %.1f, \"send_lag_p99_us\": %.1f, "
      "\"server_cpu_pct\": %.3f, \"held\": %s, \"note\": \"%s\"}\n",
      r.target_rate, cfg.conns, r.window_s, static_cast<unsigned long long>(r.sent),
      static_cast<unsigned long long>(r.replies), static_cast<unsigned long long>(r.errors),
      static_cast<unsigned long long>(r.unanswered), r.sent_rate, r.reply_rate, r.p50_us, r.p99_us,
      r.p999_us, r.max_us, r.mean_us, r.send_lag_p99_us, r.server_cpu_pct,
      r.held ? "true" : "false", r.note.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  FixedRateConfig cfg;
  Mode mode;
  if (!ParseArgs(argc, argv, &cfg, &mode)) {
    Usage(stderr);
    return 2;
  }
  if (mode.self_test) {
    int failures = plinth::loadgen::ReplyScannerSelfTest();
    std::printf("reply scanner self-test: %s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
  }
  std::string err;
  if (mode.preload >= 0 && cfg.rdma) {
    std::fprintf(stderr, "plinth-loadgen: --preload speaks TCP; preload first without --rdma\n");
    return 2;
  }
  if (mode.preload >= 0) {
    int fd = plinth::loadgen::Connect(cfg.host, cfg.port, &err);
    bool ok = fd >= 0 && plinth::loadgen::Preload(fd, cfg.keys, mode.preload, &err);
    if (fd >= 0) close(fd);
    if (!ok) {
      std::fprintf(stderr, "plinth-loadgen: preload: %s\n", err.c_str());
      return 1;
    }
  }
  if (mode.closed_depth > 0) {
    ClosedLoopResult result;
    if (!plinth::loadgen::RunClosedLoop(cfg, mode.closed_depth, mode.discard, &result, &err)) {
      std::fprintf(stderr, "plinth-loadgen: %s\n", err.c_str());
      return 1;
    }
    PrintClosedJson(cfg, mode.closed_depth, result);
    return 0;
  }
  FixedRateResult result;
  if (!plinth::loadgen::RunFixedRate(cfg, &result, &err)) {
    std::fprintf(stderr, "plinth-loadgen: %s\n", err.c_str());
    return 1;
  }
  PrintJson(cfg, result);
  return 0;
}
