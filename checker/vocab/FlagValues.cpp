//===- FlagValues.cpp - Values of a function's boolean parameters ---------===//

#include "FlagValues.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace wrapguard {

std::string FlagValues::text() const {
  std::string Out;
  for (const auto &[Index, Value] : Values) {
    if (!Out.empty())
      Out += ',';
    Out += utostr(Index) + (Value ? "=1" : "=0");
  }
  return Out;
}

std::optional<FlagValues> FlagValues::parse(StringRef Text) {
  FlagValues Out;
  if (Text.empty())
    return Out;
  SmallVector<StringRef> Items;
  Text.split(Items, ',');
  for (StringRef Item : Items) {
    auto [IndexText, ValueText] = Item.split('=');
    unsigned Index = 0;
    if (IndexText.getAsInteger(10, Index) ||
        (ValueText != "0" && ValueText != "1") ||
        !Out.Values.try_emplace(Index, ValueText == "1").second)
      return std::nullopt;
  }
  return Out;
}

bool FlagValues::compatible(const FlagValues &Other) const {
  for (const auto &[Index, Value] : Values) {
    auto It = Other.Values.find(Index);
    if (It != Other.Values.end() && It->second != Value)
      return false;
  }
  return true;
}

FlagValues FlagValues::common(const FlagValues &Other) const {
  FlagValues Out;
  for (const auto &[Index, Value] : Values) {
    auto It = Other.Values.find(Index);
    if (It != Other.Values.end() && It->second == Value)
      Out.Values.emplace(Index, Value);
  }
  return Out;
}

} // namespace wrapguard
