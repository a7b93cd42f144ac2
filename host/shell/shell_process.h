// The Process port of the shell: SHUTDOWN and server_stopping, CONFIG REWRITE, the shell's INFO
// fields (introspection.cc), and serving the other clients while a command runs long
// (call_yield, busy.cc), with the stop that waits for that command. Main thread only.
#pragma once

#include <string>

#include "host/core/env.h"

namespace plinth::host {

class Shell;

class ShellProcess final : public Process {
 public:
  explicit ShellProcess(Shell& shell) : shell_(shell) {}

  // Whether a busy command is being served around (ServeWhileBusy) or a stop waits for it.
  bool Busy() const { return serving_busy_ || stop_after_busy_; }
  // Called by Shell::Stop: while a busy command runs, schedules the stop for once it has
  // returned and returns true; returns false when the stop may go on now.
  bool DeferStop();

  void RequestShutdown() override;
  bool Stopping() override;
  void ServeWhileBusy(uint64_t caller) override;  // busy.cc
  bool RewriteConfig(const std::string& path, std::string* err) override;
  void InfoFields(std::string_view section, std::string* out) override;  // introspection.cc

 private:
  Shell& shell_;
  bool serving_busy_ = false;     // in ServeWhileBusy: a command is still running
  bool stop_after_busy_ = false;  // Stop was asked for meanwhile: it runs once that returns
};

}  // namespace plinth::host
