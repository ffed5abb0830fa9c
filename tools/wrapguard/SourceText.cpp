//===- SourceText.cpp - Files' text, lines and columns --------------------===//

#include "SourceText.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace wrapguard {

StringRef SourceText::get(StringRef Path) {
  auto [It, New] = Files.try_emplace(Path);
  if (New) {
    if (auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false))
      It->second = std::move(*Buffer);
  }
  return It->second ? It->second->getBuffer() : StringRef();
}

/// Code points in \p Bytes: every byte but UTF-8 continuation bytes.
static unsigned codePoints(StringRef Bytes) {
  unsigned N = 0;
  for (char C : Bytes)
    if ((static_cast<unsigned char>(C) & 0xC0) != 0x80)
      ++N;
  return N;
}

TextPos SourceText::position(StringRef Path, unsigned Offset) {
  StringRef Text = get(Path);
  Offset = std::min<size_t>(Offset, Text.size());
  StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n');
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  TextPos Pos;
  Pos.Line = Before.count('\n') + 1;
  Pos.Column = Offset - LineStart + 1;
  Pos.CharColumn = codePoints(Text.slice(LineStart, Offset)) + 1;
  return Pos;
}

TextPos SourceText::position(StringRef Path, unsigned Offset, unsigned Line,
                             unsigned ByteColumn) {
  TextPos Recorded{Line, ByteColumn, ByteColumn};
  StringRef Text = get(Path);
  if (ByteColumn == 0 || ByteColumn - 1 > Offset || Offset > Text.size())
    return Recorded;
  StringRef Before = Text.slice(Offset - (ByteColumn - 1), Offset);
  // The file changed since the facts were collected.
  if (Before.contains('\n') ||
      (Offset >= ByteColumn && Text[Offset - ByteColumn] != '\n'))
    return Recorded;
  Recorded.CharColumn = codePoints(Before) + 1;
  return Recorded;
}

std::string SourceText::lineText(StringRef Path, unsigned Offset) {
  StringRef Text = get(Path);
  Offset = std::min<size_t>(Offset, Text.size());
  size_t Begin = Text.take_front(Offset).rfind('\n');
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Text.find('\n', Offset);
  SmallVector<StringRef> Words;
  SplitString(Text.slice(Begin, End), Words);
  return join(Words, " ");
}

} // namespace wrapguard
