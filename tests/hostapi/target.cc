// FakeTarget and ServerTarget: one plugin set, two hosts.
#include "target.h"

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "test_server.h"

namespace plinth::hostapi {
namespace {

// Long enough for any reply of the suite, short enough that a reply that never comes (an
// aggregate left short) costs little.
constexpr int kReplyTimeoutMs = 2000;

// The command plugins a plugin author's test would load next to their own (the server loads
// tcp as well, which the fake host has no use for).
const char* const kFakePlugins[] = {"resp", "connection", "server", "strings", "keys"};

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Loads one plugin file into host the way the server does. Returns false with the loader's
// report in *error.
bool LoadInto(fakehost::FakeHost& host, const std::string& path, std::string* error) {
  if (host.LoadFile(path)) return true;
  *error = host.LoadError();
  return false;
}

}  // namespace

bool Target::LogContains(std::string_view text) const {
  for (const std::string& line : LogLines())
    if (line.find(text) != std::string::npos) return true;
  return false;
}

bool Target::LogLineContains(std::string_view a, std::string_view b) const {
  for (const std::string& line : LogLines())
    if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return true;
  return false;
}

// ---- FakeTarget ------------------------------------------------------------------------------

struct FakeTarget::State {
  std::unique_ptr<fakehost::FakeHost> host = std::make_unique<fakehost::FakeHost>();
};

FakeTarget::FakeTarget() : state_(std::make_unique<State>()) {
  std::vector<std::string> paths;
  for (const char* name : kFakePlugins) paths.push_back(PluginPath(name));
  paths.push_back(ProbePath());
  for (const std::string& path : paths) {
    std::string error;
    if (!LoadInto(*state_->host, path, &error)) throw std::runtime_error(error);
  }
}

FakeTarget::~FakeTarget() = default;

Reply FakeTarget::Call(const std::vector<std::string>& argv) {
  return AsResp2(state_->host->Call(argv));
}

std::vector<std::string> FakeTarget::LogLines() const {
  std::vector<std::string> lines;
  for (const fakehost::LogLine& l : state_->host->Logs())
    lines.push_back("[" + (l.plugin.empty() ? std::string("fakehost") : l.plugin) + "] " + l.text);
  return lines;
}

void FakeTarget::AdvanceMs(int64_t ms) { state_->host->AdvanceTimeMs(ms); }

LoadOutcome FakeTarget::Load(const std::vector<std::string>& paths) {
  State state;
  LoadOutcome out;
  for (const std::string& path : paths)
    if (!LoadInto(*state.host, path, &out.error)) break;
  for (const fakehost::LogLine& l : state.host->Logs()) out.log += l.text + "\n";
  return out;
}

// ---- ServerTarget ----------------------------------------------------------------------------

ServerTarget::ServerTarget()
    : server_(
          std::make_unique<testing::TestServer>(std::vector<std::string>{"--plugin", ProbePath()})),
      conn_(std::make_unique<testing::RespConn>(server_->port())) {}

ServerTarget::~ServerTarget() = default;

Reply ServerTarget::Call(const std::vector<std::string>& argv) {
  conn_->Send(testing::Multibulk(argv));
  std::string raw = conn_->Read(kReplyTimeoutMs);
  if (raw.empty())
    return TargetError("no complete reply within " + std::to_string(kReplyTimeoutMs) + " ms");
  return ParseResp(raw);
}

std::vector<std::string> ServerTarget::LogLines() const { return SplitLines(server_->Log()); }

void ServerTarget::AdvanceMs(int64_t ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

LoadOutcome ServerTarget::Load(const std::vector<std::string>& paths) {
  std::vector<std::string> args = {"--no-default-plugins"};
  for (const std::string& p : paths) {
    args.push_back("--plugin");
    args.push_back(p);
  }
  LoadOutcome out;
  testing::RunServerToExit(args, &out.log);
  for (const std::string& line : SplitLines(out.log)) {
    for (const std::string& p : paths) {
      size_t at = line.find("plugin " + p + ": ");
      if (at != std::string::npos && out.error.empty()) out.error = line.substr(at);
    }
  }
  return out;
}

// ---- paths -------------------------------------------------------------------------------

std::string ProbePath() { return PLINTH_HOSTAPI_PROBE; }
std::string PluginPath(std::string_view name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + std::string(name) + ".so";
}
std::string FixturePath(std::string_view name) {
  return std::string(PLINTH_HOSTAPI_FIXTURE_DIR) + "/abi_" + std::string(name) + ".so";
}

}  // namespace plinth::hostapi
