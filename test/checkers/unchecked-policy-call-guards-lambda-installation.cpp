// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A lambda made only where the field it calls through was tested set exists
// only for objects whose field is set (imgui remaps its legacy clipboard
// handlers with `if (io.GetClipboardTextFn != NULL) platform.get = [](Ctx *c)
// { return c->IO.GetClipboardTextFn(c->IO.user); };`). The test where the
// lambda is made is the evidence that the field is set where it runs, so the
// default mode stays quiet; StrictMode, which needs proof, still reports it.

#include <cstddef>

struct Context;
using GetTextFn = const char *(*)(void *user);
using PlatformGetFn = const char *(*)(Context *ctx);

struct IO {
  GetTextFn get_text = nullptr; // Set by the user, or not at all.
  GetTextFn get_title = nullptr;
  GetTextFn get_status = nullptr;
  void *user = nullptr;
};

struct Platform {
  PlatformGetFn get_text = nullptr;
  PlatformGetFn get_title = nullptr;
  PlatformGetFn get_status = nullptr;
};

struct Context {
  IO io;
  Platform platform;
};

void new_frame(Context &g) {
  // Hard negative: made under the test of the field it calls through.
  if (g.io.get_text != NULL && g.platform.get_text == NULL)
    g.platform.get_text = [](Context *ctx) {
      return ctx->io.get_text(ctx->io.user); // no-warning
      // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:14: warning: call through possibly empty callable 'ctx->io.get_text' [wrapguard-unchecked-policy-call]
    };

  // Hard negative: after an early exit on the empty field.
  if (!g.io.get_title)
    return;
  g.platform.get_title = [](Context *ctx) {
    return ctx->io.get_title(ctx->io.user); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'ctx->io.get_title' [wrapguard-unchecked-policy-call]
  };
}

// True neighbour: the same lambda, made where the field it calls through was
// not tested (the test is of another field).
void remap_status(Context &g) {
  if (g.platform.get_status == NULL)
    g.platform.get_status = [](Context *ctx) {
      return ctx->io.get_status(ctx->io.user);
      // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:14: warning: call through possibly empty callable 'ctx->io.get_status' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:14: warning: call through possibly empty callable 'ctx->io.get_status' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-3]]:14: note: check that 'ctx->io.get_status' is not empty before this call, e.g. 'if (ctx->io.get_status)'
      // CHECK-NOTES: :[[@LINE-4]]:14: note: a value from 'IO::get_status' is checked for emptiness in 'status_of' ({{.*}}.cpp:[[@LINE+5]])
    };
}

const char *status_of(Context &g) {
  return g.io.get_status ? g.io.get_status(g.io.user) : "";
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
