// Log sink shared by the host and plugins (through log_write). Serialised by a mutex so lines
// from IO threads or plugin threads never interleave.
#include "host/shell/log.h"

#include <sys/time.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace plinth::host {
namespace {

std::mutex g_mu;
FILE* g_out = nullptr;  // nullptr: stderr
LogLevel g_level = LogLevel::kNotice;

}  // namespace

void SetLogLevel(LogLevel level) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_level = level;
}

bool SetLogFile(const std::string& path) {
  FILE* f = nullptr;
  if (!path.empty()) {
    f = std::fopen(path.c_str(), "a");
    if (!f) return false;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_out) std::fclose(g_out);
  g_out = f;
  return true;
}

void LogLine(LogLevel level, std::string_view text) {
  static constexpr char kMarks[] = {'.', '-', '*', '#'};
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  struct tm tm;
  localtime_r(&tv.tv_sec, &tm);
  char stamp[64];
  size_t n = std::strftime(stamp, sizeof stamp, "%d %b %Y %H:%M:%S", &tm);
  std::snprintf(stamp + n, sizeof stamp - n, ".%03d", static_cast<int>(tv.tv_usec / 1000));
  std::lock_guard<std::mutex> lock(g_mu);
  if (level < g_level) return;
  FILE* f = g_out ? g_out : stderr;
  std::fprintf(f, "%d:M %s %c %.*s\n", static_cast<int>(getpid()), stamp,
               kMarks[static_cast<uint32_t>(level) & 3], static_cast<int>(text.size()),
               text.data());
  std::fflush(f);
}

void ShellLog::Log(LogLevel level, std::string_view plugin, std::string_view text) {
  if (plugin.empty()) {
    LogLine(level, text);
    return;
  }
  std::string line(plugin);
  line += ": ";
  line += text;
  LogLine(level, line);
}

}  // namespace plinth::host
