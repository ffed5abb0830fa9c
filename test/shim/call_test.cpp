// The null-safe call helpers: standard library only, like the code the
// check's FixMode: shim produces.
#include <wrapguard/call.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Module {
  int id;
};
using ModulePtr = std::shared_ptr<Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;

ModulePtr wrap_in_new(ModulePtr m) { return std::make_shared<Module>(Module{m->id + 100}); }

const wrapguard::CallSiteSnapshot* find_site(
    const std::vector<wrapguard::CallSiteSnapshot>& sites, int line) {
  for (const auto& s : sites)
    if (s.line == line)
      return &s;
  return nullptr;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(CallHelpers, CallOrIdentityReturnsArgumentWhenEmpty) {
  WrapFn empty;
  ModulePtr m = std::make_shared<Module>(Module{1});
  EXPECT_EQ(wrapguard::call_or_identity(empty, m), m);
  WrapFn wrap = wrap_in_new;
  EXPECT_EQ(wrapguard::call_or_identity(wrap, m)->id, 101);
}

TEST(CallHelpers, FunctionPointers) {
  ModulePtr (*fp)(ModulePtr) = nullptr;
  ModulePtr m = std::make_shared<Module>(Module{2});
  EXPECT_EQ(wrapguard::call_or_identity(fp, m), m);
  fp = &wrap_in_new;
  EXPECT_EQ(wrapguard::call_or_identity(fp, m)->id, 102);
}

TEST(CallHelpers, ResultTypeIsDecayedArgumentType) {
  std::function<int(int)> twice = [](int v) { return 2 * v; };
  const int x = 4;
  static_assert(std::is_same_v<decltype(wrapguard::call_or_identity(twice, x)), int>);
  EXPECT_EQ(wrapguard::call_or_identity(twice, x), 8);
}

TEST(CallHelpers, CallIfReportsWhetherItCalled) {
  int hits = 0;
  std::function<void()> none;
  std::function<void()> bump = [&] { ++hits; };
  EXPECT_FALSE(wrapguard::call_if(none));
  EXPECT_TRUE(wrapguard::call_if(bump));
  auto add = [&](int a, int b) { hits += a + b; }; // no bool conversion
  EXPECT_TRUE(wrapguard::call_if(add, 2, 3));
  EXPECT_EQ(hits, 6);
}

TEST(CallHelpers, MacrosCountCallsAndEmptyCallsPerSite) {
  wrapguard::reset_call_sites();
  ModulePtr m = std::make_shared<Module>(Module{3});
  WrapFn policy;
  int first_line = 0, second_line = 0;
  for (int i = 0; i < 3; ++i) {
    if (i == 2)
      policy = wrap_in_new;
    first_line = __LINE__ + 1;
    ModulePtr out = WRAPGUARD_CALL_OR_IDENTITY(policy, m);
    EXPECT_EQ(out->id, i == 2 ? 103 : 3);
  }
  std::function<void()> hook;
  second_line = __LINE__ + 1;
  bool called = WRAPGUARD_CALL_IF(hook);
  EXPECT_FALSE(called);

  auto sites = wrapguard::call_sites();
  ASSERT_EQ(sites.size(), 2u);
  const auto* a = find_site(sites, first_line);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->calls, 3u);
  EXPECT_EQ(a->empty_calls, 2u);
  EXPECT_NE(a->file.find("call_test.cpp"), std::string::npos);
  EXPECT_NE(a->function.find("TestBody"), std::string::npos);
  const auto* b = find_site(sites, second_line);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->calls, 1u);
  EXPECT_EQ(b->empty_calls, 1u);
}

TEST(CallHelpers, CountsAreThreadSafe) {
  wrapguard::reset_call_sites();
  std::function<int(int)> empty;
  std::atomic<long> sum{0};
  const int line = __LINE__ + 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) sum += WRAPGUARD_CALL_OR_IDENTITY(empty, 1);
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(sum.load(), 20000);
  auto sites = wrapguard::call_sites();
  const auto* s = find_site(sites, line);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->calls, 20000u);
  EXPECT_EQ(s->empty_calls, 20000u);
}

TEST(CallHelpers, WriteTraceProducesJson) {
  wrapguard::reset_call_sites();
  std::function<void(int)> none;
  const int line = __LINE__ + 1;
  WRAPGUARD_CALL_IF(none, 7);
  std::string path = ::testing::TempDir() + "wrapguard-trace-now-" +
                     std::to_string(getpid()) + ".json";
  ASSERT_TRUE(wrapguard::write_trace(path));
  std::string text = read_file(path);
  EXPECT_NE(text.find("{\"sites\":["), std::string::npos) << text;
  EXPECT_NE(text.find("\"line\":" + std::to_string(line) +
                      ",\"function\":\"TestBody\",\"calls\":1,\"empty_calls\":1"),
            std::string::npos)
      << text;
  std::remove(path.c_str());
}

// Run by TraceWrittenAtExit in a child process with WRAPGUARD_TRACE set; in
// the normal run it only exercises the macros.
TEST(CallHelpers, SitesForChildTrace) {
  WrapFn empty;
  ModulePtr m = std::make_shared<Module>(Module{5});
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(WRAPGUARD_CALL_OR_IDENTITY(empty, m), m); // line checked below
}

TEST(CallHelpers, TraceWrittenAtExit) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_GT(n, 0);
  exe[n] = '\0';
  std::string path = ::testing::TempDir() + "wrapguard-trace-exit-" +
                     std::to_string(getpid()) + ".json";
  std::remove(path.c_str());
  std::string cmd = "WRAPGUARD_TRACE='" + path + "' '" + exe +
                    "' --gtest_filter=CallHelpers.SitesForChildTrace >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string text = read_file(path);
  EXPECT_NE(text.find("\"function\":\"TestBody\",\"calls\":4,\"empty_calls\":4"),
            std::string::npos)
      << text;
  std::remove(path.c_str());
}

} // namespace
