#include "ctx.h"

void close_ctx(Ctx *c) { c->finder = nullptr; }

std::size_t run_ctx(Ctx *c, const char *line) {
  if (!c->finder)
    return 0;
  return step(c, line);
}

std::size_t run_ctx_repointed(Ctx *c, Ctx *other, const char *line) {
  if (!c->finder)
    return 0;
  return step_repointed(c, other, line);
}

std::size_t run_ctx_untested(Ctx *c, const char *line) {
  return step_untested(c, line);
}
