#include "trainer.h"

float apply_activation(const Registry &reg, const Config &cfg, float x) {
  const Act *fn = reg.get(cfg.activation);
  return (*fn)(x);
}

float apply_known(std::map<std::string, Act> &table, const std::string &name,
                  float x) {
  if (table.find(name) != table.end())
    return table[name](x);
  return x;
}

float apply_counted(std::map<std::string, Act> &table,
                    const std::string &name, float x) {
  if (!table.count(name))
    return x;
  return table[name](x);
}

float map_value(const Act &fn, float x) { return fn(x); }

float scale_all(float x) {
  float y = map_value([](float v) { return v * 2; }, x);
  return apply_template([](float v) { return v + 1; }, y);
}
