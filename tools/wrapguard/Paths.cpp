//===- Paths.cpp - One name per file in reports ---------------------------===//

#include "Paths.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <mutex>

using namespace llvm;

namespace wrapguard {

/// \p Path made absolute against \p Base (the working directory when
/// empty), as spelled: `..` kept.
static SmallString<256> spelledAbsolute(StringRef Path, StringRef Base) {
  SmallString<256> Abs(Path);
  if (!sys::path::is_absolute(Abs)) {
    if (!Base.empty())
      sys::fs::make_absolute(Base, Abs);
    else
      sys::fs::make_absolute(Abs);
  }
  return Abs;
}

std::string absolutePath(StringRef Path, StringRef Base) {
  SmallString<256> Abs = spelledAbsolute(Path, Base);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string reportPath(StringRef Path, StringRef Base) {
  static std::mutex Lock;
  static StringMap<std::string> Resolved;
  // Resolved as spelled: `a/link/../b` means what the file system says, not
  // what dropping `link/..` says.
  SmallString<256> Spelled = spelledAbsolute(Path, Base);
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Resolved.find(Spelled);
    if (It != Resolved.end())
      return It->second;
  }
  SmallString<256> Real;
  std::string Out = sys::fs::real_path(Spelled, Real) ? absolutePath(Spelled)
                                                      : std::string(Real);
  std::lock_guard<std::mutex> Guard(Lock);
  return Resolved.try_emplace(Spelled, Out).first->second;
}

bool isUnder(StringRef Abs, StringRef Dir) {
  if (Dir.empty() || !Abs.starts_with(Dir))
    return false;
  StringRef Rest = Abs.drop_front(Dir.size());
  return Rest.empty() || sys::path::is_separator(Rest.front()) ||
         sys::path::is_separator(Dir.back());
}

bool isUnderSourceRoot(StringRef Abs, const PathOptions &Paths) {
  return isUnder(Abs, Paths.SourceRoot);
}

std::string relativePath(StringRef Abs, const PathOptions &Paths) {
  if (!isUnderSourceRoot(Abs, Paths))
    return Abs.str();
  StringRef Rest = Abs.drop_front(Paths.SourceRoot.size());
  while (!Rest.empty() && sys::path::is_separator(Rest.front()))
    Rest = Rest.drop_front();
  return sys::path::convert_to_slash(Rest);
}

} // namespace wrapguard
