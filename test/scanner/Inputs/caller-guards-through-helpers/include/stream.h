#pragma once
#include <cstddef>

using Finder = std::size_t (*)(const char *, std::size_t);

// libpqxx's stream_query in small: the finder doubles as "not done", close()
// empties it, and the private helpers that call it run only from methods
// that test it first.
class Stream {
public:
  explicit Stream(Finder f) : finder_(f) {}
  bool done() const { return finder_ == nullptr; }
  void close() { finder_ = nullptr; }
  void reset();

  std::size_t parse_line(const char *line);
  std::size_t parse_after_reset(const char *line);
  std::size_t parse_untested(const char *line);
  std::size_t parse_each(const char *line);

private:
  std::size_t parse_field(const char *line);
  std::size_t read_field(const char *line, std::size_t at);
  std::size_t parse_field_reset(const char *line);
  std::size_t read_field_reset(const char *line, std::size_t at);
  std::size_t parse_field_untested(const char *line);
  std::size_t read_field_untested(const char *line, std::size_t at);
  std::size_t parse_field_loop(const char *line);
  std::size_t read_field_loop(const char *line, std::size_t at);

  Finder finder_;
  std::size_t pos_ = 0;
};
