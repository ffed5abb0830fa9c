#include "stream.h"

std::size_t Stream::parse_line(const char *line) {
  if (done())
    return 0;
  return parse_field(line);
}

std::size_t Stream::parse_after_reset(const char *line) {
  if (done())
    return 0;
  return parse_field_reset(line);
}

std::size_t Stream::parse_untested(const char *line) {
  return parse_field_untested(line);
}

std::size_t Stream::parse_each(const char *line) {
  if (done())
    return 0;
  return parse_field_loop(line);
}

void Stream::reset() { pos_ = 0; }
