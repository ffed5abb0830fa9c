#pragma once
#include "stream.h"

// The same in C style: a context handed down through helpers.
struct Ctx {
  Finder finder;
  std::size_t pos;
};

void close_ctx(Ctx *c);
std::size_t run_ctx(Ctx *c, const char *line);
std::size_t run_ctx_repointed(Ctx *c, Ctx *other, const char *line);
std::size_t run_ctx_untested(Ctx *c, const char *line);
std::size_t step(Ctx *c, const char *line);
std::size_t step_repointed(Ctx *c, Ctx *other, const char *line);
std::size_t step_untested(Ctx *c, const char *line);
std::size_t inner(Ctx *c, const char *line);
std::size_t inner_repointed(Ctx *c, const char *line);
std::size_t inner_untested(Ctx *c, const char *line);
