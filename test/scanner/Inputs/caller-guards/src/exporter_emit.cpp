#include "exporter.h"
void Exporter::emit_all() { callback("all"); }
void Exporter::emit_loud() { callback("loud"); }
