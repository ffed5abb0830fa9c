#include "stream.h"

// Hands its object on as it came: its callers' test holds in read_field.
std::size_t Stream::parse_field(const char *line) {
  std::size_t n = read_field(line, pos_);
  pos_ = n;
  return n;
}

std::size_t Stream::read_field(const char *line, std::size_t at) {
  return finder_(line, at);
}

// Calls another non-const method of its object first.
std::size_t Stream::parse_field_reset(const char *line) {
  reset();
  return read_field_reset(line, pos_);
}

std::size_t Stream::read_field_reset(const char *line, std::size_t at) {
  return finder_(line, at);
}

// Hands its object on as it came, but its caller tests nothing.
std::size_t Stream::parse_field_untested(const char *line) {
  return read_field_untested(line, pos_);
}

std::size_t Stream::read_field_untested(const char *line, std::size_t at) {
  return finder_(line, at);
}

// Runs the helper in a loop.
std::size_t Stream::parse_field_loop(const char *line) {
  std::size_t n = 0;
  for (int i = 0; i < 2; ++i)
    n += read_field_loop(line, n);
  return n;
}

std::size_t Stream::read_field_loop(const char *line, std::size_t at) {
  return finder_(line, at);
}
