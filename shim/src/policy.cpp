//===- policy.cpp - Wrap policies and their application -------------------===//
//
// WrapPolicy, the post-order walk of apply_activation_checkpointing that
// replaces what a policy picks, and the wrap sites the planner reuses.
#include <wrapguard/checkpoint.h>
#include <wrapguard/policy.h>

#include <c10/util/Exception.h>
#include <torch/nn/modules/container/sequential.h>

#include <set>
#include <sstream>

namespace wrapguard {

std::string short_type_name(const torch::nn::Module &module) {
  std::string name = module.name();
  // Strip template arguments before looking for the last scope.
  std::string base = name.substr(0, name.find('<'));
  auto scope = base.rfind("::");
  if (scope != std::string::npos)
    base = base.substr(scope + 2);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, "Impl") == 0)
    base.resize(base.size() - 4);
  return base;
}

std::int64_t count_unwrapped_params(const torch::nn::Module &module) {
  if (dynamic_cast<const CheckpointWrapperImpl *>(&module))
    return 0;
  std::int64_t total = 0;
  for (const auto &p : module.named_parameters(/*recurse=*/false))
    total += p.value().numel();
  for (const auto &child : module.children())
    total += count_unwrapped_params(*child);
  return total;
}

WrapPolicy WrapPolicy::no_wrap() { return WrapPolicy(Kind::no_wrap, {}); }

WrapPolicy WrapPolicy::size_based(std::int64_t min_num_params,
                                  CheckpointOptions options) {
  TORCH_CHECK(min_num_params >= 0,
              "wrapguard::WrapPolicy::size_based: "
              "min_num_params must be >= 0, got ",
              min_num_params);
  WrapPolicy p(Kind::size_based, std::move(options));
  p.min_num_params_ = min_num_params;
  return p;
}

WrapPolicy WrapPolicy::transformer_based(std::set<std::string> type_names,
                                         CheckpointOptions options) {
  WrapPolicy p(Kind::transformer_based, std::move(options));
  p.names_ = std::move(type_names);
  return p;
}

WrapPolicy
WrapPolicy::lambda(std::function<bool(const torch::nn::Module &)> check_fn,
                   CheckpointOptions options) {
  TORCH_CHECK(check_fn, "wrapguard::WrapPolicy::lambda: check_fn is empty");
  WrapPolicy p(Kind::lambda, std::move(options));
  p.check_fn_ = std::move(check_fn);
  return p;
}

WrapPolicy WrapPolicy::modules(std::set<std::string> paths,
                               CheckpointOptions options) {
  WrapPolicy p(Kind::modules, std::move(options));
  p.names_ = std::move(paths);
  return p;
}

bool WrapPolicy::can_wrap() const {
  switch (kind_) {
  case Kind::no_wrap:
    return false;
  case Kind::transformer_based:
  case Kind::modules:
    return !names_.empty();
  default:
    return true;
  }
}

std::string WrapPolicy::name() const {
  auto list = [this](std::string out) {
    bool first = true;
    for (const auto &n : names_) {
      out += (first ? "" : ",") + n;
      first = false;
    }
    return out + ")";
  };
  std::string out = "?";
  switch (kind_) {
  case Kind::no_wrap:
    return "NO_WRAP"; // wraps nothing, so its options don't matter
  case Kind::size_based:
    out = "SIZE_BASED(min=" + std::to_string(min_num_params_) + ")";
    break;
  case Kind::transformer_based:
    out = list("TRANSFORMER_BASED(");
    break;
  case Kind::lambda:
    out = "LAMBDA";
    break;
  case Kind::modules:
    out = list("MODULES(");
    break;
  }
  return options.selective() ? out + " selective" : out;
}

WrapFn WrapPolicy::resolve(const torch::nn::Module &module,
                           const std::string &path) const {
  if (dynamic_cast<const CheckpointWrapperImpl *>(&module))
    return {};
  bool wrap = false;
  switch (kind_) {
  case Kind::no_wrap:
    break;
  case Kind::size_based:
    wrap = count_unwrapped_params(module) >= min_num_params_;
    break;
  case Kind::transformer_based: {
    std::string full = module.name();
    std::string base = full.substr(0, full.find('<'));
    auto scope = base.rfind("::");
    std::string unqualified =
        scope == std::string::npos ? base : base.substr(scope + 2);
    wrap = names_.count(full) || names_.count(unqualified) ||
           names_.count(short_type_name(module));
    break;
  }
  case Kind::lambda:
    wrap = check_fn_(module);
    break;
  case Kind::modules:
    wrap = names_.count(path) > 0;
    break;
  }
  if (!wrap)
    return {};
  return [options = options](const torch::nn::AnyModule &m) {
    return torch::nn::AnyModule(
        CheckpointWrapper(std::make_shared<CheckpointWrapperImpl>(m, options)));
  };
}

namespace detail {
namespace {

void collect_sites(torch::nn::Module &parent, const std::string &prefix,
                   std::vector<WrapSite> &out) {
  auto *seq = dynamic_cast<torch::nn::SequentialImpl *>(&parent);
  for (const auto &item : parent.named_children()) {
    const std::shared_ptr<torch::nn::Module> &child = item.value();
    if (dynamic_cast<CheckpointWrapperImpl *>(child.get()))
      continue;
    const std::string path =
        prefix.empty() ? item.key() : prefix + "." + item.key();
    const std::size_t first_below = out.size();
    collect_sites(*child, path, out);
    if (seq && !child->parameters().empty())
      out.push_back({path, child, seq, item.key(), out.size() > first_below});
  }
}

} // namespace

std::vector<WrapSite> wrap_sites(torch::nn::Module &root) {
  std::vector<WrapSite> out;
  collect_sites(root, "", out);
  return out;
}

namespace {

// The Sequential's slot of the module now registered under `site.key` (the
// site's module, or what replaced it).
torch::nn::AnyModule &slot_of(const WrapSite &site) {
  torch::nn::SequentialImpl &seq = *site.parent;
  const auto current = seq.named_children()[site.key];
  std::size_t index = 0;
  while (index < seq.size() && seq.ptr(index).get() != current.get())
    ++index;
  TORCH_INTERNAL_ASSERT(index < seq.size(),
                        "child of a Sequential not among its modules");
  return *(seq.begin() + index);
}

} // namespace

torch::nn::AnyModule module_at(const WrapSite &site) { return slot_of(site); }

torch::nn::AnyModule replace_at(const WrapSite &site,
                                torch::nn::AnyModule replacement) {
  torch::nn::SequentialImpl &seq = *site.parent;
  torch::nn::AnyModule &slot = slot_of(site);
  torch::nn::AnyModule previous = slot;
  slot = replacement;
  seq.replace_module(site.key, replacement.ptr());
  return previous;
}

} // namespace detail

// ---------------------------------------------------------------------------
// apply_activation_checkpointing

namespace {

// policy.resolve(module), with errors that say which module the policy threw
// for: a c10::Error keeps its type and backtrace and gains that context; any
// other exception becomes a c10::Error with its message.
WrapFn resolve_or_explain(const WrapPolicy &policy,
                          const torch::nn::Module &module,
                          const std::string &path) {
  try {
    return policy.resolve(module, path);
  } catch (c10::Error &e) {
    TORCH_RETHROW(e, "wrapguard::apply_activation_checkpointing: policy ",
                  policy.name(), " threw for module '", path, "' (",
                  short_type_name(module), ")");
  } catch (const std::exception &e) {
    TORCH_CHECK(false, "wrapguard::apply_activation_checkpointing: policy ",
                policy.name(), " threw for module '", path, "' (",
                short_type_name(module), "): ", e.what());
  }
}

void wrap_children(torch::nn::Module &parent, const std::string &prefix,
                   const WrapPolicy &policy, CheckpointReport &report) {
  auto *seq = dynamic_cast<torch::nn::SequentialImpl *>(&parent);
  for (const auto &item : parent.named_children()) {
    const std::string &key = item.key();
    const std::shared_ptr<torch::nn::Module> &child = item.value();
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    if (dynamic_cast<CheckpointWrapperImpl *>(child.get()))
      continue; // already checkpointed: never wrap or recompute twice
    ++report.modules_visited;
    wrap_children(*child, path, policy, report);

    WrapFn wrap = resolve_or_explain(policy, *child, path);
    if (!wrap)
      continue;
    const std::string type = short_type_name(*child);
    const std::int64_t params = count_unwrapped_params(*child);
    if (child->parameters().empty()) {
      report.skipped.push_back(
          {path, type, "no parameters: nothing to checkpoint it for"});
      continue;
    }
    if (!seq) {
      report.skipped.push_back(
          {path, type,
           "its parent " + short_type_name(parent) +
               " is not a torch::nn::Sequential and calls it directly; wrap "
               "it by hand with wrapguard::CheckpointWrapper"});
      continue;
    }
    const detail::WrapSite site{path, child, seq, key};
    torch::nn::AnyModule wrapped = wrap(detail::module_at(site));
    TORCH_CHECK(!wrapped.is_empty(),
                "wrapguard::apply_activation_checkpointing:"
                " the wrap callable of policy ",
                policy.name(), " returned an empty module for '", path, "'");
    detail::replace_at(site, wrapped);
    WrappedModule entry;
    entry.name = path;
    entry.type = type;
    entry.num_params = params;
    entry.wrapper = CheckpointWrapper(
        std::dynamic_pointer_cast<CheckpointWrapperImpl>(wrapped.ptr()));
    report.wrapped.push_back(std::move(entry));
  }
}

// Why `path` names no module a `modules` policy can wrap.
std::string why_not_a_site(torch::nn::Module &root, const std::string &path) {
  if (path.empty())
    return "is the root, which is never wrapped";
  torch::nn::Module *module = &root, *parent = nullptr;
  std::istringstream parts(path);
  for (std::string part; std::getline(parts, part, '.');) {
    if (dynamic_cast<CheckpointWrapperImpl *>(module))
      return "is inside a CheckpointWrapper";
    const auto children = module->named_children();
    if (!children.contains(part))
      return "is not in the model";
    parent = module;
    module = children[part].get();
  }
  if (dynamic_cast<CheckpointWrapperImpl *>(module))
    return "is a CheckpointWrapper already";
  if (module->parameters().empty())
    return "has no parameters";
  if (!dynamic_cast<torch::nn::SequentialImpl *>(parent))
    return "is not a child of a torch::nn::Sequential, so it cannot be "
           "replaced";
  return "cannot be wrapped";
}

} // namespace

namespace detail {

void check_module_paths(torch::nn::Module &root,
                        const std::set<std::string> &paths,
                        const std::string &policy_name) {
  std::set<std::string> sites;
  for (const WrapSite &site : wrap_sites(root))
    sites.insert(site.path);
  for (const std::string &path : paths)
    TORCH_CHECK(sites.count(path),
                "wrapguard::apply_activation_checkpointing: ", policy_name,
                " names '", path, "', which ", why_not_a_site(root, path),
                "; nothing was wrapped");
}

} // namespace detail

CheckpointReport
apply_activation_checkpointing(const std::shared_ptr<torch::nn::Module> &root,
                               const WrapPolicy &policy) {
  TORCH_CHECK(root, "wrapguard::apply_activation_checkpointing: root is null");
  if (policy.kind() == WrapPolicy::Kind::modules)
    detail::check_module_paths(*root, policy.paths(), policy.name());
  CheckpointReport report;
  report.policy = policy.name();
  if (policy.kind() == WrapPolicy::Kind::no_wrap) {
    report.warnings.push_back(
        "activation checkpointing with policy NO_WRAP wraps nothing, so "
        "nothing is checkpointed (PyTorch's None policy would wrap every "
        "module instead)");
    return report;
  }
  wrap_children(*root, "", policy, report);
  if (report.wrapped.empty())
    report.warnings.push_back("policy " + policy.name() +
                              " wrapped no module; nothing is checkpointed");
  for (const auto &s : report.skipped)
    report.warnings.push_back("not wrapped: '" + s.name + "' (" + s.type +
                              "): " + s.reason);
  return report;
}

std::string CheckpointReport::to_string() const {
  std::ostringstream out;
  out << "policy " << policy << ": wrapped " << wrapped.size() << " of "
      << modules_visited << " modules\n";
  for (const auto &w : wrapped)
    out << "  wrapped " << w.name << " (" << w.type << ", " << w.num_params
        << " params)\n";
  for (const auto &w : warnings)
    out << "  warning: " << w << "\n";
  return out.str();
}

void validate_checkpointing(const WrapPolicy &policy,
                            const CheckpointingRequest &options) {
  TORCH_CHECK_VALUE(
      !options.activation_checkpointing() || policy.can_wrap(),
      "activation checkpointing is enabled but the wrap policy ", policy.name(),
      " wraps no module; choose a size-based, transformer-based or lambda "
      "policy, or disable activation checkpointing");
}

} // namespace wrapguard
