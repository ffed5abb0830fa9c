//===- policy.h - Wrap policies and their application -----------*- C++ -*-===//
//
// WrapPolicy decides which modules to checkpoint; apply_activation_
// checkpointing walks a module tree and wraps what the policy picks. (A
// memory budget picks them instead in plan.h.)
#ifndef WRAPGUARD_POLICY_H
#define WRAPGUARD_POLICY_H

#include <wrapguard/checkpoint.h>

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace wrapguard {

/// What a policy returns for a module it wraps: a callable from the module to
/// its wrapped replacement. An empty `WrapFn` means "don't wrap".
using WrapFn =
    std::function<torch::nn::AnyModule(const torch::nn::AnyModule &module)>;

/// Decides which modules `apply_activation_checkpointing` wraps.
///
/// Example:
/// ```
///   auto policy = wrapguard::WrapPolicy::transformer_based({"Block"});
///   auto report = wrapguard::apply_activation_checkpointing(model, policy);
/// ```
/// Each factory takes the `CheckpointOptions` of the wrappers the policy
/// builds (selective recompute, RNG replay); they are the public `options`.
///
/// Example:
/// ```
///   auto policy = wrapguard::WrapPolicy::transformer_based(
///       {"Block"}, wrapguard::CheckpointOptions().selective(true));
///   auto report = wrapguard::apply_activation_checkpointing(model, policy);
/// ```
class WrapPolicy {
public:
  enum class Kind { no_wrap, size_based, transformer_based, lambda, modules };

  /// Wraps nothing: `resolve` always returns an empty `WrapFn`. Unlike
  /// PyTorch's `None` policy, it never falls back to wrapping everything.
  static WrapPolicy no_wrap();
  /// Wraps a module whose parameters not already inside a `CheckpointWrapper`
  /// number at least `min_num_params` (PyTorch's size_based_auto_wrap_policy).
  static WrapPolicy size_based(std::int64_t min_num_params,
                               CheckpointOptions options = {});
  /// Wraps modules whose type name is in `type_names`. A name matches the
  /// module's `name()` ("torch::nn::LinearImpl"), its unqualified form
  /// ("LinearImpl"), or that without the `Impl` suffix ("Linear").
  static WrapPolicy transformer_based(std::set<std::string> type_names,
                                      CheckpointOptions options = {});
  /// Wraps modules for which `check_fn` returns true.
  static WrapPolicy
  lambda(std::function<bool(const torch::nn::Module &)> check_fn,
         CheckpointOptions options = {});
  /// Wraps the modules at these dotted paths from the root ("blocks.3"), as
  /// a `CheckpointPlan` names them. `apply_activation_checkpointing` checks
  /// that each names a module it can wrap before it wraps anything.
  static WrapPolicy modules(std::set<std::string> paths,
                            CheckpointOptions options = {});

  /// The callable that wraps `module` (found at `path` from the root) in a
  /// `CheckpointWrapper`, or an empty `WrapFn` when this policy does not wrap
  /// it. Only `modules` policies read `path`. Exceptions from a lambda policy
  /// propagate.
  WrapFn resolve(const torch::nn::Module &module,
                 const std::string &path = {}) const;

  /// False when the policy can wrap no module at all (NO_WRAP, or a
  /// transformer or modules policy with no names).
  bool can_wrap() const;

  Kind kind() const { return kind_; }
  /// "NO_WRAP", "SIZE_BASED(min=N)", "TRANSFORMER_BASED(A,B)", "LAMBDA" or
  /// "MODULES(a,b)"; " selective" is appended when `options.selective()`.
  std::string name() const;
  /// The paths of a `modules` policy (empty for the other kinds).
  const std::set<std::string> &paths() const { return names_; }

  /// Options given to every `CheckpointWrapper` this policy builds.
  CheckpointOptions options;

private:
  WrapPolicy(Kind kind, CheckpointOptions options_)
      : options(std::move(options_)), kind_(kind) {}
  Kind kind_;
  std::int64_t min_num_params_ = 0;
  std::set<std::string> names_; // type names, or paths for `modules`
  std::function<bool(const torch::nn::Module &)> check_fn_;
};

namespace detail {

/// A module `apply_activation_checkpointing` can replace: a child of a
/// `torch::nn::Sequential` that has parameters and is not a
/// `CheckpointWrapper` nor inside one.
struct WrapSite {
  std::string path; ///< dotted path from the root
  std::shared_ptr<torch::nn::Module> module;
  torch::nn::SequentialImpl *parent = nullptr;
  std::string key;             ///< its name in `parent`
  bool has_site_below = false; ///< a module inside it is a WrapSite too
};

/// The wrap sites below `root`, in the walk's post-order.
std::vector<WrapSite> wrap_sites(torch::nn::Module &root);

/// Throws a `c10::Error` (naming `policy_name`) unless each of `paths` is a
/// wrap site below `root`: the check a `modules` policy or a plan passes
/// before anything is wrapped.
void check_module_paths(torch::nn::Module &root,
                        const std::set<std::string> &paths,
                        const std::string &policy_name);

/// The module at `site`, as its Sequential holds it.
torch::nn::AnyModule module_at(const WrapSite &site);

/// Puts `replacement` where `site`'s module is: in its Sequential's slot and
/// child registry. Returns what was there.
torch::nn::AnyModule replace_at(const WrapSite &site,
                                torch::nn::AnyModule replacement);

} // namespace detail

/// Parameters of `module` that are not inside a `CheckpointWrapper` below it.
std::int64_t count_unwrapped_params(const torch::nn::Module &module);

/// The module's unqualified type name without a trailing `Impl`
/// ("torch::nn::LinearImpl" -> "Linear").
std::string short_type_name(const torch::nn::Module &module);

/// One module `apply_activation_checkpointing` wrapped.
struct WrappedModule {
  std::string name; ///< dotted path from the root, e.g. "blocks.3"
  std::string type; ///< short type name, e.g. "Block"
  std::int64_t num_params = 0;
  CheckpointWrapper wrapper{nullptr};
};

/// A module the policy matched but that could not be replaced.
struct SkippedModule {
  std::string name;
  std::string type;
  std::string reason;
};

/// What `apply_activation_checkpointing` did.
struct CheckpointReport {
  std::string policy;
  std::int64_t modules_visited = 0;
  std::vector<WrappedModule> wrapped;
  std::vector<SkippedModule> skipped;
  std::vector<std::string> warnings;
  /// Multi-line summary for logs.
  std::string to_string() const;
};

/// Walks the tree below `root` in post-order (children in registration order,
/// each child's subtree before the child itself, the root never wrapped, as
/// PyTorch's `_recursive_wrap`), asks `policy.resolve` for every module and,
/// when it returns a callable, replaces the module with the callable's result
/// (a `CheckpointWrapper`). An empty callable is never called.
///
/// Only children of a `torch::nn::Sequential` can be replaced: other parents
/// call their children directly from C++, so those are reported as skipped.
/// Modules already inside a `CheckpointWrapper` are not visited again.
///
/// Example:
/// ```
///   auto report = wrapguard::apply_activation_checkpointing(
///       model.ptr(), wrapguard::WrapPolicy::size_based(100000));
///   std::cout << report.to_string();
/// ```
CheckpointReport
apply_activation_checkpointing(const std::shared_ptr<torch::nn::Module> &root,
                               const WrapPolicy &policy);

template <typename ModuleType>
CheckpointReport
apply_activation_checkpointing(const torch::nn::ModuleHolder<ModuleType> &root,
                               const WrapPolicy &policy) {
  return apply_activation_checkpointing(
      std::static_pointer_cast<torch::nn::Module>(root.ptr()), policy);
}

/// What the training configuration asks for.
struct CheckpointingRequest {
  TORCH_ARG(bool, activation_checkpointing) = true;
};

/// Throws `c10::ValueError` (Python's `ValueError`) when checkpointing is
/// requested but the policy can wrap nothing (accelerate's fix for its issue
/// #3822 does the same, instead of crashing on a None policy later).
///
/// Example:
/// ```
///   wrapguard::validate_checkpointing(WrapPolicy::no_wrap(), {}); // throws
/// ```
void validate_checkpointing(const WrapPolicy &policy,
                            const CheckpointingRequest &options);

} // namespace wrapguard

#endif // WRAPGUARD_POLICY_H
