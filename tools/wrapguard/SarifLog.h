//===- SarifLog.h - Reading SARIF 2.1.0 logs --------------------*- C++ -*-===//
//
// What `merge`, `--baseline` and `join --sites` accept as a SARIF log, said
// once: a JSON object with "version": "2.1.0" and a "runs" array of objects.
// Results are read from runs[].results[]; anything else in a log is passed
// through or ignored by the reader that has no use for it.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SARIFLOG_H
#define WRAPGUARD_TOOLS_SARIFLOG_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace wrapguard {

/// The $schema written into every log wrapguard writes.
inline constexpr const char *SarifSchemaUri =
    "https://json.schemastore.org/sarif-2.1.0.json";
/// The partialFingerprints key wrapguard writes and reads.
inline constexpr const char *FingerprintKey = "wrapguard/v1";

class SarifLog {
public:
  /// Reads and validates the log in \p Path ("-" reads stdin). \p What names
  /// the file's role in errors ("baseline"): "cannot read ...", "... is not
  /// JSON: ..." or "... is not a SARIF 2.1.0 log: <why>".
  static llvm::Expected<SarifLog> read(llvm::StringRef Path,
                                       llvm::StringRef What = "");
  /// Validates an already parsed document.
  static llvm::Expected<SarifLog> fromJSON(llvm::json::Value Doc,
                                           llvm::StringRef Path,
                                           llvm::StringRef What = "");

  /// The runs, each an object.
  llvm::json::Array &runs() { return *Log.getAsObject()->getArray("runs"); }
  const llvm::json::Array &runs() const {
    return *Log.getAsObject()->getArray("runs");
  }

  /// Calls \p Fn for every result of every run that is an object.
  void forEachResult(
      llvm::function_ref<void(const llvm::json::Object &Result)> Fn) const;

  /// A log of one run, as wrapguard writes it.
  static llvm::json::Value makeLog(llvm::json::Object Run);

private:
  explicit SarifLog(llvm::json::Value Log) : Log(std::move(Log)) {}
  llvm::json::Value Log;
};

/// A result's wrapguard fingerprint, when it has one.
std::optional<llvm::StringRef>
resultFingerprint(const llvm::json::Object &Result);

/// Percent-encodes a path for a URI (RFC 3986 path characters kept).
std::string encodeUriPath(llvm::StringRef Path);
/// Undoes encodeUriPath (and any other percent-encoding): each "%XX" with
/// two hex digits becomes its byte; anything else is kept as it is.
std::string decodeUriPath(llvm::StringRef Uri);
/// The path a SARIF artifact URI names: a file: URI without its scheme and
/// authority, or a relative reference, percent-decoded.
std::string uriToPath(llvm::StringRef Uri);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SARIFLOG_H
