// loop_post from many threads: every task runs exactly once on the main loop thread, and none
// after shutdown stops accepting them. Built under TSan in CI (label "threaded").
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "host/core/api.h"
#include "host/shell/server.h"

namespace {

struct Tally {
  std::thread::id main_id;
  int ran = 0;  // touched only on the main thread
  bool off_main = false;
};

void Task(void* arg) {
  auto* t = static_cast<Tally*>(arg);
  if (std::this_thread::get_id() != t->main_id) t->off_main = true;
  ++t->ran;
}

}  // namespace

TEST_CASE("host: tasks posted from several threads all run once on the main loop") {
  using namespace plinth::host;
  Shell shell;
  plinth_plugin self;
  self.core = &shell.core;
  const plinth_host_api_t* api = HostApi();
  Tally tally;
  tally.main_id = std::this_thread::get_id();
  constexpr int kThreads = 4, kEach = 2000;
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      for (int j = 0; j < kEach; ++j)
        if (api->loop_post(&self, Task, &tally) != PLINTH_OK) refused++;
    });
  while (tally.ran + refused.load() < kThreads * kEach) uv_run(shell.loop, UV_RUN_ONCE);
  for (auto& t : threads) t.join();
  CHECK(refused.load() == 0);
  CHECK(tally.ran == kThreads * kEach);
  CHECK_FALSE(tally.off_main);

  shell.Stop();  // stops taking tasks
  CHECK(api->loop_post(&self, Task, &tally) == PLINTH_ERR);
  uv_run(shell.loop, UV_RUN_DEFAULT);  // lets the closed handles finish
}
