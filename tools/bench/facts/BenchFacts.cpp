//===- BenchFacts.cpp - Benchmark of the project facts' merge and resolve -===//
//
// Generates the facts of N translation units with the shape a real project
// gives them (each TU a few dozen sources; headers' sources shared by the TUs
// that include them; definitions, belief tests, constructors), writes each
// TU's facts as JSON text and parses it back (as a merge from shard or index
// files would), merges them in TU order, and resolves M candidates against
// the merged facts, as the scanner does after its last TU; then writes the
// merged facts as a facts file and reads them back (`index`, `FactsFile`).
// Prints the median of each phase over --runs.
//
// Uses only checker/facts/ProjectFacts.cpp and LLVM's Support library: no
// Clang.
//
//===----------------------------------------------------------------------===//

#include "ProjectFacts.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace wrapguard;

namespace {

cl::OptionCategory Category("wrapguard-bench-facts options");
cl::opt<unsigned> NumTUs("tus", cl::desc("Translation units"), cl::init(10000),
                         cl::cat(Category));
cl::opt<unsigned> NumCandidates("candidates", cl::desc("Candidates resolved"),
                                cl::init(10000), cl::cat(Category));
cl::opt<unsigned> Runs("runs", cl::desc("Runs; the medians are reported"),
                       cl::init(5), cl::cat(Category));
cl::opt<unsigned> HeadersPerTU("headers-per-tu",
                               cl::desc("Project headers each TU includes"),
                               cl::init(3), cl::cat(Category));
cl::opt<unsigned> Seed("seed", cl::desc("Generator seed"), cl::init(7),
                       cl::cat(Category));
cl::opt<bool> JsonOut("json", cl::desc("Print the results as one JSON object"),
                      cl::cat(Category));

// Per header: inline functions returning a callable, and one class with
// callable fields and two constructors defined inline.
constexpr unsigned FunctionsPerHeader = 4;
constexpr unsigned FieldsPerHeader = 3;
// Per TU: functions defined here, functions of other TUs called here (seen as
// declarations), and callable parameters of the functions defined here.
constexpr unsigned OwnFunctions = 6;
constexpr unsigned ForeignFunctions = 4;
constexpr unsigned OwnParameters = 6;

/// A deterministic generator (the same facts on every run and machine).
class Gen {
public:
  explicit Gen(unsigned Seed) : Engine(Seed) {}
  unsigned below(unsigned N) {
    return std::uniform_int_distribution<unsigned>(0, N - 1)(Engine);
  }
  bool chance(double P) {
    return std::uniform_real_distribution<double>(0, 1)(Engine) < P;
  }

private:
  std::mt19937 Engine;
};

std::string moduleOf(unsigned TU) { return formatv("mod{0}", TU % 97).str(); }

std::string tuFile(unsigned TU) {
  return formatv("/home/ci/src/trainer/{0}/unit_{1}.cpp", moduleOf(TU), TU)
      .str();
}

std::string headerFile(unsigned H) {
  return formatv("/home/ci/src/trainer/include/trainer/{0}/hooks_{1}.h",
                 moduleOf(H), H)
      .str();
}

// USR-shaped keys and qualified names, as clang spells them.
std::string functionUSR(unsigned TU, unsigned K) {
  return formatv("c:@N@trainer@N@{0}@F@select_wrapper_{1}_{2}#&1$@N@trainer@S@"
                 "Config#",
                 moduleOf(TU), TU, K)
      .str();
}
std::string functionName(unsigned TU, unsigned K) {
  // One function in eight says "policy", so the name heuristic has work.
  return formatv("trainer::{0}::{1}_{2}_{3}", moduleOf(TU),
                 K % 8 == 0 ? "wrap_policy" : "select_wrapper", TU, K)
      .str();
}
std::string headerFunctionUSR(unsigned H, unsigned K) {
  return formatv("c:@N@trainer@N@{0}@F@make_hook_{1}_{2}#&1$@N@trainer@S@"
                 "Options#",
                 moduleOf(H), H, K)
      .str();
}
std::string classUSR(unsigned H) {
  return formatv("c:@N@trainer@N@{0}@S@Hooks{1}", moduleOf(H), H).str();
}

FactLoc loc(const std::string &File, unsigned Line, const std::string &Fn) {
  FactLoc L;
  L.File = File;
  L.Line = Line;
  L.Column = 5 + Line % 17;
  L.Offset = Line * 41 + L.Column;
  L.Function = Fn;
  return L;
}

Emptiness randomSummary(Gen &G) {
  unsigned R = G.below(100);
  if (R < 70)
    return Emptiness::NonEmpty;
  if (R < 90)
    return Emptiness::MayBeEmpty;
  if (R < 95)
    return Emptiness::AlwaysEmpty;
  return Emptiness::Unknown;
}

/// The facts of header \p H as one of its includers records them: every
/// includer sees the same inline definitions and constructors, and tests
/// some of their values itself.
void addHeaderFacts(ProjectFacts &Facts, unsigned H, const std::string &File,
                    const std::string &Caller, Gen &G) {
  std::string HFile = headerFile(H);
  // The definitions' summaries depend on the header only.
  Gen HG(H * 2654435761u + Seed);
  for (unsigned K = 0; K < FunctionsPerHeader; ++K) {
    std::string Name =
        formatv("trainer::{0}::make_hook_{1}_{2}", moduleOf(H), H, K).str();
    SourceFacts &S =
        Facts.get("f:" + headerFunctionUSR(H, K), SourceKind::Function, Name);
    S.Definition = randomSummary(HG);
    if (mayBeEmpty(*S.Definition))
      S.EmptyReturn = loc(HFile, 20 + K * 12, Name);
    if (G.chance(0.2)) {
      ++S.Tested;
      S.TestedAt = loc(File, 100 + K, Caller);
    }
  }
  for (unsigned K = 0; K < FieldsPerHeader; ++K) {
    std::string Name =
        formatv("trainer::{0}::Hooks{1}::after_step_{2}", moduleOf(H), H, K)
            .str();
    SourceFacts &S =
        Facts.get(formatv("m:{0}@FI@after_step_{1}", classUSR(H), K).str(),
                  SourceKind::Field, Name);
    S.Owner = "c:" + classUSR(H);
    S.Index = static_cast<int>(K);
    bool LeavesEmpty = HG.chance(0.15);
    for (unsigned C = 0; C < 2; ++C) {
      CtorFact Ctor;
      Ctor.Name = C == 0 ? formatv("Hooks{0}()", H).str()
                         : formatv("Hooks{0}(int, int)", H).str();
      Ctor.SetsField = !(LeavesEmpty && C == 1);
      // Version 2: some constructors set it from a parameter, some under a
      // condition kept in a member.
      if (Ctor.SetsField && C == 1 && K == 0)
        Ctor.FromParameter = 1;
      if (Ctor.SetsField && C == 1 && K == 1)
        Ctor.Condition = formatv("m:{0}@FI@enabled", classUSR(H)).str();
      Ctor.Loc = loc(HFile, 80 + C * 5, "");
      S.Constructors[formatv("{0}@F@Hooks{1}#{2}", classUSR(H), H,
                             C == 0 ? "" : "I#I#")
                         .str()] = Ctor;
    }
    if (HG.chance(0.1))
      S.EmptiedAt = loc(HFile, 120 + K, Name + "_reset");
    if (G.chance(0.15)) {
      ++S.Tested;
      S.TestedAt = loc(File, 140 + K, Caller);
    }
  }
  // Version 2: about half the includers construct the class, with one of
  // its two constructors and a set, empty or forwarded callable argument.
  if (G.chance(0.5)) {
    std::string ClassKey = "c:" + classUSR(H);
    SourceFacts &Class =
        Facts.get(ClassKey, SourceKind::Class, formatv("Hooks{0}", H).str());
    ConstructionFact K;
    bool TwoArgs = G.chance(0.5);
    K.Ctor =
        formatv("{0}@F@Hooks{1}#{2}", classUSR(H), H, TwoArgs ? "I#I#" : "")
            .str();
    K.CtorName = TwoArgs ? formatv("Hooks{0}(int, int)", H).str()
                         : formatv("Hooks{0}()", H).str();
    if (TwoArgs) {
      unsigned R = G.below(10);
      K.Args = {ValueState::of(ValueState::NotCallable),
                R < 7   ? ValueState::of(ValueState::Set)
                : R < 9 ? ValueState::of(ValueState::Empty)
                        : ValueState{ValueState::From,
                                     {formatv("p:{0}#0", classUSR(H)).str()}}};
    }
    K.Count = 1;
    K.At = loc(File, 60, Caller);
    Class.Constructions[K.signature()] = std::move(K);
  }
}

/// The facts of what TU \p TU defines and calls: its own functions, those of
/// other TUs it calls (tests and untested calls only), and the callable
/// parameters of its functions.
void addOwnFacts(ProjectFacts &Facts, unsigned TU, const std::string &File,
                 const std::string &Caller, Gen &G) {
  for (unsigned K = 0; K < OwnFunctions; ++K) {
    SourceFacts &S = Facts.get("f:" + functionUSR(TU, K), SourceKind::Function,
                               functionName(TU, K));
    S.Definition = randomSummary(G);
    if (mayBeEmpty(*S.Definition))
      S.EmptyReturn = loc(File, 30 + K * 15, functionName(TU, K));
  }
  for (unsigned K = 0; K < ForeignFunctions; ++K) {
    unsigned Other = G.below(NumTUs);
    unsigned OK = G.below(OwnFunctions);
    SourceFacts &S = Facts.get("f:" + functionUSR(Other, OK),
                               SourceKind::Function, functionName(Other, OK));
    if (G.chance(0.3)) {
      S.Tested += 1 + G.below(2);
      S.TestedAt = loc(File, 200 + K * 9, Caller);
    } else {
      S.Untested += 1;
    }
    // Version 2: the call passes a callable to the function's parameter.
    SourceFacts &P = Facts.get(formatv("p:{0}#0", functionUSR(Other, OK)).str(),
                               SourceKind::Parameter, "on_step");
    P.Owner = functionName(Other, OK);
    unsigned R = G.below(20);
    P.Args.add(R < 16   ? ValueState::of(ValueState::Set)
               : R < 17 ? ValueState::of(ValueState::Empty)
               : R < 19
                   ? ValueState{ValueState::From,
                                {formatv("p:{0}#0", functionUSR(TU, 0)).str()}}
                   : ValueState::of(ValueState::Unknown),
               loc(File, 220 + K * 9, Caller));
  }
  for (unsigned K = 0; K < OwnParameters; ++K) {
    std::string Key =
        formatv("p:{0}#{1}", functionUSR(TU, K % OwnFunctions), K / 3).str();
    SourceFacts &S =
        Facts.get(Key, SourceKind::Parameter, formatv("on_step_{0}", K).str());
    if (G.chance(0.3)) {
      ++S.Tested;
      S.TestedAt = loc(File, 260 + K * 7, Caller);
    }
    S.Untested += G.below(3);
  }
}

/// The facts one TU records.
ProjectFacts generateTU(unsigned TU, unsigned NumHeaders, Gen &G) {
  ProjectFacts Facts;
  std::string File = tuFile(TU);
  std::string Caller = formatv("trainer::{0}::run_{1}", moduleOf(TU), TU).str();
  for (unsigned I = 0; I < HeadersPerTU; ++I)
    addHeaderFacts(Facts, (TU * 31 + I * 7919) % NumHeaders, File, Caller, G);
  addOwnFacts(Facts, TU, File, Caller, G);
  return Facts;
}

/// Candidates over keys the project has, plus some no TU knows (a function
/// defined outside the scanned files).
std::vector<Candidate> generateCandidates(unsigned NumHeaders, Gen &G) {
  std::vector<Candidate> Out;
  Out.reserve(NumCandidates);
  for (unsigned I = 0; I < NumCandidates; ++I) {
    Candidate C;
    C.Name = formatv("fn{0}", I).str();
    C.PolicyNames = "policy";
    C.EmptyLocally = G.chance(0.1);
    unsigned NumKeys = 1 + (G.chance(0.2) ? 1 + G.below(2) : 0);
    for (unsigned K = 0; K < NumKeys; ++K) {
      unsigned R = G.below(100);
      unsigned TU = G.below(NumTUs);
      unsigned H = G.below(NumHeaders);
      if (R < 40)
        C.Keys.push_back("f:" + functionUSR(TU, G.below(OwnFunctions)));
      else if (R < 55)
        C.Keys.push_back("f:" + headerFunctionUSR(H, G.below(4)));
      else if (R < 75) {
        C.Keys.push_back(formatv("m:{0}@FI@after_step_{1}", classUSR(H),
                                 G.below(FieldsPerHeader))
                             .str());
        // Version 2: some calls are guarded by the class's flag.
        if (G.chance(0.3))
          C.Guards.push_back(formatv("m:{0}@FI@enabled", classUSR(H)).str());
      } else if (R < 95)
        C.Keys.push_back(formatv("p:{0}#{1}",
                                 functionUSR(TU, G.below(OwnFunctions)),
                                 G.below(2))
                             .str());
      else
        C.Keys.push_back(formatv("f:c:@N@external@F@lookup_{0}#*1C#", I).str());
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

/// The generated project: each TU's facts as the JSON text a file would
/// hold, and the candidates.
struct Inputs {
  unsigned NumHeaders = 1;
  std::vector<std::string> Texts;
  size_t Bytes = 0, PerTUSources = 0;
  std::vector<Candidate> Candidates;
};

Inputs generateInputs() {
  Inputs In;
  In.NumHeaders = std::max(1u, NumTUs / 10);
  Gen G(Seed);
  In.Texts.reserve(NumTUs);
  for (unsigned TU = 0; TU < NumTUs; ++TU) {
    ProjectFacts F = generateTU(TU, In.NumHeaders, G);
    In.PerTUSources += F.size();
    In.Texts.push_back(formatv("{0}", F.toJSON()).str());
    In.Bytes += In.Texts.back().size();
  }
  In.Candidates = generateCandidates(In.NumHeaders, G);
  return In;
}

/// Each phase's time in each run, and what the last run produced.
struct Timings {
  std::vector<double> Parse, ParseText, Merge, Resolve, Total, Write, Read;
  size_t Merged = 0, Reported = 0, MergedBytes = 0;
};

bool failed(Error Err) {
  errs() << "wrapguard-bench-facts: " << toString(std::move(Err)) << "\n";
  return false;
}

/// Parses the per-TU texts and merges them; false on a parse error.
bool parseAndMerge(const Inputs &In, Timings &T, ProjectFacts &All) {
  auto T0 = Clock::now();
  std::vector<ProjectFacts> PerTU;
  PerTU.reserve(NumTUs);
  double InText = 0; // Of the parse: JSON text to json::Value.
  for (const std::string &Text : In.Texts) {
    auto P0 = Clock::now();
    Expected<json::Value> V = json::parse(Text);
    InText += seconds(P0, Clock::now());
    if (!V)
      return failed(V.takeError());
    Expected<ProjectFacts> F = ProjectFacts::fromJSON(*V);
    if (!F)
      return failed(F.takeError());
    PerTU.push_back(std::move(*F));
  }
  auto T1 = Clock::now();
  // As the scanner does: each TU's facts are merged, then dropped.
  for (ProjectFacts &F : PerTU)
    All.merge(std::move(F));
  auto T2 = Clock::now();
  T.Parse.push_back(seconds(T0, T1));
  T.ParseText.push_back(InText);
  T.Merge.push_back(seconds(T1, T2));
  return true;
}

/// The merged facts as the facts file (what `index` writes, and what
/// FactsFile reads once per clang-tidy process): text, and back.
bool writeAndRead(const ProjectFacts &All, Timings &T) {
  auto W0 = Clock::now();
  std::string File = formatv("{0:2}", All.toJSON()).str();
  auto W1 = Clock::now();
  Expected<json::Value> V = json::parse(File);
  if (!V)
    return failed(V.takeError());
  Expected<ProjectFacts> Back = ProjectFacts::fromJSON(*V);
  if (!Back || Back->size() != All.size()) {
    errs() << "wrapguard-bench-facts: the facts file does not read back\n";
    if (!Back)
      consumeError(Back.takeError());
    return false;
  }
  auto W2 = Clock::now();
  T.Write.push_back(seconds(W0, W1));
  T.Read.push_back(seconds(W1, W2));
  T.MergedBytes = File.size();
  return true;
}

/// One run of every phase; false on an error.
bool timeRun(const Inputs &In, Timings &T) {
  auto T0 = Clock::now();
  ProjectFacts All;
  if (!parseAndMerge(In, T, All))
    return false;
  auto T2 = Clock::now();
  size_t Yes = 0;
  for (const Candidate &C : In.Candidates)
    Yes += resolve(All, C).Report;
  auto T3 = Clock::now();
  T.Resolve.push_back(seconds(T2, T3));
  T.Total.push_back(seconds(T0, T3));
  T.Merged = All.size();
  T.Reported = Yes;
  return writeAndRead(All, T);
}

void printJson(const Inputs &In, const Timings &T) {
  outs() << formatv(
      "{0:2}\n",
      json::Value(json::Object{
          {"tus", static_cast<int64_t>(NumTUs)},
          {"headers", static_cast<int64_t>(In.NumHeaders)},
          {"candidates", static_cast<int64_t>(NumCandidates)},
          {"runs", static_cast<int64_t>(Runs)},
          {"sources_per_tu", static_cast<double>(In.PerTUSources) / NumTUs},
          {"input_bytes", static_cast<int64_t>(In.Bytes)},
          {"merged_sources", static_cast<int64_t>(T.Merged)},
          {"merged_file_bytes", static_cast<int64_t>(T.MergedBytes)},
          {"reported", static_cast<int64_t>(T.Reported)},
          {"parse_s", median(T.Parse)},
          {"parse_json_text_s", median(T.ParseText)},
          {"merge_s", median(T.Merge)},
          {"resolve_s", median(T.Resolve)},
          {"total_s", median(T.Total)},
          {"facts_file_write_s", median(T.Write)},
          {"facts_file_read_s", median(T.Read)}}));
}

void printText(const Inputs &In, const Timings &T) {
  outs() << formatv("{0} TUs ({1:f1} sources each, {2} headers), {3:f1} MiB "
                    "of per-TU JSON; {4} sources merged ({5:f1} MiB as a "
                    "facts file); {6} candidates, {7} reported\n",
                    NumTUs, static_cast<double>(In.PerTUSources) / NumTUs,
                    In.NumHeaders, In.Bytes / 1048576.0, T.Merged,
                    T.MergedBytes / 1048576.0, NumCandidates, T.Reported);
  outs() << formatv("medians over {0} runs: parse {1:f3} s (of which JSON "
                    "text {2:f3} s), merge {3:f3} s, resolve {4:f3} s, total "
                    "{5:f3} s\n",
                    Runs, median(T.Parse), median(T.ParseText), median(T.Merge),
                    median(T.Resolve), median(T.Total));
  outs() << formatv("the merged facts as a facts file: write {0:f3} s, read "
                    "{1:f3} s\n",
                    median(T.Write), median(T.Read));
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "wrapguard-bench-facts: time parsing, merging and resolving the facts "
      "of a generated project\n");
  if (NumTUs == 0 || Runs == 0) {
    errs() << "wrapguard-bench-facts: --tus and --runs must be positive\n";
    return 2;
  }
  Inputs In = generateInputs();
  Timings T;
  for (unsigned Run = 0; Run < Runs; ++Run)
    if (!timeRun(In, T))
      return 2;
  if (JsonOut)
    printJson(In, T);
  else
    printText(In, T);
  return 0;
}
