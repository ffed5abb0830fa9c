// Option parsing and defaults: the clang-tidy check and the scanner both
// rely on these, and the docs quote the defaults.

#include "PolicyCallAnalysis.h"
#include "gtest/gtest.h"

namespace wrapguard {
namespace {

TEST(AnalysisOptionsTest, ParsesEveryFixMode) {
  FixMode M = FixMode::None;
  ASSERT_TRUE(parseFixMode("guard", M));
  EXPECT_EQ(M, FixMode::Guard);
  ASSERT_TRUE(parseFixMode("none", M));
  EXPECT_EQ(M, FixMode::None);
  ASSERT_TRUE(parseFixMode("shim", M));
  EXPECT_EQ(M, FixMode::Shim);
}

TEST(AnalysisOptionsTest, RejectsUnknownFixModes) {
  FixMode M = FixMode::Guard;
  EXPECT_FALSE(parseFixMode("", M));
  EXPECT_FALSE(parseFixMode("Guard", M));
  EXPECT_FALSE(parseFixMode("guard ", M));
  EXPECT_FALSE(parseFixMode("shims", M));
  EXPECT_FALSE(parseFixMode("bogus", M));
}

TEST(AnalysisOptionsTest, FixModeNamesRoundTrip) {
  for (FixMode M : {FixMode::Guard, FixMode::None, FixMode::Shim}) {
    FixMode Back = M == FixMode::Guard ? FixMode::None : FixMode::Guard;
    ASSERT_TRUE(parseFixMode(fixModeName(M), Back)) << fixModeName(M).str();
    EXPECT_EQ(Back, M);
  }
  EXPECT_EQ(fixModeName(FixMode::Guard), "guard");
  EXPECT_EQ(fixModeName(FixMode::None), "none");
  EXPECT_EQ(fixModeName(FixMode::Shim), "shim");
}

TEST(AnalysisOptionsTest, DefaultsMatchTheDocumentation) {
  AnalysisOptions O;
  EXPECT_EQ(O.PolicyNames, "policy");
  EXPECT_TRUE(O.NullableCallableTypes.empty());
  EXPECT_FALSE(O.StrictMode);
  EXPECT_EQ(O.Fix, FixMode::Guard);
  EXPECT_EQ(O.ShimHeader, "wrapguard/call.h");
  EXPECT_EQ(O.MaxSolverIterations, 20000000);
  EXPECT_EQ(O.MaxBlockVisits, 50000);
}

} // namespace
} // namespace wrapguard
