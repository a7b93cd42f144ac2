// The one main() of every doctest test binary. CTest runs each case by name; a case that no
// filter matches (a name CMake split at a ';', say) must fail loudly instead of passing empty.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace {

int g_cases_run = 0;

struct CaseCounter : doctest::IReporter {
  explicit CaseCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++g_cases_run; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("case-counter", 1, CaseCounter);

}  // namespace

int main(int argc, char** argv) {
  // --plinth-io-threads=N: the servers the tests start run N IO threads, all of them always
  // active; --plinth-maxmemory=BYTES: they run under that maxmemory with allkeys-lru (CTest
  // runs the server suites once more each way). doctest ignores the flags.
  const std::pair<const char*, const char*> flags[] = {
      {"--plinth-io-threads=", "PLINTH_TEST_IO_THREADS"},
      {"--plinth-maxmemory=", "PLINTH_TEST_MAXMEMORY"}};
  for (int i = 1; i < argc; ++i)
    for (const auto& [flag, env] : flags)
      if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0)
        setenv(env, argv[i] + std::strlen(flag), 1);
  doctest::Context context(argc, argv);
  int rc = context.run();
  if (context.shouldExit()) return rc;  // --list-test-cases and friends
  if (rc == 0 && g_cases_run == 0) {
    std::fprintf(stderr, "no test case matched the filters: nothing was tested\n");
    return 1;
  }
  return rc;
}
