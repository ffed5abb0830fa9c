#include "exporter.h"
void Exporter::run(bool loud) {
  if (callback) {
    emit_all();
    return;
  }
  if (loud)
    emit_loud();
}
static void print_it(const char *) {}
void use_exporters() {
  Exporter quiet(nullptr), loud(print_it);
  quiet.run(true);
  loud.run(false);
}
