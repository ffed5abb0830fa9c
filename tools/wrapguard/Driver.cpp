//===- Driver.cpp - wrapguard: CI scanner built on clang-tidy -------------===//
//
// wrapguard -p BUILD [options] [files...]
// wrapguard index -p BUILD -o FACTS.json [files...]
// wrapguard merge [-o OUT] a.sarif b.sarif ...
// wrapguard join --sites FLAGGED --trace TRACE [--format=text|json]
//
// Scans the translation units of a compilation database with the checks of
// the wrapguard plugin, linked in, through clang-tidy's own library: the
// same .clang-tidy discovery, NOLINT handling, header filter and fix
// export. This file owns `main`, the scan's command line (the scan's and
// `index`'s), turns clang-tidy's errors into a Report, and writes it;
// Scan.cpp runs the TUs. The other subcommands have files of their own
// (Subcommands.h).
//
//===----------------------------------------------------------------------===//

#include "Cache.h"
#include "CrashGuard.h"
#include "Report.h"
#include "Scan.h"
#include "ScanReport.h"
#include "SharedHeaders.h"
#include "Subcommands.h"
#include "TraversalScope.h"
#include "Wording.h"
#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include <deque>
#include <map>
#include <tuple>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

#ifndef WRAPGUARD_VERSION
#define WRAPGUARD_VERSION "0.0.0"
#endif
#ifndef WRAPGUARD_INFORMATION_URI
#define WRAPGUARD_INFORMATION_URI ""
#endif
#ifndef WRAPGUARD_RULE_HELP_URI
#define WRAPGUARD_RULE_HELP_URI ""
#endif

namespace {

cl::OptionCategory Category("wrapguard options");

// `index` is a scan that writes only the facts file, so it takes the scan's
// options; `merge` and `join` have their own (Subcommands.h).
cl::SubCommand IndexCommand("index",
                            "Scan and write only the project's facts (-o "
                            "FACTS.json); takes the scan's options");
cl::SubCommandGroup ScanCommands{&cl::SubCommand::getTopLevel(), &IndexCommand};

cl::opt<std::string>
    BuildPath("p",
              cl::desc("Build directory holding compile_commands.json, or the "
                       "database file itself"),
              cl::value_desc("build-path"), cl::sub(ScanCommands),
              cl::cat(Category));
cl::list<std::string>
    InputFiles(cl::Positional,
               cl::desc("[files...] (default: every file in the database)"),
               cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> Checks(
    "checks",
    cl::desc("Check filter, appended to the configuration's, as in clang-tidy"),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as in clang-tidy; replaces "
                    ".clang-tidy discovery"),
           cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string>
    ConfigFile("config-file",
               cl::desc("Read the configuration from this file instead of "
                        "discovering .clang-tidy files"),
               cl::value_desc("file"), cl::sub(ScanCommands),
               cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regex of headers to report findings from (default: the "
             "configuration's HeaderFilterRegex, else, with --source-root, "
             "every header under it outside the build folder, else none)"),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Regex of headers never to report findings from"),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Report findings in system headers too"),
                            cl::sub(ScanCommands), cl::cat(Category));
enum class Format { Text, Sarif, Json };
cl::opt<Format> OutputFormat(
    "format", cl::desc("Report format"), cl::init(Format::Text),
    cl::values(clEnumValN(Format::Text, "text",
                          "clang-style diagnostics on stdout (default)"),
               clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(Format::Json, "json",
                          "one JSON record per flagged site")),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string>
    Output("o",
           cl::desc("Write the sarif or json report to this file (default: "
                    "stdout); index: the facts file"),
           cl::value_desc("file"), cl::sub(ScanCommands), cl::cat(Category));
cl::alias OutputLong("output", cl::aliasopt(Output));
cl::opt<std::string>
    SourceRoot("source-root",
               cl::desc("Report paths relative to this directory (SARIF: under "
                        "%SRCROOT%); also anchors fingerprints, and reports "
                        "the findings in the headers under it when no header "
                        "filter is configured"),
               cl::value_desc("dir"), cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> InformationUri(
    "information-uri",
    cl::desc("Write this as the tool's informationUri in SARIF (default: "
             "the build's WRAPGUARD_INFORMATION_URI, else none)"),
    cl::value_desc("uri"), cl::init(WRAPGUARD_INFORMATION_URI),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> RuleHelpUri(
    "rule-help-uri",
    cl::desc("Write this as the helpUri of wrapguard-unchecked-policy-call in "
             "SARIF (default: the build's WRAPGUARD_RULE_HELP_URI, else none)"),
    cl::value_desc("uri"), cl::init(WRAPGUARD_RULE_HELP_URI),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> Baseline(
    "baseline",
    cl::desc("Report only findings whose fingerprint is not in this SARIF "
             "file"),
    cl::value_desc("old.sarif"), cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> Shard("shard",
                           cl::desc("Scan only shard K of N (1-based), e.g. "
                                    "--shard 2/4"),
                           cl::value_desc("K/N"), cl::sub(ScanCommands),
                           cl::cat(Category));
cl::opt<unsigned> Jobs("j",
                       cl::desc("TUs scanned at once (default: the number "
                                "of cores); -j N or -jN"),
                       cl::init(0), cl::Prefix, cl::sub(ScanCommands),
                       cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes in place"),
                  cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the fixes as YAML for clang-apply-replacements"),
    cl::value_desc("file"), cl::sub(ScanCommands), cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg",
                                cl::desc("Add an argument to each compile "
                                         "command"),
                                cl::sub(ScanCommands), cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Add an argument to the front of each compile command"),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> FactsOut(
    "facts-out",
    cl::desc("Also write the project's facts (which callables may be empty) "
             "to this file, for clang-tidy's and editors' FactsFile option"),
    cl::value_desc("file"), cl::sub(ScanCommands), cl::cat(Category));
cl::opt<bool> NoPreamble(
    "no-preamble",
    cl::desc("Parse every TU whole, without sharing a precompiled preamble "
             "between TUs that start with the same #include block"),
    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Reuse the results of TUs whose files, flags and configuration "
             "are unchanged since a scan with the same cache folder, and keep "
             "this scan's there, with the precompiled shared headers"),
    cl::value_desc("dir"), cl::sub(ScanCommands), cl::cat(Category));
// Testing only: the text a system header must reach for TUs to share a
// precompiled header of it (SharedHeaders.h); small test headers use less.
cl::opt<uint64_t>
    SharedHeaderBytes("shared-header-bytes", cl::Hidden,
                      cl::init(wrapguard::DefaultSharedHeaderBytes),
                      cl::sub(ScanCommands), cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say on stderr how each TU was parsed (its "
                               "preamble, or why none) and what it claimed"),
                      cl::sub(ScanCommands), cl::cat(Category));
// Testing only: the scan without its traversal scope (the whole AST, claims
// still apply), which must report what the scoped scan reports.
cl::opt<bool> NoTraversalScope("no-traversal-scope", cl::Hidden,
                               cl::sub(ScanCommands), cl::cat(Category));
// Testing only: crash inside the analysis of the function of this qualified
// name, to test that a crash loses that TU only.
cl::opt<std::string> DebugCrashIn("debug-crash-in", cl::Hidden,
                                  cl::sub(ScanCommands), cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                    cl::desc("No summary, no progress line and no budget "
                             "notes on stderr"),
                    cl::sub(ScanCommands), cl::cat(Category));
cl::opt<cl::boolOrDefault>
    UseColor("use-color",
             cl::desc("Colour text output (default: when stdout is a "
                      "terminal)"),
             cl::sub(ScanCommands), cl::cat(Category));

constexpr const char *Overview =
    "wrapguard: scan a build for calls through possibly empty callables.\n\n"
    "  wrapguard -p BUILD [options] [files...]\n"
    "  wrapguard merge [-o OUT] a.sarif b.sarif ...\n"
    "  wrapguard index -p BUILD -o FACTS.json [files...]\n"
    "  wrapguard join --sites FLAGGED --trace TRACE [--format=text|json]\n"
    "  wrapguard cache --prune DIR\n\n"
    "Exit status: 0 no findings, 1 findings, 2 the scan failed or was "
    "incomplete\n(bad arguments, unreadable database, a TU that does not "
    "parse or crashed, a missing file).\n";

int fail(const Twine &Message) {
  WithColor::error(errs(), "wrapguard") << Message << "\n";
  return 2;
}

raw_ostream &levelTag(raw_ostream &OS, StringRef Level, StringRef Prefix,
                      bool DisableColors) {
  if (Level == "error")
    return WithColor::error(OS, Prefix, DisableColors);
  if (Level == "note")
    return WithColor::note(OS, Prefix, DisableColors);
  return WithColor::warning(OS, Prefix, DisableColors);
}

/// The notifications on stderr; notes (functions skipped over budget) only
/// when \p ShowNotes.
void printNotifications(const wrapguard::Report &R, bool ShowNotes) {
  for (const wrapguard::ReportNotification &N : R.Notifications) {
    if (N.Level == "note" && !ShowNotes)
      continue;
    raw_ostream &OS = errs();
    if (!N.Path.empty() && N.Pos.Line) {
      OS << N.Path << ":" << N.Pos.Line << ":" << N.Pos.Column << ": ";
      levelTag(OS, N.Level, "", true) << N.Message << " [" << N.Id << "]\n";
    } else {
      levelTag(OS, N.Level, "wrapguard", false)
          << N.Message << " [" << N.Id << "]\n";
    }
  }
}

bool hasErrors(const wrapguard::Report &R) {
  return llvm::any_of(R.Notifications,
                      [](const wrapguard::ReportNotification &N) {
                        return N.Level == "error";
                      });
}

/// What the command line asks a scan (or `index`) to do, checked. Once
/// readRequest has filled it, it is the only source of truth: the steps
/// after it read this, never the option globals.
struct ScanRequest {
  bool IndexOnly = false;
  /// -p: the build folder or the database file; empty: found from the
  /// files, or the working directory.
  std::string BuildPath;
  /// The files given; empty: every file of the database.
  std::vector<std::string> InputFiles;
  wrapguard::PathOptions Paths;
  std::optional<wrapguard::ShardSpec> Shard;
  /// With --baseline: the fingerprints of the baseline (maybe none).
  std::optional<StringSet<>> BaselinePrints;
  wrapguard::ScanOptions Options;
  Format OutputFormat = Format::Text;
  std::string Output;   ///< The sarif or json report; empty: stdout.
  std::string FactsOut; ///< The facts file; empty: none.
  /// What SARIF says of the tool (version, its home, the rule's page).
  wrapguard::ToolInfo Tool;
  std::string ExportFixes; ///< --export-fixes; empty: none.
  bool Fix = false;        ///< --fix: apply the fixes in place.
  /// --quiet: no progress line, no summary, no notes on stderr.
  bool Quiet = false;
  /// The build folder (-p) when it lies inside the source root: its headers
  /// (generated ones) are not the project's own for the header default.
  std::string BuildDir;
  /// --cache-dir; Options.Cache points to it.
  std::unique_ptr<wrapguard::ResultCache> Cache;
};

std::unique_ptr<CompilationDatabase> loadDatabase(const ScanRequest &Req,
                                                  std::string &Error) {
  std::unique_ptr<CompilationDatabase> DB;
  if (!Req.BuildPath.empty()) {
    if (sys::fs::is_regular_file(Req.BuildPath))
      DB = JSONCompilationDatabase::loadFromFile(
          Req.BuildPath, Error, JSONCommandLineSyntax::AutoDetect);
    else
      DB = CompilationDatabase::loadFromDirectory(Req.BuildPath, Error);
  } else {
    SmallString<256> Dir;
    if (!Req.InputFiles.empty())
      Dir = sys::path::parent_path(
          wrapguard::absolutePath(Req.InputFiles.front(), ""));
    else
      sys::fs::current_path(Dir);
    DB = CompilationDatabase::autoDetectFromDirectory(Dir, Error);
  }
  if (!DB)
    return nullptr;
  // As clang-tidy does: files given on the command line that the database
  // lacks borrow the command of a similar file.
  return inferTargetAndDriverMode(inferMissingCompileCommands(std::move(DB)));
}

/// --config or --config-file, parsed, into \p Out. Returns an exit status
/// when the configuration cannot be used.
std::optional<int> readConfig(std::optional<ClangTidyOptions> &Out) {
  if (Config.empty() && ConfigFile.empty())
    return std::nullopt;
  std::unique_ptr<MemoryBuffer> Text;
  if (!ConfigFile.empty()) {
    auto Buffer = MemoryBuffer::getFile(ConfigFile);
    if (!Buffer)
      return fail("cannot read --config-file '" + ConfigFile +
                  "': " + Buffer.getError().message());
    Text = std::move(*Buffer);
  } else {
    Text = MemoryBuffer::getMemBufferCopy(Config, "--config");
  }
  auto Parsed = parseConfiguration(Text->getMemBufferRef());
  if (!Parsed)
    return fail("invalid configuration: " + Parsed.getError().message());
  Out = std::move(*Parsed);
  return std::nullopt;
}

/// clang-tidy's defaults with only wrapguard's checks, then each file's
/// .clang-tidy (or --config), then the command line.
std::optional<int> buildOptions(wrapguard::ScanOptions &Options) {
  Options.Defaults = ClangTidyOptions::getDefaults();
  Options.Defaults.Checks = "-*,wrapguard-*";
  // Left unset: the scan tells a file whose configuration names no header
  // filter from one that asks for none (ScanOptions::SourceRootHeaders).
  Options.Defaults.HeaderFilterRegex = std::nullopt;
  // The analyzer and compiler-warning checks come with libclangTidy; a
  // project's .clang-tidy may enable them for clang-tidy, but the scanner
  // reports only the checks it was built for (compiler errors still count,
  // as parse failures).
  Options.Overrides.Checks = (Checks.empty() ? "" : Checks + ",") +
                             "-clang-analyzer-*,-clang-diagnostic-*";
  if (HeaderFilter.getNumOccurrences())
    Options.Overrides.HeaderFilterRegex = HeaderFilter;
  // Code scanning expects every finding in the project's own files.
  Options.SourceRootHeaders = !SourceRoot.empty();
  if (ExcludeHeaderFilter.getNumOccurrences())
    Options.Overrides.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    Options.Overrides.SystemHeaders = SystemHeaders;
  if (!ExtraArgs.empty())
    Options.Overrides.ExtraArgs =
        std::vector<std::string>(ExtraArgs.begin(), ExtraArgs.end());
  if (!ExtraArgsBefore.empty())
    Options.Overrides.ExtraArgsBefore = std::vector<std::string>(
        ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  if (UseColor != cl::BOU_UNSET)
    Options.Overrides.UseColor = UseColor == cl::BOU_TRUE;
  if (std::optional<int> Status = readConfig(Options.Config))
    return Status;
  Options.Preambles = !NoPreamble;
  Options.TraversalScope = !NoTraversalScope;
  Options.Verbose = Verbose;
  Options.CrashIn = DebugCrashIn;
  // Logical cores, as `nproc` counts them: what CI runners advertise.
  Options.Jobs =
      Jobs ? Jobs
           : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  return std::nullopt;
}

/// The options that the request takes as given.
void copyPlainOptions(ScanRequest &Req) {
  Req.BuildPath = BuildPath;
  Req.InputFiles.assign(InputFiles.begin(), InputFiles.end());
  Req.OutputFormat = OutputFormat;
  Req.Output = Output;
  Req.FactsOut = FactsOut;
  Req.Tool.Version = WRAPGUARD_VERSION;
  Req.Tool.InformationUri = InformationUri;
  Req.Tool.RuleHelpUri = RuleHelpUri;
  Req.ExportFixes = ExportFixes;
  Req.Fix = Fix;
  Req.Quiet = Quiet;
}

/// Fills \p Req from the command line; an exit status on a usage error or
/// an unreadable baseline or configuration.
std::optional<int> readRequest(ScanRequest &Req) {
  if (!SourceRoot.empty()) {
    if (!sys::fs::is_directory(SourceRoot))
      return fail("--source-root '" + SourceRoot + "' is not a directory");
    Req.Paths.SourceRoot = wrapguard::reportPath(SourceRoot);
    while (Req.Paths.SourceRoot.size() > 1 &&
           sys::path::is_separator(Req.Paths.SourceRoot.back()))
      Req.Paths.SourceRoot.pop_back();
    if (!BuildPath.empty()) {
      std::string Build = wrapguard::reportPath(BuildPath);
      if (sys::fs::is_regular_file(Build))
        Build = sys::path::parent_path(Build).str();
      if (Build != Req.Paths.SourceRoot &&
          wrapguard::isUnderSourceRoot(Build, Req.Paths))
        Req.BuildDir = Build;
    }
  }
  copyPlainOptions(Req);
  if (!CacheDir.empty()) {
    auto Cache = wrapguard::ResultCache::open(CacheDir);
    if (!Cache)
      return fail(toString(Cache.takeError()));
    Req.Cache = std::move(*Cache);
    Req.Options.SharedHeaderCacheDir = Req.Cache->pchFolder();
  }
  Req.Options.SharedHeaderBytes = SharedHeaderBytes;
  if (Req.IndexOnly) {
    if (Output.empty())
      return fail("index needs -o FACTS.json");
    Req.FactsOut = Req.Output;
    Req.Output.clear();
  }
  if (!Req.Output.empty() && Req.OutputFormat == Format::Text)
    return fail("-o needs --format=sarif or --format=json; text goes to "
                "stdout");
  if (!Config.empty() && !ConfigFile.empty())
    return fail("--config and --config-file are mutually exclusive");
  if (!Shard.empty()) {
    auto S = wrapguard::parseShard(Shard);
    if (!S)
      return fail(toString(S.takeError()));
    Req.Shard = *S;
  }
  if (!Baseline.empty()) {
    auto B = wrapguard::loadBaseline(Baseline);
    if (!B)
      return fail(toString(B.takeError()));
    Req.BaselinePrints = std::move(*B);
  }
  Req.Options.Cache = Req.Cache.get();
  return buildOptions(Req.Options);
}

/// The TUs to scan: the files given, or every file of the database; sorted
/// and unique so shards are deterministic. Files that are missing or have no
/// command become notifications.
std::vector<std::string> selectFiles(const CompilationDatabase &DB,
                                     const ScanRequest &Req,
                                     wrapguard::Report &R) {
  std::vector<std::string> Files;
  if (Req.InputFiles.empty()) {
    for (const std::string &F : DB.getAllFiles())
      Files.push_back(wrapguard::absolutePath(F, ""));
  } else {
    for (const std::string &F : Req.InputFiles)
      Files.push_back(wrapguard::absolutePath(F, ""));
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  if (Files.empty())
    R.Notifications.push_back(wrapguard::notification(
        "empty-database", "warning",
        "the compilation database lists no files; nothing was scanned"));
  if (Req.Shard)
    Files = wrapguard::selectShard(Files, *Req.Shard);

  std::vector<std::string> Runnable;
  for (const std::string &F : Files) {
    if (!sys::fs::exists(F)) {
      R.Notifications.push_back(wrapguard::notification(
          "missing-file", "error", "'" + F + "' does not exist; not scanned",
          F));
      continue;
    }
    if (DB.getCompileCommands(F).empty()) {
      R.Notifications.push_back(wrapguard::notification(
          "no-compile-command", "error",
          "no compile command for '" + F + "'; not scanned", F));
      continue;
    }
    Runnable.push_back(F);
  }
  return Runnable;
}

/// Scans \p Files with a progress line on a terminal.
std::vector<wrapguard::TUResult>
scanWithProgress(const CompilationDatabase &DB,
                 const std::vector<std::string> &Files,
                 const ScanRequest &Req) {
  bool ShowProgress = !Req.Quiet && Files.size() > 1 &&
                      sys::Process::FileDescriptorIsDisplayed(2);
  wrapguard::ProgressFn Progress;
  if (ShowProgress)
    Progress = [](unsigned Done, unsigned Total, unsigned Findings) {
      errs() << "\r\033[K[" << Done << "/" << Total << " TUs] " << Findings
             << (Findings == 1 ? " finding" : " findings");
      errs().flush();
    };
  wrapguard::ClaimSet Claims;
  std::vector<wrapguard::TUResult> TUs =
      wrapguard::scanFiles(DB, Files, Req.Options, Claims, Progress);
  if (ShowProgress)
    errs() << "\r\033[K";
  return TUs;
}

/// `index`: the facts of the TUs that parsed are written; a TU that did not,
/// or a missing file, makes them incomplete, which the exit status says.
int finishIndex(const std::vector<wrapguard::TUResult> &TUs,
                const wrapguard::ProjectFacts &Facts, const ScanRequest &Req,
                wrapguard::Report &R) {
  wrapguard::SourceText Text;
  for (const wrapguard::TUResult &TU : TUs)
    wrapguard::reportTUProblems(TU, Text, R);
  printNotifications(R, !Req.Quiet);
  if (!Req.Quiet)
    errs() << "wrapguard: facts of " << Facts.size()
           << (Facts.size() == 1 ? " source" : " sources") << " from "
           << R.TranslationUnits << " translation unit"
           << (R.TranslationUnits == 1 ? "" : "s") << " written to '"
           << Req.FactsOut << "'\n";
  return hasErrors(R) ? 2 : 0;
}

/// Leaves out the findings (and their errors) that the baseline has.
void applyBaselineFilter(std::vector<wrapguard::ReportFinding> &Findings,
                         std::vector<const ClangTidyError *> &Errors,
                         const ScanRequest &Req, wrapguard::Report &R) {
  if (!Req.BaselinePrints)
    return;
  std::vector<const ClangTidyError *> KeptErrors;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Req.BaselinePrints->contains(Findings[I].Fingerprint))
      KeptErrors.push_back(Errors[I]);
  Errors = std::move(KeptErrors);
  R.SuppressedByBaseline =
      wrapguard::applyBaseline(Findings, *Req.BaselinePrints);
}

/// Writes the report in the chosen format; an exit status when it cannot.
std::optional<int> writeReport(const wrapguard::Report &R,
                               const ScanRequest &Req,
                               std::vector<ClangTidyError> &Errors) {
  if (Req.OutputFormat == Format::Text) {
    // clang-tidy's own reporter: clang-style locations, source lines, fix-it
    // hints and notes, in colour on a terminal.
    ClangTidyOptions TextOptions = Req.Options.Defaults;
    TextOptions.mergeWith(Req.Options.Overrides, 0);
    if (!TextOptions.HeaderFilterRegex)
      TextOptions.HeaderFilterRegex = "";
    ClangTidyContext TextContext(std::make_unique<DefaultOptionsProvider>(
        Req.Options.Global, std::move(TextOptions)));
    unsigned WarningsAsErrors = 0;
    handleErrors(Errors, TextContext, FB_NoFix, WarningsAsErrors,
                 vfs::createPhysicalFileSystem().release());
    return std::nullopt;
  }
  std::error_code EC;
  raw_fd_ostream OS(Req.Output.empty() ? std::string("-") : Req.Output, EC,
                    sys::fs::OF_Text);
  if (EC)
    return fail("cannot write '" + Req.Output + "': " + EC.message());
  if (Req.OutputFormat == Format::Sarif) {
    wrapguard::writeSarif(R, Req.Tool, Req.Paths, OS);
  } else {
    wrapguard::writeJson(R, Req.Paths, OS);
  }
  return std::nullopt;
}

/// The summary on stderr: findings, then the check's function counts.
void printSummary(const wrapguard::Report &R, const ScanRequest &Req) {
  errs() << "wrapguard: " << R.Findings.size()
         << (R.Findings.size() == 1 ? " finding" : " findings") << " in "
         << R.TranslationUnits << " translation unit"
         << (R.TranslationUnits == 1 ? "" : "s");
  if (Req.BaselinePrints)
    errs() << " (" << R.SuppressedByBaseline << " more in the baseline)";
  errs() << "\n";
  unsigned Unsupported = llvm::count_if(R.Notifications, [](const auto &N) {
    return N.Id == wrapguard::UnsupportedNotificationId;
  });
  errs() << "wrapguard: "
         << wrapguard::analysisSummary(R.FunctionsAnalysed,
                                       R.FunctionsSkipped - Unsupported,
                                       Unsupported)
         << "\n";
  for (const std::string &Line : R.Parsing)
    errs() << "wrapguard: " << Line << "\n";
  if (R.MissingTUs)
    errs() << "wrapguard: the facts lack " << R.MissingTUs
           << (R.MissingTUs == 1 ? " TU" : " TUs")
           << " that did not parse: a class that no other TU constructs is "
              "not judged by its constructors\n";
}

/// Writes the report and the fixes; the scan's exit status.
int finishScan(wrapguard::Report &R, const ScanRequest &Req,
               ArrayRef<const ClangTidyError *> Kept,
               ArrayRef<std::string> Runnable) {
  R.ExecutionSuccessful = !hasErrors(R);
  // Problems with the scan go to stderr in every format, so CI logs show
  // them; SARIF carries them as tool notifications too.
  printNotifications(R, !Req.Quiet);

  std::vector<ClangTidyError> Errors;
  for (const ClangTidyError *E : Kept) {
    Errors.push_back(*E);
    // The text report names files as the other formats do.
    ClangTidyError &Copy = Errors.back();
    Copy.Message.FilePath =
        wrapguard::reportPath(Copy.Message.FilePath, Copy.BuildDirectory);
    for (DiagnosticMessage &Note : Copy.Notes)
      if (!Note.FilePath.empty())
        Note.FilePath =
            wrapguard::reportPath(Note.FilePath, Copy.BuildDirectory);
  }
  if (std::optional<int> Status = writeReport(R, Req, Errors))
    return *Status;

  bool IOError = false;
  if (!Req.ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Req.ExportFixes, EC, sys::fs::OF_None);
    if (EC)
      return fail("cannot write '" + Req.ExportFixes + "': " + EC.message());
    exportReplacements(Runnable.empty() ? "" : Runnable.front(), Errors, OS);
  }
  if (Req.Fix) {
    unsigned Applied = 0, Offered = 0;
    IOError |= !applyFixes(R.Findings, Applied, Offered);
    if (!Req.Quiet)
      errs() << "wrapguard: applied " << Applied << " of " << Offered
             << " suggested fixes\n";
  }
  if (!Req.Quiet)
    printSummary(R, Req);
  if (!R.ExecutionSuccessful || IOError)
    return 2;
  return R.Findings.empty() ? 0 : 1;
}

/// The findings of the scanned TUs, decided against \p Facts, written.
int reportScan(const std::vector<wrapguard::TUResult> &TUs,
               wrapguard::ProjectFacts Facts, const ScanRequest &Req,
               wrapguard::Report &R, ArrayRef<std::string> Runnable) {
  wrapguard::SourceText Text;
  wrapguard::FindingCollector Collector(Facts, Req.Paths, Req.BuildDir,
                                        Req.Shard.has_value(), R, Text);
  for (const wrapguard::TUResult &TU : TUs)
    Collector.addTU(TU);
  std::vector<wrapguard::ReportFinding> Findings;
  std::vector<const ClangTidyError *> Errors;
  Collector.take(Findings, Errors);
  wrapguard::reportBudgetSkips(TUs, Text, R);
  R.Parsing = wrapguard::parsingSummary(TUs);
  R.MissingTUs = Facts.missingTUs();
  if (Req.Shard)
    R.ShardFacts = std::move(Facts);

  wrapguard::assignFingerprints(Findings, Req.Paths);
  wrapguard::fingerprintCandidates(R.ShardCandidates, Findings, Req.Paths);
  applyBaselineFilter(Findings, Errors, Req, R);
  R.Findings = std::move(Findings);
  return finishScan(R, Req, Errors, Runnable);
}

/// A scan, or with \p IndexOnly the `index` subcommand.
int runScan(ArrayRef<const char *> Argv, bool IndexOnly) {
  // Clang needs the targets' descriptions to parse inline assembly and
  // target-specific builtins, as in clang-tidy's own main.
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  wrapguard::Report R;
  R.CommandLine.assign(Argv.begin(), Argv.end());
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    R.WorkingDirectory = std::string(Cwd);

  ScanRequest Req;
  Req.IndexOnly = IndexOnly;
  if (std::optional<int> Status = readRequest(Req))
    return *Status;
  std::string DBError;
  std::unique_ptr<CompilationDatabase> DB = loadDatabase(Req, DBError);
  if (!DB)
    return fail("cannot load the compilation database: " + DBError);

  std::vector<std::string> Runnable = selectFiles(*DB, Req, R);
  R.TranslationUnits = Runnable.size();
  std::vector<wrapguard::TUResult> TUs = scanWithProgress(*DB, Runnable, Req);

  // The project's facts: every TU's, merged in file order (the merge is
  // commutative, so -j and shards do not change it).
  wrapguard::ProjectFacts Facts;
  // Each TU's facts are needed only here: moved, not copied.
  for (wrapguard::TUResult &TU : TUs) {
    Facts.merge(std::move(TU.Evidence.Facts));
    // What a TU that did not parse constructs or passes is unknown.
    Facts.noteMissingTUs(!TU.Parsed);
  }
  if (!Req.FactsOut.empty())
    if (Error Err = Facts.writeFile(Req.FactsOut))
      return fail(toString(std::move(Err)));
  if (IndexOnly)
    return finishIndex(TUs, Facts, Req, R);
  return reportScan(TUs, std::move(Facts), Req, R, Runnable);
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "wrapguard " << WRAPGUARD_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return 2;
  if (wrapguard::MergeCommand)
    return wrapguard::runMerge();
  if (wrapguard::JoinCommand)
    return wrapguard::runJoin();
  if (wrapguard::CacheCommand)
    return wrapguard::runCache();
  return runScan(ArrayRef(Argv, Argc), static_cast<bool>(IndexCommand));
}
