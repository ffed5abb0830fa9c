//===- Join.cpp - `wrapguard join`: flagged sites meet a runtime trace ----===//
//
// wrapguard join --sites FLAGGED --trace TRACE [--format=text|json]
//
// FLAGGED is SARIF 2.1.0, the scanner's --format=json array, or a text list
// of file:line[:column]; TRACE is the JSON file the shim writes under
// WRAPGUARD_TRACE. Per flagged site: whether the run reached it, its calls
// and empty calls, the module types its callable wrapped, and the
// verifications of the trace that cover those types.
//
//===----------------------------------------------------------------------===//

#include "JsonFile.h"
#include "Report.h"
#include "Subcommands.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace wrapguard {

cl::SubCommand
    JoinCommand("join",
                "Join flagged sites (SARIF, the scanner's JSON, or file:line "
                "lines) with a WRAPGUARD_TRACE file from a run");

namespace {

cl::OptionCategory JoinCategory("wrapguard join options");
cl::opt<std::string>
    SitesPath("sites", cl::Required,
              cl::desc("The flagged sites: SARIF 2.1.0, the scanner's "
                       "--format=json array, or file:line[:column] lines"),
              cl::value_desc("file"), cl::sub(JoinCommand),
              cl::cat(JoinCategory));
cl::opt<std::string> TracePath("trace", cl::Required,
                               cl::desc("The WRAPGUARD_TRACE file of a run"),
                               cl::value_desc("file"), cl::sub(JoinCommand),
                               cl::cat(JoinCategory));
enum class JoinFormat { Text, Json };
cl::opt<JoinFormat> OutputFormat(
    "format", cl::desc("Output format"), cl::init(JoinFormat::Text),
    cl::values(clEnumValN(JoinFormat::Text, "text", "a table (default)"),
               clEnumValN(JoinFormat::Json, "json",
                          "one JSON object per flagged site and line")),
    cl::sub(JoinCommand), cl::cat(JoinCategory));

struct FlaggedSite {
  std::string File;
  int64_t Line = 0;
  std::string Function; ///< Empty when the input names none.
};

int fail(const Twine &Message) {
  WithColor::error(errs(), "wrapguard join") << Message << "\n";
  return 2;
}

int64_t integer(const json::Object &O, StringRef Key) {
  return static_cast<int64_t>(O.getNumber(Key).value_or(0));
}

std::string text(const json::Object &O, StringRef Key) {
  return O.getString(Key).value_or("").str();
}

/// The function a SARIF location names. The scanner writes
/// `fullyQualifiedName`; other tools may write only `name`.
std::string logicalFunction(const json::Object &Location) {
  if (const json::Array *Logical = Location.getArray("logicalLocations"))
    for (const json::Value &L : *Logical)
      if (const json::Object *O = L.getAsObject()) {
        std::string Name = text(*O, "fullyQualifiedName");
        if (Name.empty())
          Name = text(*O, "name");
        if (!Name.empty())
          return Name;
      }
  return "";
}

/// The site of a SARIF result: its first location's artifact (a file: URI
/// or a path relative to its uriBaseId, percent-decoded) and start line.
std::optional<FlaggedSite> sarifSite(const json::Object &Result) {
  const json::Array *Locations = Result.getArray("locations");
  const json::Object *Location = Locations && !Locations->empty()
                                     ? Locations->front().getAsObject()
                                     : nullptr;
  const json::Object *Physical =
      Location ? Location->getObject("physicalLocation") : nullptr;
  if (!Physical)
    return std::nullopt;
  FlaggedSite Site;
  if (const json::Object *Artifact = Physical->getObject("artifactLocation"))
    Site.File = uriToPath(Artifact->getString("uri").value_or(""));
  if (const json::Object *Region = Physical->getObject("region"))
    Site.Line = integer(*Region, "startLine");
  Site.Function = logicalFunction(*Location);
  return Site;
}

Expected<std::vector<FlaggedSite>> jsonSites(json::Value Doc, StringRef Path) {
  std::vector<FlaggedSite> Sites;
  if (const json::Array *Records = Doc.getAsArray()) {
    // The scanner's --format=json.
    for (const json::Value &V : *Records)
      if (const json::Object *R = V.getAsObject())
        Sites.push_back(
            {text(*R, "file"), integer(*R, "line"), text(*R, "function")});
    return Sites;
  }
  Expected<SarifLog> Log = SarifLog::fromJSON(std::move(Doc), Path);
  if (!Log)
    return createStringError(inconvertibleErrorCode(),
                             "neither the scanner's JSON array nor SARIF: %s",
                             toString(Log.takeError()).c_str());
  Log->forEachResult([&](const json::Object &Result) {
    if (std::optional<FlaggedSite> Site = sarifSite(Result))
      Sites.push_back(std::move(*Site));
  });
  return Sites;
}

/// One "file:line" or "file:line:column" line; the file may hold colons.
Expected<FlaggedSite> textSite(StringRef Line, StringRef Path) {
  auto [Head, Last] = Line.rsplit(':');
  auto [File, Middle] = Head.rsplit(':');
  unsigned Number = 0, Column = 0;
  FlaggedSite Site;
  if (Head != File && !Middle.getAsInteger(10, Number) &&
      !Last.getAsInteger(10, Column) && Number <= INT32_MAX) {
    Site.File = File.str(); // file:line:column
  } else if (Head != Line && !Last.getAsInteger(10, Number) &&
             Number <= INT32_MAX) {
    Site.File = Head.str(); // file:line
  } else {
    return createStringError(inconvertibleErrorCode(),
                             "'%s': expected file:line, got '%s'",
                             Path.str().c_str(), Line.str().c_str());
  }
  Site.Line = Number;
  return Site;
}

Expected<std::vector<FlaggedSite>> textSites(StringRef Text, StringRef Path) {
  std::vector<FlaggedSite> Sites;
  SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim(" \t\r\n\v\f");
    if (Line.empty() || Line.starts_with("#"))
      continue;
    Expected<FlaggedSite> Site = textSite(Line, Path);
    if (!Site)
      return Site.takeError();
    Sites.push_back(std::move(*Site));
  }
  return Sites;
}

Expected<std::vector<FlaggedSite>> readSites(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = readTextFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  StringRef Text = (*Buffer)->getBuffer();
  StringRef Start = Text.ltrim();
  if (!Start.starts_with("{") && !Start.starts_with("["))
    return textSites(Text, Path);
  Expected<json::Value> Doc = parseJsonText(Text, Path);
  if (!Doc)
    return Doc.takeError();
  return jsonSites(std::move(*Doc), Path);
}

/// How well two paths name the same file: 3 equal, 2 one is the other's
/// suffix at a component boundary (an absolute __FILE__ and a path relative
/// to %SRCROOT%), 1 the same file name, 0 none. "./" and repeated
/// separators do not count.
int pathMatch(StringRef A, StringRef B) {
  SmallString<256> NA(A), NB(B);
  sys::path::remove_dots(NA);
  sys::path::remove_dots(NB);
  SmallVector<StringRef> CA(sys::path::begin(NA), sys::path::end(NA));
  SmallVector<StringRef> CB(sys::path::begin(NB), sys::path::end(NB));
  if (CA.empty() || CB.empty())
    return 0;
  if (CA == CB)
    return 3;
  size_t Common = 0;
  while (Common < std::min(CA.size(), CB.size()) &&
         CA[CA.size() - 1 - Common] == CB[CB.size() - 1 - Common])
    ++Common;
  if (Common == std::min(CA.size(), CB.size()))
    return 2;
  return Common ? 1 : 0;
}

/// The trace entry of a flagged site: the closest line at or up to 3 below
/// it (a call spread over lines is flagged at its start, counted at its
/// end), the best path match among equals.
const json::Object *findTraceSite(const FlaggedSite &Site,
                                  const json::Array &TraceSites) {
  const json::Object *Best = nullptr;
  int BestScore = 0;
  int64_t BestDistance = 99;
  for (const json::Value &V : TraceSites) {
    const json::Object *T = V.getAsObject();
    if (!T)
      continue;
    int Score = pathMatch(Site.File, text(*T, "file"));
    int64_t Distance = integer(*T, "line") - Site.Line;
    if (!Score || Distance < 0 || Distance > 3)
      continue;
    if (Distance < BestDistance ||
        (Distance == BestDistance && Score > BestScore)) {
      Best = T;
      BestScore = Score;
      BestDistance = Distance;
    }
  }
  return Best;
}

/// \p Value printed as printf's \p Spec prints it.
std::string printed(const char *Spec, double Value) {
  std::string Out;
  raw_string_ostream(Out) << format(Spec, Value);
  return Out;
}

std::string describeVerification(const json::Object &V) {
  bool Ok = V.getBoolean("passed").value_or(false);
  double Plain = V.getNumber("peak_bytes_plain").value_or(0);
  double Ckpt = V.getNumber("peak_bytes_checkpointed").value_or(0);
  std::string Saved =
      Plain > 0 ? printed("%.0f%%", 100.0 * (Plain - Ckpt) / Plain) : "?";
  std::optional<double> Diff = V.getNumber("max_abs_grad_diff");
  return (Twine(Ok ? "ok" : "FAIL") + " (" + text(V, "policy") + " on " +
          text(V, "device") + ": max|dgrad| " +
          (Diff ? printed("%.3g", *Diff) : "inf") + ", " +
          printed("%.0f", V.getNumber("recompute_per_backward").value_or(0)) +
          " recompute/backward, peak memory -" + Saved + ")")
      .str();
}

/// What one flagged site did at runtime.
struct SiteReport {
  bool Reached = false;
  int64_t Calls = 0, EmptyCalls = 0;
  std::vector<std::string> Types;   ///< Of the modules its callable wrapped.
  std::vector<std::string> Results; ///< Verifications covering those types.
  std::string Summary;
};

std::vector<std::string> verificationsCovering(ArrayRef<std::string> Types,
                                               const json::Array *Checks) {
  std::vector<std::string> Results;
  if (Types.empty() || !Checks)
    return Results;
  for (const json::Value &V : *Checks) {
    const json::Object *O = V.getAsObject();
    const json::Array *Modules = O ? O->getArray("wrapped_modules") : nullptr;
    if (!Modules)
      continue;
    bool Covers = llvm::any_of(*Modules, [&](const json::Value &M) {
      const json::Object *MO = M.getAsObject();
      return MO && llvm::is_contained(Types, text(*MO, "type"));
    });
    if (Covers)
      Results.push_back(describeVerification(*O));
  }
  return Results;
}

SiteReport reportSite(const FlaggedSite &Site, const json::Array &TraceSites,
                      const json::Array *Verifications) {
  SiteReport R;
  if (const json::Object *T = findTraceSite(Site, TraceSites)) {
    R.Calls = integer(*T, "calls");
    R.EmptyCalls = integer(*T, "empty_calls");
    if (const json::Array *Wrapped = T->getArray("wrapped"))
      for (const json::Value &W : *Wrapped)
        if (const json::Object *WO = W.getAsObject())
          R.Types.push_back(text(*WO, "type"));
  }
  R.Reached = R.Calls > 0;
  R.Results = verificationsCovering(R.Types, Verifications);
  if (!R.Reached)
    R.Summary = "not reached in this run";
  else if (R.Types.empty())
    R.Summary = R.EmptyCalls == R.Calls
                    ? "callable always empty: wrapped nothing"
                    : "no module info in the trace for this site";
  else
    R.Summary = "wrapped " + std::to_string(R.Types.size()) +
                " module(s) of type " + R.Types[0] +
                (R.Results.empty() ? "; no verification in the trace"
                                   : "; verification: " + R.Results[0]);
  return R;
}

/// Text from a site list may be any bytes; JSON strings must be UTF-8.
std::string utf8(StringRef S) {
  return json::isUTF8(S) ? S.str() : json::fixUTF8(S);
}

void printSiteJson(raw_ostream &OS, const FlaggedSite &Site,
                   const SiteReport &R) {
  json::OStream J(OS);
  auto Strings = [&](ArrayRef<std::string> Items) {
    J.array([&] {
      for (const std::string &S : Items)
        J.value(utf8(S));
    });
  };
  J.object([&] {
    J.attribute("file", utf8(Site.File));
    J.attribute("line", Site.Line);
    J.attribute("function", utf8(Site.Function));
    J.attribute("reached", R.Reached);
    J.attribute("calls", R.Calls);
    J.attribute("empty_calls", R.EmptyCalls);
    J.attributeBegin("wrapped_types");
    Strings(R.Types);
    J.attributeEnd();
    J.attributeBegin("verifications");
    Strings(R.Results);
    J.attributeEnd();
    J.attribute("summary", utf8(R.Summary));
  });
  OS << "\n";
}

void printSiteText(raw_ostream &OS, const FlaggedSite &Site,
                   const SiteReport &R) {
  OS << left_justify(Site.File + ":" + std::to_string(Site.Line), 44)
     << left_justify(R.Reached ? "yes" : "no", 9)
     << left_justify(std::to_string(R.Calls), 7)
     << left_justify(std::to_string(R.EmptyCalls), 7) << R.Summary << "\n";
}

} // namespace

int runJoin() {
  Expected<std::vector<FlaggedSite>> Sites = readSites(SitesPath);
  if (!Sites)
    return fail(toString(Sites.takeError()));
  Expected<json::Value> Trace = readJsonFile(TracePath);
  if (!Trace)
    return fail(toString(Trace.takeError()));
  const json::Object *TraceObj = Trace->getAsObject();
  const json::Array *TraceSites =
      TraceObj ? TraceObj->getArray("sites") : nullptr;
  if (!TraceSites)
    return fail("'" + TracePath +
                "' has no \"sites\" array; is it a WRAPGUARD_TRACE file?");
  const json::Array *Verifications = TraceObj->getArray("verifications");

  raw_ostream &OS = outs();
  bool Json = OutputFormat == JoinFormat::Json;
  if (!Json)
    OS << left_justify("flagged site", 44) << left_justify("reached", 9)
       << left_justify("calls", 7) << left_justify("empty", 7)
       << "wrapped / verification\n";
  unsigned Reached = 0;
  for (const FlaggedSite &Site : *Sites) {
    SiteReport R = reportSite(Site, *TraceSites, Verifications);
    Reached += R.Reached;
    if (Json)
      printSiteJson(OS, Site, R);
    else
      printSiteText(OS, Site, R);
  }
  if (!Json)
    OS << "\n"
       << Reached << " of " << Sites->size() << " flagged sites reached\n";
  return 0;
}

} // namespace wrapguard
