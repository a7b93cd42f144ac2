// Leveled, timestamped log lines to stderr or the configured logfile. Any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "host/core/env.h"

namespace plinth::host {

// Writes one line "pid:M dd Mon yyyy hh:mm:ss.mmm <mark> text". Thread-safe.
void LogLine(LogLevel level, std::string_view text);

// Sets the lowest level written. Any thread.
void SetLogLevel(LogLevel level);

// Sends lines to path (appending), or to stderr when path is empty. Returns false with errno
// set when the file cannot be opened; logging then stays where it was.
bool SetLogFile(const std::string& path);

// The LogSink port: plugins' lines prefixed "<plugin>: ", all through LogLine. Any thread.
class ShellLog final : public LogSink {
 public:
  void Log(LogLevel level, std::string_view plugin, std::string_view text) override;
};

}  // namespace plinth::host
