//===- main.cpp - The wrapguard-verify command line -----------------------===//
//
// Runs the shim's verifier on the example model (--demo, --bench), or joins
// the analyzer's flagged sites with a runtime trace (--sites FILE --trace
// TRACE).
#include "DemoModel.h"

#include <wrapguard/call.h>
#include <wrapguard/policy.h>
#include <wrapguard/verify.h>

#include <c10/util/Exception.h>
#include <torch/cuda.h>
#include <torch/utils.h>

#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

const char *const Usage = R"(usage:
  wrapguard-verify --demo [--device cpu|cuda] [--json]
      Verifies activation checkpointing of the bundled example model (a
      transformer-style stack of LayerNorm/Linear/GELU/Dropout blocks) under
      each wrap policy: grads vs the plain model, recomputations per backward,
      allocator-level peak memory and step time. Exit status 1 when a policy
      that wraps something fails.
  wrapguard-verify --sites FILE --trace TRACE [--json]
      Joins the analyzer's flagged sites (SARIF 2.1.0, the scanner's
      --format=json array, or a text list of file:line) with a WRAPGUARD_TRACE
      file: per site, whether it was reached, its calls and empty calls, and
      the verification result for the modules it wrapped.
  wrapguard-verify --bench [--device cpu|cuda] [--blocks N] [--seq N]
      [--width N] [--hidden N] [--batch N] [--steps N] [--threads N] [--json]
      Plain vs CheckpointWrapper on a larger model (used by tools/bench/bench-shim).
Exit status 2 on a usage error.
)";

// ---------------------------------------------------------------------------
// A small JSON reader: enough for SARIF, the scanner's output and traces.

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  const Json *get(const std::string &key) const {
    if (type != Type::Object)
      return nullptr;
    for (const auto &entry : object)
      if (entry.first == key)
        return &entry.second;
    return nullptr;
  }
  std::string str(const std::string &key, std::string fallback = "") const {
    const Json *v = get(key);
    return v && v->type == Type::String ? v->string : fallback;
  }
  double num(const std::string &key, double fallback = 0) const {
    const Json *v = get(key);
    return v && v->type == Type::Number ? v->number : fallback;
  }
  /// The elements of an array member; empty when `key` is not an array.
  const std::vector<Json> &list(const std::string &key) const {
    static const std::vector<Json> none;
    const Json *v = get(key);
    return v && v->type == Type::Array ? v->array : none;
  }
};

void appendUtf8(std::string &out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : Text(text) {}

  Json parse() {
    Json value = parseValue();
    skipSpace();
    if (Pos != Text.size())
      fail("trailing characters");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw std::runtime_error("invalid JSON at offset " + std::to_string(Pos) +
                             ": " + what);
  }
  void skipSpace() {
    while (Pos < Text.size() &&
           std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }
  bool consume(char c) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == c) {
      ++Pos;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c))
      fail(std::string("expected '") + c + "'");
  }
  bool literal(const char *word) {
    std::string w(word);
    if (Text.compare(Pos, w.size(), w) == 0) {
      Pos += w.size();
      return true;
    }
    return false;
  }

  Json parseValue() {
    skipSpace();
    if (Pos >= Text.size())
      fail("unexpected end");
    Json v;
    const char c = Text[Pos];
    if (c == '{')
      return parseObject();
    if (c == '[')
      return parseArray();
    if (c == '"') {
      v.type = Json::Type::String;
      v.string = parseString();
    } else if (literal("true")) {
      v.type = Json::Type::Bool;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = Json::Type::Bool;
    } else if (!literal("null")) {
      v = parseNumber();
    }
    return v;
  }

  Json parseObject() {
    ++Pos; // '{'
    Json v;
    v.type = Json::Type::Object;
    if (consume('}'))
      return v;
    do {
      skipSpace();
      std::string key = parseString();
      expect(':');
      v.object.emplace_back(std::move(key), parseValue());
    } while (consume(','));
    expect('}');
    return v;
  }

  Json parseArray() {
    ++Pos; // '['
    Json v;
    v.type = Json::Type::Array;
    if (consume(']'))
      return v;
    do
      v.array.push_back(parseValue());
    while (consume(','));
    expect(']');
    return v;
  }

  Json parseNumber() {
    std::size_t end = Pos;
    while (end < Text.size() &&
           (std::isdigit(static_cast<unsigned char>(Text[end])) ||
            std::string("+-.eE").find(Text[end]) != std::string::npos))
      ++end;
    if (end == Pos)
      fail("unexpected character");
    Json v;
    v.type = Json::Type::Number;
    v.number = std::strtod(Text.substr(Pos, end - Pos).c_str(), nullptr);
    Pos = end;
    return v;
  }

  std::uint32_t parseHex4() {
    if (Pos + 4 > Text.size())
      fail("bad \\u escape");
    std::uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = Text[Pos++];
      if (!std::isxdigit(static_cast<unsigned char>(h)))
        fail("bad \\u escape");
      code = code * 16 + (std::isdigit(static_cast<unsigned char>(h))
                              ? h - '0'
                              : (std::tolower(h) - 'a' + 10));
    }
    return code;
  }

  // After "\u": one code point, from a surrogate pair when there is one; a
  // lone surrogate becomes U+FFFD, so what we print stays valid UTF-8.
  std::uint32_t parseUnicodeEscape() {
    std::uint32_t code = parseHex4();
    if (code >= 0xDC00 && code <= 0xDFFF)
      return 0xFFFD;
    if (code < 0xD800 || code > 0xDBFF)
      return code;
    if (Text.compare(Pos, 2, "\\u") != 0)
      return 0xFFFD;
    const std::size_t save = Pos;
    Pos += 2;
    const std::uint32_t low = parseHex4();
    if (low < 0xDC00 || low > 0xDFFF) {
      Pos = save;
      return 0xFFFD;
    }
    return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
  }

  std::string parseString() {
    if (Pos >= Text.size() || Text[Pos] != '"')
      fail("expected a string");
    ++Pos;
    std::string out;
    while (Pos < Text.size() && Text[Pos] != '"') {
      const char c = Text[Pos++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (Pos >= Text.size())
        fail("bad escape");
      const char e = Text[Pos++];
      switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u':
        appendUtf8(out, parseUnicodeEscape());
        break;
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      default:
        fail(std::string("bad escape '\\") + e + "'");
      }
    }
    if (Pos >= Text.size())
      fail("unterminated string");
    ++Pos;
    return out;
  }

  const std::string &Text;
  std::size_t Pos = 0;
};

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string jsonEscape(const std::string &s) {
  return wrapguard::detail::json_escape(s);
}

// ---------------------------------------------------------------------------
// --demo

std::string formatBytes(std::int64_t bytes) {
  char buf[32];
  double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
  std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
  return buf;
}

std::string formatDouble(const char *fmt, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width)
    s.append(width - s.size(), ' ');
  return s;
}

std::optional<torch::Device> deviceOrError(const std::string &name) {
  torch::Device device(name);
  if (device.is_cuda() && !torch::cuda::is_available()) {
    std::cerr << "wrapguard-verify: --device cuda requested but CUDA is not "
                 "available in this build or on this machine\n";
    return std::nullopt;
  }
  return device;
}

std::vector<wrapguard::WrapPolicy> demoPolicies() {
  return {
      wrapguard::WrapPolicy::no_wrap(),
      wrapguard::WrapPolicy::size_based(100000),
      wrapguard::WrapPolicy::transformer_based({"DemoBlock"}),
      wrapguard::WrapPolicy::lambda([](const torch::nn::Module &m) {
        // Blocks that hold a Dropout: their masks must replay exactly.
        for (const auto &child : m.children())
          if (wrapguard::short_type_name(*child) == "Dropout")
            return true;
        return false;
      }),
  };
}

// One row of the --demo table.
std::vector<std::string> demoRow(const wrapguard::VerifyResult &r,
                                 double tolerance) {
  std::string saved = "-";
  if (r.peak_bytes_plain > 0)
    saved = formatDouble(
        "%.0f%%", 100.0 * (r.peak_bytes_plain - r.peak_bytes_checkpointed) /
                      r.peak_bytes_plain);
  std::string result = r.wrapped.empty()     ? "nothing wrapped"
                       : r.passed(tolerance) ? "ok"
                                             : "FAIL";
  return {r.policy,
          std::to_string(r.wrapped.size()),
          r.wrapped.empty() ? "-" : std::to_string(r.recompute_per_backward),
          formatDouble("%.3g", r.max_abs_grad_diff),
          formatBytes(r.peak_bytes_plain),
          formatBytes(r.peak_bytes_checkpointed),
          r.wrapped.empty() ? "-" : saved,
          formatDouble("%.3f s", r.step_seconds_plain),
          formatDouble("%.3f s", r.step_seconds_checkpointed),
          result};
}

void printDemoTable(const std::vector<wrapguard::VerifyResult> &results,
                    const wrapguard::DemoModelOptions &options,
                    torch::Device device, double tolerance) {
  std::cout << "example model: " << options.blocks() << " blocks (LayerNorm, "
            << "Linear " << options.width() << "->" << options.hidden()
            << ", GELU, Linear, Dropout " << options.dropout()
            << "), batch 2x128x" << options.width() << ", device "
            << device.str() << "\n\n";
  const std::vector<std::pair<std::string, std::size_t>> cols = {
      {"policy", 30},     {"wrapped", 8},     {"recompute", 10},
      {"max|dgrad|", 11}, {"peak plain", 12}, {"peak ckpt", 12},
      {"saved", 7},       {"step plain", 11}, {"step ckpt", 10},
      {"result", 0}};
  for (const auto &c : cols)
    std::cout << pad(c.first, c.second);
  std::cout << "\n";
  for (const auto &r : results) {
    std::vector<std::string> cells = demoRow(r, tolerance);
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << pad(cells[i], cols[i].second);
    std::cout << "\n";
  }
  std::cout << "\n";
  for (const auto &r : results)
    for (const auto &w : r.warnings)
      std::cout << "warning: " << r.policy << ": " << w << "\n";
}

int runDemo(const std::string &deviceName, bool json) {
  const std::optional<torch::Device> device = deviceOrError(deviceName);
  if (!device)
    return 2;
  torch::set_num_threads(std::min<int>(2, torch::get_num_threads()));
  auto options =
      wrapguard::DemoModelOptions().blocks(4).width(128).hidden(512).dropout(
          0.1);
  torch::manual_seed(0);
  wrapguard::DemoModel model(options);
  wrapguard::MakeBatch batch = [](torch::Device d) {
    return std::vector<torch::Tensor>{
        torch::randn({2, 128, 128}, torch::TensorOptions().device(d))};
  };
  {
    // Warm-up, so the first policy's times don't include thread-pool and
    // heap start-up.
    auto warm = std::dynamic_pointer_cast<wrapguard::DemoModelImpl>(
        model->clone(*device));
    warm->forward(batch(*device)[0]).square().mean().backward();
  }
  const double tolerance = device->is_cpu() ? 0.0 : 1e-5;
  bool allPassed = true;
  std::vector<wrapguard::VerifyResult> results;
  for (const auto &policy : demoPolicies()) {
    auto r = wrapguard::verify_checkpointing(
        torch::nn::AnyModule(model), policy, batch,
        wrapguard::VerifyOptions().device(*device).timed_steps(2));
    if (!r.wrapped.empty() && !r.passed(tolerance))
      allPassed = false;
    if (json)
      std::cout << r.to_json() << std::endl;
    results.push_back(std::move(r));
  }
  if (json)
    return allPassed ? 0 : 1;
  printDemoTable(results, options, *device, tolerance);
  std::cout << (allPassed
                    ? "every policy that wraps: grads identical to plain, "
                      "one recompute per backward, lower peak memory\n"
                    : "FAILED: see the table\n");
  return allPassed ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --bench: one CheckpointWrapper measurement for tools/bench/bench-shim

struct BenchShape {
  std::int64_t blocks = 8, seq = 512, width = 512, hidden = 2048, batch = 2;
  int steps = 5, threads = 2;
};

int runBench(const std::string &deviceName, const BenchShape &shape,
             bool json) {
  const std::optional<torch::Device> device = deviceOrError(deviceName);
  if (!device)
    return 2;
  torch::set_num_threads(shape.threads);
  torch::manual_seed(0);
  wrapguard::DemoModel model(wrapguard::DemoModelOptions()
                                 .blocks(shape.blocks)
                                 .width(shape.width)
                                 .hidden(shape.hidden)
                                 .dropout(0.1));
  const BenchShape s = shape;
  auto r = wrapguard::verify_checkpointing(
      torch::nn::AnyModule(model),
      wrapguard::WrapPolicy::transformer_based({"DemoBlock"}),
      [s](torch::Device d) {
        return std::vector<torch::Tensor>{torch::randn(
            {s.batch, s.seq, s.width}, torch::TensorOptions().device(d))};
      },
      wrapguard::VerifyOptions().device(*device).timed_steps(shape.steps));
  if (json) {
    std::cout << r.to_json() << std::endl;
  } else {
    std::cout << "plain: " << r.step_seconds_plain << " s, peak "
              << formatBytes(r.peak_bytes_plain)
              << "\ncheckpointed: " << r.step_seconds_checkpointed
              << " s, peak " << formatBytes(r.peak_bytes_checkpointed) << "\n";
  }
  return r.passed(device->is_cpu() ? 0.0 : 1e-5) ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --sites: reading the flagged sites

struct FlaggedSite {
  std::string file;
  int line = 0;
  std::string function;
  std::string message;
};

std::string stripFileUri(std::string uri) {
  if (uri.rfind("file://", 0) == 0)
    uri = uri.substr(7);
  // Undo %20 and friends, which SARIF URIs carry (RFC 3986).
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// The function a SARIF location names. The scanner writes
// `fullyQualifiedName` (issue 10, defect 5); other tools may write only
// `name`.
std::string logicalFunction(const Json &location) {
  for (const Json &logical : location.list("logicalLocations")) {
    std::string name = logical.str("fullyQualifiedName");
    if (name.empty())
      name = logical.str("name");
    if (!name.empty())
      return name;
  }
  return "";
}

std::optional<FlaggedSite> sarifSite(const Json &result) {
  const std::vector<Json> &locations = result.list("locations");
  if (locations.empty())
    return std::nullopt;
  const Json *physical = locations[0].get("physicalLocation");
  if (!physical)
    return std::nullopt;
  const Json *artifact = physical->get("artifactLocation");
  const Json *region = physical->get("region");
  FlaggedSite site;
  site.file = artifact ? stripFileUri(artifact->str("uri")) : "";
  site.line = region ? static_cast<int>(region->num("startLine")) : 0;
  if (const Json *message = result.get("message"))
    site.message = message->str("text");
  site.function = logicalFunction(locations[0]);
  return site;
}

std::vector<FlaggedSite> readJsonSites(const std::string &text,
                                       const std::string &path) {
  Json doc = JsonParser(text).parse();
  std::vector<FlaggedSite> sites;
  if (doc.type == Json::Type::Array) { // the scanner's --format=json
    for (const Json &item : doc.array)
      sites.push_back({item.str("file"), static_cast<int>(item.num("line")),
                       item.str("function"), item.str("message")});
    return sites;
  }
  const Json *runs = doc.get("runs");
  if (!runs || runs->type != Json::Type::Array)
    throw std::runtime_error("'" + path +
                             "' is JSON but neither SARIF (no "
                             "runs) nor the scanner's array");
  for (const Json &run : runs->array)
    for (const Json &result : run.list("results"))
      if (std::optional<FlaggedSite> site = sarifSite(result))
        sites.push_back(std::move(*site));
  return sites;
}

bool isNumber(const std::string &s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// One "file:line" or "file:line:column" line of a text list; the file may
// itself hold colons.
FlaggedSite parseTextSite(const std::string &line, const std::string &path) {
  std::vector<std::string> parts;
  std::size_t pos = 0, colon;
  while ((colon = line.find(':', pos)) != std::string::npos) {
    parts.push_back(line.substr(pos, colon - pos));
    pos = colon + 1;
  }
  parts.push_back(line.substr(pos));
  const std::size_t n = parts.size();
  const std::size_t lineIndex =
      n >= 3 && isNumber(parts[n - 1]) && isNumber(parts[n - 2]) ? n - 2
                                                                 : n - 1;
  if (lineIndex == 0 || !isNumber(parts[lineIndex]) ||
      parts[lineIndex].size() > 9)
    throw std::runtime_error("'" + path + "': expected file:line, got '" +
                             line + "'");
  std::string file = parts[0];
  for (std::size_t i = 1; i < lineIndex; ++i)
    file += ":" + parts[i];
  return {file, std::stoi(parts[lineIndex]), "", ""};
}

std::vector<FlaggedSite> readTextSites(const std::string &text,
                                       const std::string &path) {
  std::vector<FlaggedSite> sites;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#')
      continue;
    line = line.substr(start);
    while (!line.empty() &&
           std::isspace(static_cast<unsigned char>(line.back())))
      line.pop_back();
    sites.push_back(parseTextSite(line, path));
  }
  return sites;
}

std::vector<FlaggedSite> readSites(const std::string &path) {
  std::string text = readFile(path);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '['))
    return readJsonSites(text, path);
  return readTextSites(text, path);
}

// ---------------------------------------------------------------------------
// --sites: joining them with the trace

std::string normalizePath(std::string p) {
  while (p.rfind("./", 0) == 0)
    p = p.substr(2);
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '/' && !out.empty() && out.back() == '/')
      continue;
    out += p[i];
  }
  return out;
}

std::string baseName(const std::string &p) {
  std::size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// Paths match when one is the other or a suffix of it at a '/' boundary
// (absolute __FILE__ vs a path relative to %SRCROOT%).
int pathMatch(const std::string &a0, const std::string &b0) {
  std::string a = normalizePath(a0), b = normalizePath(b0);
  if (a == b)
    return 3;
  const std::string &longer = a.size() > b.size() ? a : b;
  const std::string &shorter = a.size() > b.size() ? b : a;
  if (longer.size() > shorter.size() &&
      longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) ==
          0 &&
      longer[longer.size() - shorter.size() - 1] == '/')
    return 2;
  return baseName(a) == baseName(b) ? 1 : 0;
}

std::string describeVerification(const Json &v) {
  const Json *passed = v.get("passed");
  bool ok = passed && passed->type == Json::Type::Bool && passed->boolean;
  double plain = v.num("peak_bytes_plain"),
         ckpt = v.num("peak_bytes_checkpointed");
  std::string saved =
      plain > 0 ? formatDouble("%.0f%%", 100.0 * (plain - ckpt) / plain) : "?";
  const Json *diff = v.get("max_abs_grad_diff");
  std::string diffText = diff && diff->type == Json::Type::Number
                             ? formatDouble("%.3g", diff->number)
                             : "inf";
  return std::string(ok ? "ok" : "FAIL") + " (" + v.str("policy") + " on " +
         v.str("device") + ": max|dgrad| " + diffText + ", " +
         formatDouble("%.0f", v.num("recompute_per_backward")) +
         " recompute/backward, peak memory -" + saved + ")";
}

// The trace entry of a flagged site: the best path match on the same line,
// else the closest line up to 3 below (a call spread over lines is flagged at
// its start, counted at its end).
const Json *findTraceSite(const FlaggedSite &site, const Json &traceSites) {
  const Json *best = nullptr;
  int bestScore = 0, bestDistance = 99;
  for (const Json &t : traceSites.array) {
    int score = pathMatch(site.file, t.str("file"));
    int distance = static_cast<int>(t.num("line")) - site.line;
    if (!score || distance < 0 || distance > 3)
      continue;
    if (distance < bestDistance ||
        (distance == bestDistance && score > bestScore)) {
      best = &t;
      bestScore = score;
      bestDistance = distance;
    }
  }
  return best;
}

// What one flagged site did at runtime.
struct SiteReport {
  bool reached = false;
  std::uint64_t calls = 0, empty = 0;
  std::vector<std::string> types;   // of the modules its callable wrapped
  std::vector<std::string> results; // verifications covering those types
  std::string summary;
};

std::vector<std::string>
verificationsCovering(const std::vector<std::string> &types,
                      const Json *verifications) {
  std::vector<std::string> results;
  if (types.empty() || !verifications)
    return results;
  for (const Json &v : verifications->array) {
    bool covers = false;
    for (const Json &m : v.list("wrapped_modules"))
      for (const auto &t : types)
        covers = covers || m.str("type") == t;
    if (covers)
      results.push_back(describeVerification(v));
  }
  return results;
}

SiteReport reportSite(const FlaggedSite &site, const Json &traceSites,
                      const Json *verifications) {
  SiteReport r;
  const Json *best = findTraceSite(site, traceSites);
  if (best) {
    r.calls = static_cast<std::uint64_t>(best->num("calls"));
    r.empty = static_cast<std::uint64_t>(best->num("empty_calls"));
    for (const Json &w : best->list("wrapped"))
      r.types.push_back(w.str("type"));
  }
  r.reached = r.calls > 0;
  r.results = verificationsCovering(r.types, verifications);
  if (!r.reached)
    r.summary = "not reached in this run";
  else if (r.types.empty())
    r.summary = r.empty == r.calls
                    ? "callable always empty: wrapped nothing"
                    : "no module info in the trace for this site";
  else
    r.summary = "wrapped " + std::to_string(r.types.size()) +
                " module(s) of type " + r.types[0] +
                (r.results.empty() ? "; no verification in the trace"
                                   : "; verification: " + r.results[0]);
  return r;
}

std::string jsonStringArray(const std::vector<std::string> &items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? ",\"" : "\"") + jsonEscape(items[i]) + "\"";
  return out + "]";
}

void printSiteJson(const FlaggedSite &site, const SiteReport &r) {
  std::cout << "{\"file\":\"" << jsonEscape(site.file)
            << "\",\"line\":" << site.line << ",\"function\":\""
            << jsonEscape(site.function)
            << "\",\"reached\":" << (r.reached ? "true" : "false")
            << ",\"calls\":" << r.calls << ",\"empty_calls\":" << r.empty
            << ",\"wrapped_types\":" << jsonStringArray(r.types)
            << ",\"verifications\":" << jsonStringArray(r.results)
            << ",\"summary\":\"" << jsonEscape(r.summary) << "\"}\n";
}

void printSiteText(const FlaggedSite &site, const SiteReport &r) {
  std::cout << pad(site.file + ":" + std::to_string(site.line), 44)
            << pad(r.reached ? "yes" : "no", 9)
            << pad(std::to_string(r.calls), 7)
            << pad(std::to_string(r.empty), 7) << r.summary << "\n";
}

int runSites(const std::string &sitesPath, const std::string &tracePath,
             bool json) {
  std::vector<FlaggedSite> flagged = readSites(sitesPath);
  Json trace = JsonParser(readFile(tracePath)).parse();
  const Json *traceSites = trace.get("sites");
  if (!traceSites || traceSites->type != Json::Type::Array)
    throw std::runtime_error("'" + tracePath +
                             "' has no \"sites\" array; is it "
                             "a WRAPGUARD_TRACE file?");
  const Json *verifications = trace.get("verifications");
  if (verifications && verifications->type != Json::Type::Array)
    verifications = nullptr;

  int reached = 0;
  if (!json)
    std::cout << pad("flagged site", 44) << pad("reached", 9) << pad("calls", 7)
              << pad("empty", 7) << "wrapped / verification\n";
  for (const FlaggedSite &site : flagged) {
    SiteReport r = reportSite(site, *traceSites, verifications);
    reached += r.reached;
    if (json)
      printSiteJson(site, r);
    else
      printSiteText(site, r);
  }
  if (!json)
    std::cout << "\n"
              << reached << " of " << flagged.size()
              << " flagged sites reached\n";
  return 0;
}

// ---------------------------------------------------------------------------
// The command line

struct Options {
  bool demo = false, bench = false, json = false;
  BenchShape shape;
  std::string device = "cpu", sites, trace;
};

// Parses a whole decimal integer in [min, max] into `out`; false, with a
// message, for anything else (issue 10, defect 3: std::stoll used to throw
// from outside any try and end the process).
template <typename T>
bool parseInteger(const std::string &option, const std::string &text, T min,
                  T max, T &out) {
  long long value = 0;
  const char *begin = text.data(), *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < min ||
      value > max) {
    std::cerr << "wrapguard-verify: " << option << " expects an integer from "
              << min << " to " << max << ", got '" << text << "'\n";
    return false;
  }
  out = static_cast<T>(value);
  return true;
}

// Handles one numeric --bench option; nullopt when `arg` is none of them.
std::optional<bool> parseShapeOption(const std::string &arg,
                                     const std::string &value,
                                     BenchShape &shape) {
  const std::int64_t big = INT64_MAX;
  if (arg == "--blocks")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.blocks);
  if (arg == "--seq")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.seq);
  if (arg == "--width")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.width);
  if (arg == "--hidden")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.hidden);
  if (arg == "--batch")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.batch);
  if (arg == "--steps")
    return parseInteger<int>(arg, value, 0, INT_MAX, shape.steps);
  if (arg == "--threads")
    return parseInteger<int>(arg, value, 1, INT_MAX, shape.threads);
  return std::nullopt;
}

bool takesValue(const std::string &arg) {
  for (const char *name :
       {"--blocks", "--seq", "--width", "--hidden", "--batch", "--steps",
        "--threads", "--device", "--sites", "--trace"})
    if (arg == name)
      return true;
  return false;
}

// Fills `o` from the command line. Returns an exit status when the process
// should end now (0 after --help, 2 on a usage error), else nullopt.
std::optional<int> parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg.rfind("--device=", 0) == 0) {
      value = arg.substr(9);
      arg = "--device";
    } else if (takesValue(arg)) {
      if (i + 1 >= argc) {
        std::cerr << "wrapguard-verify: " << arg << " needs a value\n" << Usage;
        return 2;
      }
      value = argv[++i];
    }
    if (std::optional<bool> ok = parseShapeOption(arg, value, o.shape)) {
      if (!*ok)
        return 2;
    } else if (arg == "--demo") {
      o.demo = true;
    } else if (arg == "--bench") {
      o.bench = true;
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "--device") {
      o.device = value;
    } else if (arg == "--sites") {
      o.sites = value;
    } else if (arg == "--trace") {
      o.trace = value;
    } else if (arg == "-h" || arg == "--help") {
      std::cout << Usage;
      return 0;
    } else {
      std::cerr << "wrapguard-verify: unknown argument '" << arg << "'\n"
                << Usage;
      return 2;
    }
  }
  return std::nullopt;
}

int run(const Options &o) {
  if (o.demo || o.bench) {
    if (o.device != "cpu" && o.device != "cuda") {
      std::cerr << "wrapguard-verify: --device must be cpu or cuda\n";
      return 2;
    }
    return o.bench ? runBench(o.device, o.shape, o.json)
                   : runDemo(o.device, o.json);
  }
  if (!o.sites.empty() && !o.trace.empty())
    return runSites(o.sites, o.trace, o.json);
  std::cerr << Usage;
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (std::optional<int> status = parseArgs(argc, argv, options))
    return *status;
  try {
    return run(options);
  } catch (const c10::Error &e) {
    std::cerr << "wrapguard-verify: " << e.what_without_backtrace() << "\n";
  } catch (const std::exception &e) {
    std::cerr << "wrapguard-verify: " << e.what() << "\n";
  }
  return 1;
}
