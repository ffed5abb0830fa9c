//===- Cache.cpp - --cache-dir: results of unchanged TUs ------------------===//

#include "Cache.h"
#include "JsonFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace wrapguard {

namespace {

constexpr llvm::StringLiteral Magic = "wrapguard-cache";
constexpr unsigned CacheVersion = 1;

std::string hashOf(StringRef Data) {
  return toHex(BLAKE3::hash<16>(arrayRefFromStringRef(Data)),
               /*LowerCase=*/true);
}

/// Writes JSON, noting whether any string had to be changed to be UTF-8
/// (it would not read back as it was: such a TU is not cached).
class Writer {
public:
  json::Value str(StringRef S) {
    if (!json::isUTF8(S))
      Lossy = true;
    return json::Value(S.str());
  }
  json::Value message(const DiagnosticMessage &M) {
    json::Array Fixes;
    for (const auto &[File, Reps] : M.Fix)
      for (const Replacement &R : Reps)
        Fixes.push_back(json::Object{{"group", str(File)},
                                     {"file", str(R.getFilePath())},
                                     {"offset", R.getOffset()},
                                     {"length", R.getLength()},
                                     {"text", str(R.getReplacementText())}});
    json::Array Ranges;
    for (const FileByteRange &Range : M.Ranges)
      Ranges.push_back(json::Object{{"file", str(Range.FilePath)},
                                    {"offset", Range.FileOffset},
                                    {"length", Range.Length}});
    return json::Object{{"message", str(M.Message)},
                        {"file", str(M.FilePath)},
                        {"offset", M.FileOffset},
                        {"fixes", std::move(Fixes)},
                        {"ranges", std::move(Ranges)}};
  }
  json::Value error(const ClangTidyError &E) {
    json::Array Notes;
    for (const DiagnosticMessage &N : E.Notes)
      Notes.push_back(message(N));
    json::Array Aliases;
    for (const std::string &A : E.EnabledDiagnosticAliases)
      Aliases.push_back(str(A));
    return json::Object{{"name", str(E.DiagnosticName)},
                        {"level", static_cast<int64_t>(E.DiagLevel)},
                        {"buildDirectory", str(E.BuildDirectory)},
                        {"warningAsError", E.IsWarningAsError},
                        {"aliases", std::move(Aliases)},
                        {"message", message(E.Message)},
                        {"notes", std::move(Notes)}};
  }
  json::Array strings(ArrayRef<std::string> Items) {
    json::Array Out;
    for (const std::string &S : Items)
      Out.push_back(str(S));
    return Out;
  }
  bool Lossy = false;
};

/// Reads what Writer wrote; false on anything unexpected.
class Reader {
public:
  bool str(const json::Object &O, StringRef Key, std::string &Out) {
    std::optional<StringRef> S = O.getString(Key);
    if (!S)
      return false;
    Out = S->str();
    return true;
  }
  template <class T> bool num(const json::Object &O, StringRef Key, T &Out) {
    std::optional<int64_t> N = O.getInteger(Key);
    if (!N || *N < 0)
      return false;
    Out = static_cast<T>(*N);
    return true;
  }
  bool message(const json::Value *V, DiagnosticMessage &M) {
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (!O || !str(*O, "message", M.Message) || !str(*O, "file", M.FilePath) ||
        !num(*O, "offset", M.FileOffset))
      return false;
    const json::Array *Fixes = O->getArray("fixes");
    const json::Array *Ranges = O->getArray("ranges");
    if (!Fixes || !Ranges)
      return false;
    for (const json::Value &F : *Fixes) {
      const json::Object *FO = F.getAsObject();
      std::string Group, File, Text;
      unsigned Offset = 0, Length = 0;
      if (!FO || !str(*FO, "group", Group) || !str(*FO, "file", File) ||
          !str(*FO, "text", Text) || !num(*FO, "offset", Offset) ||
          !num(*FO, "length", Length))
        return false;
      if (Error Err =
              M.Fix[Group].add(Replacement(File, Offset, Length, Text))) {
        consumeError(std::move(Err));
        return false;
      }
    }
    for (const json::Value &R : *Ranges) {
      const json::Object *RO = R.getAsObject();
      FileByteRange Range;
      if (!RO || !str(*RO, "file", Range.FilePath) ||
          !num(*RO, "offset", Range.FileOffset) ||
          !num(*RO, "length", Range.Length))
        return false;
      M.Ranges.push_back(std::move(Range));
    }
    return true;
  }
  std::optional<ClangTidyError> error(const json::Value &V) {
    const json::Object *O = V.getAsObject();
    std::string Name, BuildDir;
    int64_t Level = 0;
    if (!O || !str(*O, "name", Name) || !str(*O, "buildDirectory", BuildDir) ||
        !num(*O, "level", Level) || !O->getBoolean("warningAsError"))
      return std::nullopt;
    ClangTidyError E(Name, static_cast<tooling::Diagnostic::Level>(Level),
                     BuildDir, *O->getBoolean("warningAsError"));
    if (!message(O->get("message"), E.Message))
      return std::nullopt;
    const json::Array *Notes = O->getArray("notes");
    const json::Array *Aliases = O->getArray("aliases");
    if (!Notes || !Aliases)
      return std::nullopt;
    for (const json::Value &N : *Notes) {
      DiagnosticMessage M;
      if (!message(&N, M))
        return std::nullopt;
      E.Notes.push_back(std::move(M));
    }
    for (const json::Value &A : *Aliases) {
      std::optional<StringRef> S = A.getAsString();
      if (!S)
        return std::nullopt;
      E.EnabledDiagnosticAliases.push_back(S->str());
    }
    return E;
  }
  bool strings(const json::Value *V, std::vector<std::string> &Out) {
    const json::Array *A = V ? V->getAsArray() : nullptr;
    if (!A)
      return false;
    for (const json::Value &S : *A) {
      std::optional<StringRef> Str = S.getAsString();
      if (!Str)
        return false;
      Out.push_back(Str->str());
    }
    return true;
  }
};

json::Value toJSON(const TUResult &R, Writer &W) {
  json::Array Errors;
  for (const ClangTidyError &E : R.Errors)
    Errors.push_back(W.error(E));
  json::Array Functions;
  for (const auto &[Where, Name] : R.Functions)
    Functions.push_back(json::Object{{"file", W.str(Where.first)},
                                     {"offset", Where.second},
                                     {"name", W.str(Name)}});
  const TUEvidence &Ev = R.Evidence;
  json::Array Candidates;
  for (const HandedCandidate &C : Ev.Candidates)
    Candidates.push_back(
        json::Object{{"candidate", C.Cand.toJSON()},
                     {"origin", factLocToJSON(C.Origin)},
                     {"file", W.str(C.Diagnostic.File)},
                     {"offset", C.Diagnostic.Offset},
                     {"message", W.str(C.Diagnostic.Message)}});
  json::Array Skipped;
  for (const TUEvidence::Skip &S : Ev.Skipped)
    Skipped.push_back(
        json::Object{{"where", factLocToJSON(S.Where)},
                     {"kind", S.Reason.isBudget() ? "budget" : "construct"},
                     {"what", W.str(S.Reason.What)}});
  return json::Object{{"file", W.str(R.File)},
                      {"parsed", R.Parsed},
                      {"headersUnderSourceRoot", R.HeadersUnderSourceRoot},
                      {"errors", std::move(Errors)},
                      {"functions", std::move(Functions)},
                      {"facts", Ev.Facts.toJSON()},
                      {"candidates", std::move(Candidates)},
                      {"analysed", Ev.Analysed},
                      {"skipped", std::move(Skipped)},
                      {"unitsContained", W.strings(R.UnitsContained)},
                      {"unitsOwned", W.strings(R.UnitsOwned)}};
}

Error malformed(const Twine &What) {
  return createStringError(inconvertibleErrorCode(), "malformed %s",
                           What.str().c_str());
}

/// A TUResult back from the JSON toJSON wrote (the cache's payload); the
/// files the TU read are kept apart (ResultCache::dependenciesPath).
Expected<TUResult> tuResultFromJSON(const json::Value &V) {
  Reader Rd;
  const json::Object *O = V.getAsObject();
  TUResult R;
  if (!O || !Rd.str(*O, "file", R.File) || !O->getBoolean("parsed") ||
      !O->getBoolean("headersUnderSourceRoot"))
    return malformed("result");
  R.Parsed = *O->getBoolean("parsed");
  R.HeadersUnderSourceRoot = *O->getBoolean("headersUnderSourceRoot");
  const json::Array *Errors = O->getArray("errors");
  const json::Array *Functions = O->getArray("functions");
  const json::Array *Candidates = O->getArray("candidates");
  const json::Array *Skipped = O->getArray("skipped");
  if (!Errors || !Functions || !Candidates || !Skipped || !O->get("facts") ||
      !Rd.num(*O, "analysed", R.Evidence.Analysed))
    return malformed("result");
  for (const json::Value &E : *Errors) {
    std::optional<ClangTidyError> Err = Rd.error(E);
    if (!Err)
      return malformed("finding");
    R.Errors.push_back(std::move(*Err));
  }
  for (const json::Value &F : *Functions) {
    const json::Object *FO = F.getAsObject();
    std::string File, Name;
    unsigned Offset = 0;
    if (!FO || !Rd.str(*FO, "file", File) || !Rd.str(*FO, "name", Name) ||
        !Rd.num(*FO, "offset", Offset))
      return malformed("function");
    R.Functions[{File, Offset}] = Name;
  }
  Expected<ProjectFacts> Facts = ProjectFacts::fromJSON(*O->get("facts"));
  if (!Facts)
    return Facts.takeError();
  R.Evidence.Facts = std::move(*Facts);
  for (const json::Value &C : *Candidates) {
    const json::Object *CO = C.getAsObject();
    HandedCandidate H;
    if (!CO || !CO->get("candidate") ||
        !Candidate::fromJSON(*CO->get("candidate"), H.Cand) ||
        !factLocFromJSON(CO->get("origin"), H.Origin) ||
        !Rd.str(*CO, "file", H.Diagnostic.File) ||
        !Rd.num(*CO, "offset", H.Diagnostic.Offset) ||
        !Rd.str(*CO, "message", H.Diagnostic.Message))
      return malformed("candidate");
    R.Evidence.Candidates.push_back(std::move(H));
  }
  for (const json::Value &S : *Skipped) {
    const json::Object *SO = S.getAsObject();
    TUEvidence::Skip Skip;
    std::optional<StringRef> Kind = SO ? SO->getString("kind") : std::nullopt;
    if (!SO || !factLocFromJSON(SO->get("where"), Skip.Where) || !Kind ||
        (*Kind != "budget" && *Kind != "construct") ||
        !Rd.str(*SO, "what", Skip.Reason.What))
      return malformed("skip");
    Skip.Reason.K =
        *Kind == "budget" ? SkipReason::Budget : SkipReason::Construct;
    R.Evidence.Skipped.push_back(std::move(Skip));
  }
  if (!Rd.strings(O->get("unitsContained"), R.UnitsContained) ||
      !Rd.strings(O->get("unitsOwned"), R.UnitsOwned))
    return malformed("result");
  return R;
}

} // namespace

Expected<std::unique_ptr<ResultCache>> ResultCache::open(StringRef Dir) {
  SmallString<256> Entries(Dir);
  // Absolute: the shared headers' PCH is written by a compiler whose working
  // folder is the compile command's, so a relative --cache-dir would name
  // another folder there (and no PCH was ever built).
  if (std::error_code EC = sys::fs::make_absolute(Entries))
    return createStringError(EC,
                             "cannot make the cache folder '%s' absolute: %s",
                             Entries.c_str(), EC.message().c_str());
  sys::path::append(Entries, "v" + std::to_string(CacheVersion));
  if (std::error_code EC = sys::fs::create_directories(Entries))
    return createStringError(EC, "cannot create the cache folder '%s': %s",
                             Entries.c_str(), EC.message().c_str());
  // This very build: the executable's bytes, the facts' format and the LLVM
  // the scanner was built against. Hashed each run (a few tens of ms), so
  // that no timestamp can make a rebuilt scanner look unchanged.
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable("wrapguard", &Anchor);
  auto Binary = MemoryBuffer::getFile(Exe, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Binary)
    return createStringError(Binary.getError(),
                             "cannot read the scanner's executable '%s' to "
                             "key the cache: %s",
                             Exe.c_str(), Binary.getError().message().c_str());
  BLAKE3 Hasher;
  Hasher.update(arrayRefFromStringRef((*Binary)->getBuffer()));
  Hasher.update("\0llvm " LLVM_VERSION_STRING "\0facts ");
  Hasher.update(std::to_string(ProjectFacts::FormatVersion));
  std::string Build = toHex(Hasher.final<16>(), /*LowerCase=*/true);
  return std::unique_ptr<ResultCache>(
      new ResultCache(std::string(Entries), std::move(Build)));
}

std::string ResultCache::pchFolder() const {
  SmallString<256> Path(sys::path::parent_path(Dir));
  sys::path::append(Path, "pch");
  return std::string(Path);
}

std::string ResultCache::entryPath(StringRef File, StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, hashOf((File + Twine('\0') + Key).str()) + ".json");
  return std::string(Path);
}

std::string ResultCache::contentHash(StringRef Path) {
  {
    std::lock_guard<std::mutex> Guard(HashLock);
    auto It = Hashes.find(Path);
    if (It != Hashes.end())
      return It->second;
  }
  std::string Hash;
  if (auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false))
    Hash = hashOf((*Buffer)->getBuffer());
  std::lock_guard<std::mutex> Guard(HashLock);
  return Hashes.try_emplace(Path, Hash).first->second;
}

std::optional<TUResult> ResultCache::lookup(StringRef File, StringRef Key,
                                            std::string &Why, bool &Corrupt) {
  Corrupt = false;
  auto Buffer = MemoryBuffer::getFile(entryPath(File, Key), /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Why = "no entry";
    return std::nullopt;
  }
  auto Untrusted = [&](const Twine &What) {
    Corrupt = true;
    Why = What.str();
    return std::nullopt;
  };
  // "wrapguard-cache VERSION CHECKSUM LENGTH\n" then the payload.
  auto [Header, Payload] = (*Buffer)->getBuffer().split('\n');
  SmallVector<StringRef, 4> Fields;
  Header.split(Fields, ' ');
  size_t Length = 0;
  if (Fields.size() != 4 || Fields[0] != Magic ||
      Fields[1] != std::to_string(CacheVersion) ||
      Fields[3].getAsInteger(10, Length))
    return Untrusted("its header is damaged");
  if (Payload.size() != Length)
    return Untrusted("it is truncated");
  if (hashOf(Payload) != Fields[2])
    return Untrusted("its checksum does not match");
  Expected<json::Value> Doc = json::parse(Payload);
  if (!Doc) {
    consumeError(Doc.takeError());
    return Untrusted("it is not JSON");
  }
  const json::Object *O = Doc->getAsObject();
  if (!O || !O->get("result"))
    return Untrusted("it lacks its fields");
  if (O->getString("build") != StringRef(Build)) {
    Why = "written by another wrapguard build";
    return std::nullopt;
  }
  if (O->getString("file") != File || O->getString("key") != Key) {
    Why = "no entry";
    return std::nullopt;
  }
  std::optional<StringRef> DepsId = O->getString("dependencies");
  std::optional<StringRef> MainHash = O->getString("main");
  if (!DepsId || !MainHash)
    return Untrusted("it lacks its fields");
  if (contentHash(File) != *MainHash) {
    Why = "'" + File.str() + "' changed";
    return std::nullopt;
  }
  bool DepsCorrupt = false;
  if (!dependenciesUnchanged(*DepsId, Why, DepsCorrupt)) {
    if (DepsCorrupt)
      return Untrusted(Why);
    return std::nullopt;
  }
  Expected<TUResult> R = tuResultFromJSON(*O->get("result"));
  if (!R) {
    std::string Err = toString(R.takeError());
    return Untrusted("its result is " + Err);
  }
  Why = "unchanged";
  return std::move(*R);
}

void ResultCache::store(StringRef File, StringRef Key, const TUResult &R) {
  if (R.CrashSignal)
    return;
  Writer W;
  // The main file apart, so that the TUs of a preamble group share a list.
  std::string MainHash = contentHash(File);
  if (MainHash.empty())
    return;
  std::vector<std::string> Files;
  for (const std::string &Path : R.Dependencies)
    if (Path != File)
      Files.push_back(Path);
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  std::string Deps;
  for (const std::string &Path : Files) {
    std::string Hash = contentHash(Path);
    if (Hash.empty() || StringRef(Path).contains('\n'))
      return; // Gone already, or unwritable: nothing to key the entry on.
    Deps += Hash + " " + Path + "\n";
  }
  std::string DepsId = hashOf(Deps);
  if (!writeFileAtomically(dependenciesPath(DepsId), Deps))
    return;
  json::Object Entry{{"build", Build},         {"file", W.str(File)},
                     {"key", W.str(Key)},      {"main", MainHash},
                     {"dependencies", DepsId}, {"result", toJSON(R, W)}};
  if (W.Lossy)
    return;
  std::string Payload;
  raw_string_ostream(Payload) << json::Value(std::move(Entry));
  std::string Text;
  raw_string_ostream(Text) << Magic << ' ' << CacheVersion << ' '
                           << hashOf(Payload) << ' ' << Payload.size() << '\n'
                           << Payload;
  writeFileAtomically(entryPath(File, Key), Text);
}

std::string ResultCache::dependenciesPath(StringRef Id) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "deps-" + Id + ".txt");
  return std::string(Path);
}

bool ResultCache::dependenciesUnchanged(StringRef Id, std::string &Why,
                                        bool &Corrupt) {
  {
    std::lock_guard<std::mutex> Guard(HashLock);
    auto It = DepsChecked.find(Id);
    if (It != DepsChecked.end()) {
      std::tie(Why, Corrupt) = It->second;
      return Why.empty();
    }
  }
  Why.clear();
  Corrupt = false;
  auto Buffer = MemoryBuffer::getFile(dependenciesPath(Id), /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  // Named after its content's hash: anything else is damage.
  if (!Buffer || hashOf((*Buffer)->getBuffer()) != Id) {
    Why = "its list of files read is damaged";
    Corrupt = true;
  } else {
    // "HASH PATH" lines; the first file that changed says why.
    SmallVector<StringRef, 0> Lines;
    (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef Line : Lines) {
      auto [Hash, Path] = Line.split(' ');
      if (contentHash(Path) != Hash) {
        Why = "'" + Path.str() + "' changed";
        break;
      }
    }
  }
  std::lock_guard<std::mutex> Guard(HashLock);
  DepsChecked.try_emplace(Id, Why, Corrupt);
  return Why.empty();
}

ResultCache::PruneCounts ResultCache::prune() {
  PruneCounts Counts;
  std::set<std::string> Named;
  std::vector<std::string> Lists;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Path = It->path();
    StringRef Name = sys::path::filename(Path);
    if (Name.starts_with("deps-") && Name.ends_with(".txt")) {
      Lists.push_back(Path.str());
      continue;
    }
    if (!Name.ends_with(".json"))
      continue;
    auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
    std::optional<json::Value> Doc;
    if (Buffer) {
      StringRef Payload = (*Buffer)->getBuffer().split('\n').second;
      if (Expected<json::Value> V = json::parse(Payload))
        Doc = std::move(*V);
      else
        consumeError(V.takeError());
    }
    const json::Object *O = Doc ? Doc->getAsObject() : nullptr;
    std::optional<StringRef> File = O ? O->getString("file") : std::nullopt;
    std::optional<StringRef> Deps =
        O ? O->getString("dependencies") : std::nullopt;
    if (!O || !File || !Deps || O->getString("build") != StringRef(Build) ||
        !sys::fs::exists(*File)) {
      sys::fs::remove(Path);
      ++Counts.Entries;
      continue;
    }
    Named.insert(dependenciesPath(*Deps));
    ++Counts.Kept;
  }
  for (const std::string &List : Lists)
    if (!Named.count(List)) {
      sys::fs::remove(List);
      ++Counts.Lists;
    }
  return Counts;
}

void ResultCache::drop(StringRef File, StringRef Key) {
  sys::fs::remove(entryPath(File, Key));
}

} // namespace wrapguard
