#include "stream.h"

static std::size_t find_tab(const char *line, std::size_t at) {
  while (line[at] && line[at] != '\t')
    ++at;
  return at;
}

std::size_t use(const char *line) {
  Stream s(find_tab);
  std::size_t n = s.parse_line(line) + s.parse_after_reset(line) +
                  s.parse_untested(line) + s.parse_each(line);
  s.close();
  return n;
}
