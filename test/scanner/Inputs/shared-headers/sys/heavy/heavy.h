// A stand-in for <torch/torch.h>: a system header (-isystem) that most TUs
// reach, heavy at --shared-header-bytes=2000 through the part it includes.
#ifndef HEAVY_HEAVY_H
#define HEAVY_HEAVY_H
#include <heavy/part.h>
namespace heavy {
using Policy = int (*)(int);
inline int identity(int X) { return X; }
} // namespace heavy
#define HEAVY_API 1
// What HEAVY_POLICY names depends on a macro a TU may define first.
#ifdef HEAVY_SMALL
#define HEAVY_POLICY nullptr
#else
#define HEAVY_POLICY &heavy::identity
#endif
#endif
