// Below --shared-header-bytes=2000: never shared.
#ifndef LIGHT_LIGHT_H
#define LIGHT_LIGHT_H
namespace light {
using Policy = int (*)(int);
} // namespace light
#endif
