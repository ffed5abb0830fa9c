#include "traits.h"
static void q8(const float *, void *, long) {}
static const Traits table[3] = {{"f32", q8}, {"q8", q8}, {"iq", nullptr}};
const Traits *get_traits(int type) { return &table[type]; }
