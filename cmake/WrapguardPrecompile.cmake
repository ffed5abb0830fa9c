# Precompiled headers for wrapguard's own build.
#
# Most of a wrapguard TU's compile time is Clang's AST and dataflow headers,
# or LibTorch's: at -O0 about two thirds of a checker TU. A target that
# compiles several such TUs parses them once, into a PCH (CMake's
# target_precompile_headers; with Clang it also instantiates the headers'
# templates there, -fpch-instantiate-templates), and each TU loads it.
# Measured in docs/ci.md ("The project's own suite").
#
# The headers are external only (Clang, LLVM, LibTorch, GoogleTest, the
# standard library): the PCH never holds a wrapguard header, so the layers'
# include rules (test/layers) and each TU's own includes stay as they are.
# A PCH does let a TU use an external name that it forgot to include; a
# build with -DWRAPGUARD_PCH=OFF shows it. The dogfood scan (test/dogfood.py)
# reads the build's compile commands, PCHs included, as a user's CI would.
#
# -DWRAPGUARD_PCH=OFF builds without them.
option(WRAPGUARD_PCH "Precompile Clang's and LibTorch's headers once per target" ON)

# The headers most of the checker's and the scanner's TUs read.
set(WRAPGUARD_PCH_CLANG
  <clang/AST/ASTContext.h>
  <clang/AST/DeclCXX.h>
  <clang/AST/ExprCXX.h>
  <clang/AST/RecursiveASTVisitor.h>
  <clang/Analysis/FlowSensitive/DataflowAnalysis.h>
  <clang/Basic/SourceManager.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/StringExtras.h>
  <llvm/Support/raw_ostream.h>
  <map>
  <memory>
  <optional>
  <string>
  <vector>)

# The LibTorch headers the shim's TUs read (its public headers include these
# parts, not <torch/torch.h>).
set(WRAPGUARD_PCH_TORCH
  <torch/nn/module.h>
  <torch/nn/modules/container/any.h>
  <torch/nn/modules/container/sequential.h>
  <torch/types.h>
  <map>
  <memory>
  <string>
  <vector>)

# wrapguard_precompile(TARGET HEADER...): TARGET's TUs share one PCH of
# HEADER... (a list above, plus any of the target's own).
# wrapguard_precompile(TARGET REUSE_FROM OTHER): TARGET's TUs load OTHER's
# PCH, which clang accepts only when the two compile alike but for include
# paths and added -D macros: the checker's layers (all -fPIC) share the
# engine's. An executable is built as PIE, which a -fPIC PCH does not match
# ("is pie differs in PCH file"), so the scanner and the unit tests have
# their own.
function(wrapguard_precompile target)
  if(NOT WRAPGUARD_PCH)
    return()
  endif()
  if(ARGV1 STREQUAL "REUSE_FROM")
    target_precompile_headers(${target} REUSE_FROM ${ARGV2})
  else()
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
