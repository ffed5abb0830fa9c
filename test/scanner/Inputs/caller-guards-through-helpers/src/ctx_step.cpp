#include "ctx.h"

// Hands its parameter on as it came.
std::size_t step(Ctx *c, const char *line) {
  c->pos = 0;
  return inner(c, line);
}

std::size_t inner(Ctx *c, const char *line) { return c->finder(line, c->pos); }

// Repoints its parameter first.
std::size_t step_repointed(Ctx *c, Ctx *other, const char *line) {
  c = other;
  return inner_repointed(c, line);
}

std::size_t inner_repointed(Ctx *c, const char *line) {
  return c->finder(line, c->pos);
}

// Hands it on as it came, but its caller tests nothing.
std::size_t step_untested(Ctx *c, const char *line) {
  return inner_untested(c, line);
}

std::size_t inner_untested(Ctx *c, const char *line) {
  return c->finder(line, c->pos);
}
