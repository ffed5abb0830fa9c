//===- JsonFile.cpp - One way to read a JSON file -------------------------===//

#include "JsonFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapguard {

std::string describeFile(StringRef Path, StringRef What) {
  std::string Out = What.str();
  if (!Out.empty())
    Out += ' ';
  return Out + "'" + Path.str() + "'";
}

Expected<std::unique_ptr<MemoryBuffer>> readTextFile(StringRef Path,
                                                     StringRef What) {
  auto Buffer = MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read %s: %s",
                             describeFile(Path, What).c_str(),
                             Buffer.getError().message().c_str());
  return std::move(*Buffer);
}

Expected<json::Value> parseJsonText(StringRef Text, StringRef Path,
                                    StringRef What) {
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc)
    return createStringError(inconvertibleErrorCode(), "%s is not JSON: %s",
                             describeFile(Path, What).c_str(),
                             toString(Doc.takeError()).c_str());
  return Doc;
}

Expected<json::Value> readJsonFile(StringRef Path, StringRef What) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = readTextFile(Path, What);
  if (!Buffer)
    return Buffer.takeError();
  return parseJsonText((*Buffer)->getBuffer(), Path, What);
}

bool writeFileAtomically(StringRef Path, StringRef Text) {
  // Written beside the file, then renamed over it: a reader sees the old
  // file or the new one, never half of one.
  SmallString<256> Temp;
  int FD = -1;
  if (sys::fs::createUniqueFile(Path + ".%%%%%%%%.tmp", FD, Temp))
    return false;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temp);
      return false;
    }
  }
  if (sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace wrapguard
