// wrapguard-verify: runs the shim's verifier on the bundled example model
// (--demo), or joins the analyzer's flagged sites with a runtime trace
// (--sites FILE --trace TRACE).
#include <wrapguard/call.h>
#include <wrapguard/policy.h>
#include <wrapguard/verify.h>

#include <torch/torch.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
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
      Plain vs CheckpointWrapper on a larger model (used by tools/bench-shim).
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
};

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
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
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
    char c = Text[Pos];
    if (c == '{') {
      ++Pos;
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
    } else if (c == '[') {
      ++Pos;
      v.type = Json::Type::Array;
      if (consume(']'))
        return v;
      do
        v.array.push_back(parseValue());
      while (consume(','));
      expect(']');
    } else if (c == '"') {
      v.type = Json::Type::String;
      v.string = parseString();
    } else if (literal("true")) {
      v.type = Json::Type::Bool;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = Json::Type::Bool;
    } else if (literal("null")) {
    } else {
      std::size_t end = Pos;
      while (end < Text.size() &&
             (std::isdigit(static_cast<unsigned char>(Text[end])) ||
              std::string("+-.eE").find(Text[end]) != std::string::npos))
        ++end;
      if (end == Pos)
        fail("unexpected character");
      v.type = Json::Type::Number;
      v.number = std::strtod(Text.substr(Pos, end - Pos).c_str(), nullptr);
      Pos = end;
    }
    return v;
  }

  std::string parseString() {
    if (Pos >= Text.size() || Text[Pos] != '"')
      fail("expected a string");
    ++Pos;
    std::string out;
    while (Pos < Text.size() && Text[Pos] != '"') {
      char c = Text[Pos++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (Pos >= Text.size())
        fail("bad escape");
      char e = Text[Pos++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        if (Pos + 4 > Text.size())
          fail("bad \\u escape");
        unsigned code = std::stoul(Text.substr(Pos, 4), nullptr, 16);
        Pos += 4;
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default: out += e;
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

int runDemo(const std::string &deviceName, bool json) {
  torch::Device device(deviceName);
  if (device.is_cuda() && !torch::cuda::is_available()) {
    std::cerr << "wrapguard-verify: --device cuda requested but CUDA is not "
                 "available in this build or on this machine\n";
    return 2;
  }
  torch::set_num_threads(std::min<int>(2, torch::get_num_threads()));
  auto options = wrapguard::DemoModelOptions()
                     .blocks(4)
                     .width(128)
                     .hidden(512)
                     .dropout(0.1);
  torch::manual_seed(0);
  wrapguard::DemoModel model(options);
  wrapguard::MakeBatch batch = [](torch::Device d) {
    return std::vector<torch::Tensor>{
        torch::randn({2, 128, 128}, torch::TensorOptions().device(d))};
  };

  std::vector<wrapguard::WrapPolicy> policies = {
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

  {
    // Warm-up, so the first policy's times don't include thread-pool and
    // heap start-up.
    auto warm = std::dynamic_pointer_cast<wrapguard::DemoModelImpl>(model->clone(device));
    warm->forward(batch(device)[0]).square().mean().backward();
  }
  const double tolerance = device.is_cpu() ? 0.0 : 1e-5;
  bool allPassed = true;
  std::vector<wrapguard::VerifyResult> results;
  for (const auto &policy : policies) {
    auto r = wrapguard::verify_checkpointing(
        torch::nn::AnyModule(model), policy, batch,
        wrapguard::VerifyOptions().device(device).timed_steps(2));
    if (!r.wrapped.empty() && !r.passed(tolerance))
      allPassed = false;
    if (json)
      std::cout << r.to_json() << std::endl;
    results.push_back(std::move(r));
  }
  if (json)
    return allPassed ? 0 : 1;

  std::cout << "example model: " << options.blocks() << " blocks (LayerNorm, "
            << "Linear " << options.width() << "->" << options.hidden()
            << ", GELU, Linear, Dropout " << options.dropout()
            << "), batch 2x128x" << options.width() << ", device "
            << device.str() << "\n\n";
  const std::vector<std::pair<std::string, std::size_t>> cols = {
      {"policy", 30},      {"wrapped", 8},   {"recompute", 10},
      {"max|dgrad|", 11},  {"peak plain", 12}, {"peak ckpt", 12},
      {"saved", 7},        {"step plain", 11}, {"step ckpt", 10},
      {"result", 0}};
  for (const auto &c : cols)
    std::cout << pad(c.first, c.second);
  std::cout << "\n";
  for (const auto &r : results) {
    std::string saved = "-";
    if (r.peak_bytes_plain > 0)
      saved = formatDouble("%.0f%%", 100.0 * (r.peak_bytes_plain -
                                              r.peak_bytes_checkpointed) /
                                         r.peak_bytes_plain);
    std::string result;
    if (r.wrapped.empty())
      result = "nothing wrapped";
    else if (r.passed(tolerance))
      result = "ok";
    else
      result = "FAIL";
    std::vector<std::string> cells = {
        r.policy,
        std::to_string(r.wrapped.size()),
        r.wrapped.empty() ? "-" : std::to_string(r.recompute_per_backward),
        formatDouble("%.3g", r.max_abs_grad_diff),
        formatBytes(r.peak_bytes_plain),
        formatBytes(r.peak_bytes_checkpointed),
        r.wrapped.empty() ? "-" : saved,
        formatDouble("%.3f s", r.step_seconds_plain),
        formatDouble("%.3f s", r.step_seconds_checkpointed),
        result};
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << pad(cells[i], cols[i].second);
    std::cout << "\n";
  }
  std::cout << "\n";
  for (const auto &r : results)
    for (const auto &w : r.warnings)
      std::cout << "warning: " << r.policy << ": " << w << "\n";
  std::cout << (allPassed ? "every policy that wraps: grads identical to plain, "
                            "one recompute per backward, lower peak memory\n"
                          : "FAILED: see the table\n");
  return allPassed ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --bench: one CheckpointWrapper measurement for tools/bench-shim

struct BenchShape {
  std::int64_t blocks = 8, seq = 512, width = 512, hidden = 2048, batch = 2;
  int steps = 5, threads = 2;
};

int runBench(const std::string &deviceName, const BenchShape &shape, bool json) {
  torch::Device device(deviceName);
  if (device.is_cuda() && !torch::cuda::is_available()) {
    std::cerr << "wrapguard-verify: CUDA is not available\n";
    return 2;
  }
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
      wrapguard::VerifyOptions().device(device).timed_steps(shape.steps));
  if (json) {
    std::cout << r.to_json() << std::endl;
  } else {
    std::cout << "plain: " << r.step_seconds_plain << " s, peak "
              << formatBytes(r.peak_bytes_plain) << "\ncheckpointed: "
              << r.step_seconds_checkpointed << " s, peak "
              << formatBytes(r.peak_bytes_checkpointed) << "\n";
  }
  return r.passed(device.is_cpu() ? 0.0 : 1e-5) ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --sites

struct FlaggedSite {
  std::string file;
  int line = 0;
  std::string function;
  std::string message;
};

std::string stripFileUri(std::string uri) {
  if (uri.rfind("file://", 0) == 0)
    uri = uri.substr(7);
  // Undo %20 and friends, which SARIF URIs may carry.
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

std::vector<FlaggedSite> readSites(const std::string &path) {
  std::string text = readFile(path);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  std::vector<FlaggedSite> sites;
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    Json doc = JsonParser(text).parse();
    if (doc.type == Json::Type::Array) { // the scanner's --format=json
      for (const Json &item : doc.array)
        sites.push_back({item.str("file"), static_cast<int>(item.num("line")),
                         item.str("function"), item.str("message")});
      return sites;
    }
    const Json *runs = doc.get("runs");
    if (!runs || runs->type != Json::Type::Array)
      throw std::runtime_error("'" + path + "' is JSON but neither SARIF (no "
                               "runs) nor the scanner's array");
    for (const Json &run : runs->array) {
      const Json *results = run.get("results");
      if (!results)
        continue;
      for (const Json &result : results->array) {
        const Json *locations = result.get("locations");
        if (!locations || locations->array.empty())
          continue;
        const Json *physical = locations->array[0].get("physicalLocation");
        if (!physical)
          continue;
        const Json *artifact = physical->get("artifactLocation");
        const Json *region = physical->get("region");
        FlaggedSite site;
        site.file = artifact ? stripFileUri(artifact->str("uri")) : "";
        site.line = region ? static_cast<int>(region->num("startLine")) : 0;
        if (const Json *message = result.get("message"))
          site.message = message->str("text");
        if (const Json *logical = locations->array[0].get("logicalLocations"))
          if (!logical->array.empty())
            site.function = logical->array[0].str("name");
        sites.push_back(site);
      }
    }
    return sites;
  }
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#')
      continue;
    line = line.substr(start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
      line.pop_back();
    // file:line or file:line:column
    std::vector<std::string> parts;
    std::size_t pos = 0, colon;
    while ((colon = line.find(':', pos)) != std::string::npos) {
      parts.push_back(line.substr(pos, colon - pos));
      pos = colon + 1;
    }
    parts.push_back(line.substr(pos));
    auto isNumber = [](const std::string &s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    std::size_t lineIndex = parts.size() >= 3 && isNumber(parts[parts.size() - 1]) &&
                                    isNumber(parts[parts.size() - 2])
                                ? parts.size() - 2
                                : parts.size() - 1;
    if (lineIndex == 0 || !isNumber(parts[lineIndex]))
      throw std::runtime_error("'" + path + "': expected file:line, got '" +
                               line + "'");
    std::string file = parts[0];
    for (std::size_t i = 1; i < lineIndex; ++i)
      file += ":" + parts[i];
    sites.push_back({file, std::stoi(parts[lineIndex]), "", ""});
  }
  return sites;
}

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
      longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) == 0 &&
      longer[longer.size() - shorter.size() - 1] == '/')
    return 2;
  return baseName(a) == baseName(b) ? 1 : 0;
}

std::string describeVerification(const Json &v) {
  const Json *passed = v.get("passed");
  bool ok = passed && passed->type == Json::Type::Bool && passed->boolean;
  double plain = v.num("peak_bytes_plain"), ckpt = v.num("peak_bytes_checkpointed");
  std::string saved = plain > 0 ? formatDouble("%.0f%%", 100.0 * (plain - ckpt) / plain) : "?";
  const Json *diff = v.get("max_abs_grad_diff");
  std::string diffText = diff && diff->type == Json::Type::Number
                             ? formatDouble("%.3g", diff->number)
                             : "inf";
  return std::string(ok ? "ok" : "FAIL") + " (" + v.str("policy") + " on " +
         v.str("device") + ": max|dgrad| " + diffText + ", " +
         formatDouble("%.0f", v.num("recompute_per_backward")) +
         " recompute/backward, peak memory -" + saved + ")";
}

int runSites(const std::string &sitesPath, const std::string &tracePath,
             bool json) {
  std::vector<FlaggedSite> flagged = readSites(sitesPath);
  Json trace = JsonParser(readFile(tracePath)).parse();
  const Json *traceSites = trace.get("sites");
  if (!traceSites || traceSites->type != Json::Type::Array)
    throw std::runtime_error("'" + tracePath + "' has no \"sites\" array; is it "
                             "a WRAPGUARD_TRACE file?");
  const Json *verifications = trace.get("verifications");

  int reached = 0;
  if (!json)
    std::cout << pad("flagged site", 44) << pad("reached", 9) << pad("calls", 7)
              << pad("empty", 7) << "wrapped / verification\n";
  for (const FlaggedSite &site : flagged) {
    // Best path match on the same line; else the closest line up to 3 below
    // (a call spread over lines is flagged at its start, counted at its end).
    const Json *best = nullptr;
    int bestScore = 0, bestDistance = 99;
    for (const Json &t : traceSites->array) {
      int score = pathMatch(site.file, t.str("file"));
      int distance = static_cast<int>(t.num("line")) - site.line;
      if (!score || distance < 0 || distance > 3)
        continue;
      if (distance < bestDistance || (distance == bestDistance && score > bestScore)) {
        best = &t;
        bestScore = score;
        bestDistance = distance;
      }
    }
    std::uint64_t calls = best ? static_cast<std::uint64_t>(best->num("calls")) : 0;
    std::uint64_t empty = best ? static_cast<std::uint64_t>(best->num("empty_calls")) : 0;
    if (best && calls > 0)
      ++reached;

    // What the site's callable wrapped, and what the verifier said about it.
    std::vector<std::string> types;
    if (best)
      if (const Json *wrapped = best->get("wrapped"))
        for (const Json &w : wrapped->array)
          types.push_back(w.str("type"));
    std::vector<std::string> results;
    if (!types.empty() && verifications) {
      for (const Json &v : verifications->array) {
        const Json *mods = v.get("wrapped_modules");
        bool covers = false;
        if (mods)
          for (const Json &m : mods->array)
            for (const auto &t : types)
              covers = covers || m.str("type") == t;
        if (covers)
          results.push_back(describeVerification(v));
      }
    }
    std::string detail;
    if (!best || calls == 0)
      detail = "not reached in this run";
    else if (types.empty())
      detail = empty == calls ? "callable always empty: wrapped nothing"
                              : "no module info in the trace for this site";
    else {
      detail = "wrapped " + std::to_string(types.size()) + " module(s) of type " + types[0];
      detail += results.empty() ? "; no verification in the trace"
                                : "; verification: " + results[0];
    }

    if (json) {
      std::cout << "{\"file\":\"" << jsonEscape(site.file) << "\",\"line\":" << site.line
                << ",\"reached\":" << (best && calls ? "true" : "false")
                << ",\"calls\":" << calls << ",\"empty_calls\":" << empty
                << ",\"wrapped_types\":[";
      for (std::size_t i = 0; i < types.size(); ++i)
        std::cout << (i ? "," : "") << "\"" << jsonEscape(types[i]) << "\"";
      std::cout << "],\"verifications\":[";
      for (std::size_t i = 0; i < results.size(); ++i)
        std::cout << (i ? "," : "") << "\"" << jsonEscape(results[i]) << "\"";
      std::cout << "],\"summary\":\"" << jsonEscape(detail) << "\"}\n";
    } else {
      std::cout << pad(site.file + ":" + std::to_string(site.line), 44)
                << pad(best && calls ? "yes" : "no", 9) << pad(std::to_string(calls), 7)
                << pad(std::to_string(empty), 7) << detail << "\n";
    }
  }
  if (!json)
    std::cout << "\n" << reached << " of " << flagged.size()
              << " flagged sites reached\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  bool demo = false, json = false, bench = false;
  BenchShape shape;
  std::string device = "cpu", sites, trace;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &name) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "wrapguard-verify: " << name << " needs a value\n" << Usage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--demo")
      demo = true;
    else if (arg == "--bench")
      bench = true;
    else if (arg == "--blocks")
      shape.blocks = std::stoll(value(arg));
    else if (arg == "--seq")
      shape.seq = std::stoll(value(arg));
    else if (arg == "--width")
      shape.width = std::stoll(value(arg));
    else if (arg == "--hidden")
      shape.hidden = std::stoll(value(arg));
    else if (arg == "--batch")
      shape.batch = std::stoll(value(arg));
    else if (arg == "--steps")
      shape.steps = std::stoi(value(arg));
    else if (arg == "--threads")
      shape.threads = std::stoi(value(arg));
    else if (arg == "--json")
      json = true;
    else if (arg == "--device")
      device = value(arg);
    else if (arg.rfind("--device=", 0) == 0)
      device = arg.substr(9);
    else if (arg == "--sites")
      sites = value(arg);
    else if (arg == "--trace")
      trace = value(arg);
    else if (arg == "-h" || arg == "--help") {
      std::cout << Usage;
      return 0;
    } else {
      std::cerr << "wrapguard-verify: unknown argument '" << arg << "'\n" << Usage;
      return 2;
    }
  }
  try {
    if (demo || bench) {
      if (device != "cpu" && device != "cuda") {
        std::cerr << "wrapguard-verify: --device must be cpu or cuda\n";
        return 2;
      }
      return bench ? runBench(device, shape, json) : runDemo(device, json);
    }
    if (!sites.empty() && !trace.empty())
      return runSites(sites, trace, json);
  } catch (const std::exception &e) {
    std::cerr << "wrapguard-verify: " << e.what() << "\n";
    return 1;
  }
  std::cerr << Usage;
  return 2;
}
