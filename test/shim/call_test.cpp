//===- call_test.cpp - Unit tests of the null-safe call helpers -----------===//
//
// The helpers of call.h, standard library only, like the code the check's
// FixMode: shim produces.
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

ModulePtr wrap_in_new(ModulePtr m) {
  return std::make_shared<Module>(Module{m->id + 100});
}

const wrapguard::CallSiteSnapshot *
find_site(const std::vector<wrapguard::CallSiteSnapshot> &sites, int line) {
  for (const auto &s : sites)
    if (s.line == line)
      return &s;
  return nullptr;
}

std::string read_file(const std::string &path) {
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
  static_assert(
      std::is_same_v<decltype(wrapguard::call_or_identity(twice, x)), int>);
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
  const auto *a = find_site(sites, first_line);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->calls, 3u);
  EXPECT_EQ(a->empty_calls, 2u);
  EXPECT_NE(a->file.find("call_test.cpp"), std::string::npos);
  EXPECT_NE(a->function.find("TestBody"), std::string::npos);
  const auto *b = find_site(sites, second_line);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->calls, 1u);
  EXPECT_EQ(b->empty_calls, 1u);
}

TEST(CallHelpers, CountsAreThreadSafe) {
  wrapguard::reset_call_sites();
  std::function<int(int)> empty;
  std::atomic<long> sum{0};
  const int line = __LINE__ + 5;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i)
        sum += WRAPGUARD_CALL_OR_IDENTITY(empty, 1);
    });
  }
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(sum.load(), 20000);
  auto sites = wrapguard::call_sites();
  const auto *s = find_site(sites, line);
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
  EXPECT_NE(
      text.find("\"line\":" + std::to_string(line) +
                ",\"function\":\"TestBody\",\"calls\":1,\"empty_calls\":1"),
      std::string::npos)
      << text;
  std::remove(path.c_str());
}

// One call site in a function of its own, so a test can reach the same site
// (the same WRAPGUARD_SITE() static) before and after a reset.
int g_one_site_line = 0;
void call_at_one_site(const std::function<void()> &f) {
  g_one_site_line = __LINE__ + 1;
  WRAPGUARD_CALL_IF(f);
}

// Issue 10, defect 2: reset_call_sites() destroyed the CallSite objects that
// WRAPGUARD_SITE()'s function-local static still referred to, so the next
// call at that site wrote into freed memory (ASan: heap-use-after-free) and
// the registry no longer listed it.
TEST(CallHelpers, ResetZeroesSitesThatStayInUse) {
  std::function<void()> none;
  call_at_one_site(none);
  call_at_one_site(none);
  wrapguard::reset_call_sites();
  EXPECT_EQ(find_site(wrapguard::call_sites(), g_one_site_line), nullptr)
      << "a site with no calls since the reset is not listed";
  call_at_one_site(none);
  auto sites = wrapguard::call_sites();
  const auto *s = find_site(sites, g_one_site_line);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->calls, 1u);
  EXPECT_EQ(s->empty_calls, 1u);
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
  std::string cmd =
      "WRAPGUARD_TRACE='" + path + "' '" + exe +
      "' --gtest_filter=CallHelpers.SitesForChildTrace >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string text = read_file(path);
  EXPECT_NE(
      text.find("\"function\":\"TestBody\",\"calls\":4,\"empty_calls\":4"),
      std::string::npos)
      << text;
  std::remove(path.c_str());
}

// Issue 10, item 8: JSON strings are escaped (quotes, backslashes, control
// characters) and stay valid UTF-8 whatever the bytes of a file name are.
// Issue 16: nlohmann/json writes them now; dump_json is the one place the
// shim turns JSON into text.
TEST(CallHelpers, DumpJsonEscapesAndKeepsUtf8Valid) {
  const auto dump = [](const std::string &s) {
    return wrapguard::detail::dump_json(wrapguard::json(s));
  };
  const std::string fffd = "\xef\xbf\xbd"; // U+FFFD in UTF-8
  EXPECT_EQ(dump("plain.cpp"), "\"plain.cpp\"");
  EXPECT_EQ(dump("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(dump("t\tn\nr\r\x01\x1f\x7f"),
            "\"t\\tn\\nr\\r\\u0001\\u001f\x7f\"");
  EXPECT_EQ(
      dump("\xc3\xbcn\xc3\xaf \xe2\x82\xac \xf0\x9f\x98\x80"),
      "\"\xc3\xbcn\xc3\xaf \xe2\x82\xac \xf0\x9f\x98\x80\""); // ünï €, an emoji
  EXPECT_EQ(dump("latin1-\xe9.cpp"), "\"latin1-" + fffd + ".cpp\"");
  EXPECT_EQ(dump("\xc0\xaf"), "\"" + fffd + fffd + "\""); // overlong '/'
  EXPECT_EQ(dump("\xed\xa0\x80"),
            "\"" + fffd + fffd + fffd + "\"");     // a surrogate
  EXPECT_EQ(dump("\xe2\x82"), "\"" + fffd + "\""); // cut short
  EXPECT_EQ(dump(std::string("nul\0", 4)), "\"nul\\u0000\"");
  // Objects keep the order their fields were added in.
  EXPECT_EQ(wrapguard::detail::dump_json({{"b", 1}, {"a", 2.5}}),
            "{\"b\":1,\"a\":2.5}");
}

// A strict UTF-8 check, written apart from the escaper it checks.
bool is_valid_utf8(const std::string &s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80         ? 1
            : (c >> 5) == 6  ? 2
            : (c >> 4) == 14 ? 3
            : (c >> 3) == 30 ? 4
                             : 0;
    if (n == 0 || i + n > s.size())
      return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (int k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b >> 6) != 2)
        return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

void call_at_odd_site(const std::function<void()> &f);

TEST(CallHelpers, TraceEscapesFileAndFunctionNames) {
  wrapguard::reset_call_sites();
  std::function<void()> none;
  call_at_odd_site(none);
  wrapguard::CallSite &raw = wrapguard::detail::SiteRegistry::instance().site(
      "tab\there\x01 latin1-\xe9.cpp", 7, "f\"n");
  raw.calls.fetch_add(1);
  std::string path = ::testing::TempDir() + "wrapguard-trace-odd-" +
                     std::to_string(getpid()) + ".json";
  ASSERT_TRUE(wrapguard::write_trace(path));
  std::string text = read_file(path);
  std::remove(path.c_str());
  EXPECT_NE(
      text.find("{\"file\":\"odd \\\"quoted\\\" back\\\\slash "
                "\xc3\xbcn\xc3\xaf.cpp\","
                "\"line\":9002,\"function\":\"call_at_odd_site\",\"calls\":1"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("{\"file\":\"tab\\there\\u0001 latin1-\xef\xbf\xbd.cpp\","
                      "\"line\":7,\"function\":\"f\\\"n\",\"calls\":1"),
            std::string::npos)
      << text;
  EXPECT_TRUE(is_valid_utf8(text)) << text;
}

// Also run in a child process by test/shim/verify_cli.py (WRAPGUARD_TRACE
// set), which joins the trace with flagged-site lists that name the odd file.
// On its own it checks what that trace is made of: the site's file, line and
// function as the registry holds them.
TEST(CallHelpers, OddFileNameSiteForChildTrace) {
  wrapguard::reset_call_sites();
  std::function<void()> none;
  call_at_odd_site(none);
  const auto sites = wrapguard::call_sites();
  const auto *s = find_site(sites, 9002);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->file, "odd \"quoted\" back\\slash \xc3\xbcn\xc3\xaf.cpp");
  EXPECT_EQ(s->function, "call_at_odd_site");
  EXPECT_EQ(s->calls, 1u);
  EXPECT_EQ(s->empty_calls, 1u);
}

} // namespace

// Last in the file: from here on __FILE__ is a name with a quote, a backslash
// and non-ASCII letters, as a real path may have.
#line 9000 "odd \"quoted\" back\\slash ünï.cpp"
namespace {
void call_at_odd_site(const std::function<void()> &f) {
  WRAPGUARD_CALL_IF(f); // line 9002
}
} // namespace
