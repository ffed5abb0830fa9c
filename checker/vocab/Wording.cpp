//===- Wording.cpp - Every message the check writes -----------------------===//

#include "Wording.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

using llvm::formatv;
using llvm::StringRef;

namespace wrapguard {

static constexpr llvm::StringLiteral AlwaysPrefix = "call through callable '";
static constexpr llvm::StringLiteral AlwaysSuffix =
    "', which is always empty here";

std::string possiblyEmptyMessage(StringRef Name) {
  return ("call through possibly empty callable '" + Name + "'").str();
}

std::string alwaysEmptyMessage(StringRef Name) {
  return (AlwaysPrefix + Name + AlwaysSuffix).str();
}

bool isAlwaysEmptyMessage(StringRef Message) {
  return Message.starts_with(AlwaysPrefix) && Message.ends_with(AlwaysSuffix);
}

std::string skippedMessage(StringRef Name, const SkipReason &Why) {
  return ((Name.empty() ? llvm::Twine("a function") : "'" + Name + "'") +
          " was not analysed: it " +
          (Why.isBudget() ? "exceeds the budget " : "contains ") + Why.What)
      .str();
}

std::string skippedWarning(bool InLambda, StringRef Name, const SkipReason &Why,
                           long long Limit) {
  std::string Message = formatv("{0} {1}", InLambda ? "lambda in" : "function",
                                skippedMessage(Name, Why));
  if (Why.isBudget())
    Message += formatv(" ({0})", Limit).str();
  return Message;
}

std::string analysisSummary(unsigned Analysed, unsigned OverBudget,
                            unsigned Unsupported) {
  std::string Summary =
      formatv("analysed {0} function{1}, skipped {2} over budget", Analysed,
              Analysed == 1 ? "" : "s", OverBudget);
  if (Unsupported)
    Summary += formatv(", {0} with unsupported constructs", Unsupported).str();
  return Summary;
}

std::string comesFromNote(StringRef Name, StringRef Callee, bool Always) {
  return formatv("'{0}' comes from '{1}', which {2}", Name, Callee,
                 Always ? "always returns an empty callable"
                        : "may return an empty callable")
      .str();
}

std::string madeEmptyHereNote(StringRef Name) {
  return formatv("'{0}' is made empty here", Name).str();
}

std::string movedFromHereNote(StringRef Name) {
  return formatv("'{0}' is moved from here", Name).str();
}

std::string privateCopyNote(StringRef Name, bool StartsEmpty) {
  return formatv("'{0}' is a private copy in the region, which starts {1}",
                 Name, StartsEmpty ? "empty" : "uninitialised")
      .str();
}

std::string subscriptInsertsNote(StringRef MappedType) {
  return formatv("'operator[]' inserts an empty '{0}' when the key is missing",
                 MappedType)
      .str();
}

std::string checkBeforeCallNote(StringRef Name) {
  return formatv("check that '{0}' is not empty before this call, e.g. "
                 "'if ({0})'",
                 Name)
      .str();
}

std::string returnsEmptyNote(StringRef Name, StringRef Source, bool Always,
                             StringRef Where) {
  return formatv("'{0}' comes from '{1}', which {2} ({3})", Name, Source,
                 Always ? "always returns an empty callable"
                        : "returns an empty callable on some path",
                 Where)
      .str();
}

std::string checkedElsewhereNote(StringRef Source, StringRef Function,
                                 StringRef Where) {
  return formatv("a value from '{0}' is checked for emptiness in '{1}' ({2})",
                 Source, Function, Where)
      .str();
}

std::string notSetByConstructorNote(StringRef Field, StringRef Ctor,
                                    StringRef Where) {
  return formatv("'{0}' is not set by the constructor '{1}' ({2})", Field, Ctor,
                 Where)
      .str();
}

std::string setOnlyWhenNote(StringRef Field, StringRef Ctor,
                            StringRef Condition, StringRef Where) {
  return formatv("'{0}' is set by the constructor '{1}' only when '{2}' holds "
                 "({3})",
                 Field, Ctor, Condition, Where)
      .str();
}

std::string loadedInNote(StringRef Field, StringRef Loader, StringRef Function,
                         StringRef Where) {
  return formatv("'{0}' is assigned the result of '{1}', which is null when "
                 "the symbol is missing, in '{2}' ({3})",
                 Field, Loader, Function, Where)
      .str();
}

std::string emptiedInNote(StringRef Field, StringRef Function,
                          StringRef Where) {
  return formatv("'{0}' is made empty in '{1}' ({2})", Field, Function, Where)
      .str();
}

std::string neverSetNote(StringRef Field, StringRef Class,
                         unsigned Constructions, bool Surely) {
  StringRef How = Surely ? "" : "surely ";
  if (Constructions == 1)
    return formatv("'{0}' is not {1}set by the only construction of '{2}' in "
                   "the project",
                   Field, How, Class)
        .str();
  return formatv("'{0}' is {1}set by none of the {2} constructions of '{3}' in "
                 "the project",
                 Field, How, Constructions, Class)
      .str();
}

std::string constructionLeavesEmptyNote(StringRef Class, StringRef Ctor,
                                        StringRef Field, StringRef Function,
                                        StringRef Where) {
  return formatv("'{0}' is constructed with '{1}', which leaves '{2}' empty, "
                 "in '{3}' ({4})",
                 Class, Ctor, Field, Function, Where)
      .str();
}

std::string constructedEmptyHereNote(StringRef Object, StringRef Ctor,
                                     StringRef Field) {
  return formatv("'{0}' is constructed here with '{1}', which leaves '{2}' "
                 "empty",
                 Object, Ctor, Field)
      .str();
}

std::string constructionMayLeaveEmptyNote(StringRef Class, StringRef Ctor,
                                          StringRef Field, StringRef Function,
                                          StringRef Where) {
  return formatv("'{0}' is constructed with '{1}', which sets '{2}' from a "
                 "value that may be empty, in '{3}' ({4})",
                 Class, Ctor, Field, Function, Where)
      .str();
}

std::string setOnlyAfterConstructionNote(StringRef Field, StringRef Function,
                                         StringRef Where, bool InDestructor) {
  return formatv("'{0}' is set only after construction, in '{1}' ({2}); {3}",
                 Field, Function, Where,
                 InDestructor ? "the destructor also runs for objects where "
                                "that never happened"
                              : "it is still empty while the constructor runs")
      .str();
}

std::string passedEmptyNote(StringRef Param, StringRef Function,
                            StringRef Caller, StringRef Where) {
  return formatv("'{0}' of '{1}' is passed an empty callable in '{2}' ({3})",
                 Param, Function, Caller, Where)
      .str();
}

std::string passedMovedBySiblingNote(StringRef Param, StringRef Function,
                                     StringRef Caller, StringRef Where) {
  return formatv("'{0}' of '{1}' may be passed a moved-from, empty callable "
                 "in '{2}' ({3}): another argument of that call moves from "
                 "it, and the order in which arguments are evaluated is "
                 "unspecified",
                 Param, Function, Caller, Where)
      .str();
}

std::string passedObjectEmptyNote(StringRef Param, StringRef Function,
                                  StringRef Field, StringRef Caller,
                                  StringRef Where) {
  if (Param == "this")
    return formatv("'{0}' is called on an object whose '{1}' is empty, in "
                   "'{2}' ({3})",
                   Function, Field, Caller, Where)
        .str();
  return formatv("'{0}' of '{1}' is passed an object whose '{2}' is empty, in "
                 "'{3}' ({4})",
                 Param, Function, Field, Caller, Where)
      .str();
}

std::string storedEmptyNote(StringRef Element, StringRef Function,
                            StringRef Where) {
  return formatv("a callable that may be empty is stored in '{0}' in "
                 "'{1}' ({2})",
                 Element, Function, Where)
      .str();
}

std::string storedFromNote(StringRef Element, StringRef Source,
                           StringRef Function, StringRef Where) {
  return formatv("'{0}' is given the value of '{1}' in '{2}' ({3})", Element,
                 Source, Function, Where)
      .str();
}

std::string passedFromNote(StringRef Param, StringRef Function,
                           StringRef Source, StringRef Caller,
                           StringRef Where) {
  return formatv("'{0}' of '{1}' is passed a value from '{2}' in '{3}' ({4})",
                 Param, Function, Source, Caller, Where)
      .str();
}

std::string assignedFromNote(StringRef Field, StringRef Source,
                             StringRef Function, StringRef Where) {
  return formatv("'{0}' is assigned a value from '{1}' in '{2}' ({3})", Field,
                 Source, Function, Where)
      .str();
}

std::string capturedByReferenceNote(StringRef Name) {
  return formatv("'{0}' is captured here by reference, and may be empty when "
                 "the lambda runs",
                 Name)
      .str();
}

std::string capturedHereNote(StringRef Name, bool Always) {
  return formatv("'{0}' is captured here, where it {1}", Name,
                 Always ? "is empty" : "may be empty")
      .str();
}

} // namespace wrapguard
