//===- JsonFile.cpp - One way to read a JSON file -------------------------===//

#include "JsonFile.h"

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

} // namespace wrapguard
