//===- SarifLog.cpp - Reading SARIF 2.1.0 logs ----------------------------===//

#include "SarifLog.h"
#include "JsonFile.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace wrapguard {

Expected<SarifLog> SarifLog::read(StringRef Path, StringRef What) {
  Expected<json::Value> Doc = readJsonFile(Path, What);
  if (!Doc)
    return Doc.takeError();
  return fromJSON(std::move(*Doc), Path, What);
}

Expected<SarifLog> SarifLog::fromJSON(json::Value Doc, StringRef Path,
                                      StringRef What) {
  auto Invalid = [&](const Twine &Why) {
    return createStringError(
        inconvertibleErrorCode(), "%s is not a SARIF 2.1.0 log: %s",
        describeFile(Path, What).c_str(), Why.str().c_str());
  };
  const json::Object *Root = Doc.getAsObject();
  if (!Root)
    return Invalid("not a JSON object");
  if (Root->getString("version") != StringRef("2.1.0"))
    return Invalid("no \"version\": \"2.1.0\"");
  const json::Array *Runs = Root->getArray("runs");
  if (!Runs)
    return Invalid("no \"runs\" array");
  for (size_t I = 0; I < Runs->size(); ++I)
    if (!(*Runs)[I].getAsObject())
      return Invalid("runs[" + Twine(I) + "] is not an object");
  return SarifLog(std::move(Doc));
}

void SarifLog::forEachResult(
    function_ref<void(const json::Object &Result)> Fn) const {
  for (const json::Value &Run : runs())
    if (const json::Array *Results = Run.getAsObject()->getArray("results"))
      for (const json::Value &Result : *Results)
        if (const json::Object *O = Result.getAsObject())
          Fn(*O);
}

json::Value SarifLog::makeLog(json::Object Run) {
  return json::Object{{"$schema", SarifSchemaUri},
                      {"version", "2.1.0"},
                      {"runs", json::Array{std::move(Run)}}};
}

std::optional<StringRef> resultFingerprint(const json::Object &Result) {
  if (const json::Object *Partial = Result.getObject("partialFingerprints"))
    return Partial->getString(FingerprintKey);
  return std::nullopt;
}

std::string encodeUriPath(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("-._~/!$&'()*+,;=:@").contains(C))
      Out += C;
    else
      Out += "%" + utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

// LLVM's Support library has no URI type (clangd's lives in clangd), so the
// two directions are spelled here, next to each other.
std::string decodeUriPath(StringRef Uri) {
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && isHexDigit(Uri[I + 1]) &&
        isHexDigit(Uri[I + 2])) {
      Out += static_cast<char>(hexFromNibbles(Uri[I + 1], Uri[I + 2]));
      I += 2;
    } else {
      Out += Uri[I];
    }
  }
  return Out;
}

std::string uriToPath(StringRef Uri) {
  StringRef Rest = Uri;
  // file:///abs/path, file://localhost/abs/path, file:/abs/path (RFC 8089).
  if (Rest.consume_front_insensitive("file:") && Rest.consume_front("//")) {
    size_t Slash = Rest.find('/');
    Rest = Slash == StringRef::npos ? StringRef() : Rest.drop_front(Slash);
  }
  return decodeUriPath(Rest);
}

} // namespace wrapguard
