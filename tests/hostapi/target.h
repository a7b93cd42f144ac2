// The two hosts the host-API suite runs every case against: the fake host of the SDK with the
// built plugins dlopen'ed into it, and the real plinth-server spoken to over a socket. Both load
// the default command plugins and the probe plugin (probe_plugin.c). Test thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "resp_reply.h"

namespace plinth::testing {
class TestServer;
class RespConn;
}  // namespace plinth::testing

namespace plinth::hostapi {

// What a host printed when it refused a plugin: error is the "plugin <path>: <stage>: <reason>"
// message ("" when every plugin loaded) and log every line it logged.
struct LoadOutcome {
  std::string error;
  std::string log;
};

class Target {
 public:
  virtual ~Target() = default;

  // Runs argv as the target's one client would and returns the reply as a RESP2 client reads
  // it. A reply the target could not observe is an error reply starting "ERR target:".
  virtual Reply Call(const std::vector<std::string>& argv) = 0;
  // Every line logged so far (host and plugins), oldest first.
  virtual std::vector<std::string> LogLines() const = 0;
  // Lets ms milliseconds pass for expiry: the fake host's clock moves, the server is waited for.
  virtual void AdvanceMs(int64_t ms) = 0;

  // True when some logged line contains text.
  bool LogContains(std::string_view text) const;
  // True when one logged line contains both a and b.
  bool LogLineContains(std::string_view a, std::string_view b) const;
};

// A FakeHost that loaded strings, keys, server, connection and resp from the plugin build
// directory and then the probe, each by dlopen and its entry symbol. Throws std::runtime_error
// when one does not load.
class FakeTarget : public Target {
 public:
  FakeTarget();
  ~FakeTarget() override;

  Reply Call(const std::vector<std::string>& argv) override;
  std::vector<std::string> LogLines() const override;
  void AdvanceMs(int64_t ms) override;

  // Loads paths in order into a fresh fake host; stops at the first refusal.
  static LoadOutcome Load(const std::vector<std::string>& paths);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// plinth-server started on a free port with its default plugins and --plugin <probe.so>, and
// one client connection to it. Throws std::runtime_error when it does not start.
class ServerTarget : public Target {
 public:
  ServerTarget();
  ~ServerTarget() override;

  Reply Call(const std::vector<std::string>& argv) override;
  std::vector<std::string> LogLines() const override;
  void AdvanceMs(int64_t ms) override;

  // Runs plinth-server --no-default-plugins with --plugin for each of paths, to its exit.
  static LoadOutcome Load(const std::vector<std::string>& paths);

 private:
  std::unique_ptr<testing::TestServer> server_;
  std::unique_ptr<testing::RespConn> conn_;
};

// Build paths of the probe plugin, a default plugin by name, and an ABI fixture
// (tests/abi/fixtures, "wrong_major" -> abi_wrong_major.so).
std::string ProbePath();
std::string PluginPath(std::string_view name);
std::string FixturePath(std::string_view name);

}  // namespace plinth::hostapi
