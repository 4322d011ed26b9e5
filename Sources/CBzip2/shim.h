// libbz2 as installed (libbz2-dev on Debian, the SDK on macOS).
#ifndef SAXDISPATCH_CBZIP2_SHIM_H
#define SAXDISPATCH_CBZIP2_SHIM_H

#include <bzlib.h>

#endif
