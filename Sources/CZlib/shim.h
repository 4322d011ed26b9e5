// zlib as installed (zlib1g-dev on Debian, the SDK on macOS); gzip members are inflated with it.
#ifndef SAXDISPATCH_CZLIB_SHIM_H
#define SAXDISPATCH_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2 is a macro over inflateInit2_, which Swift cannot call: this passes the
/// version and stream size the macro would.
static inline int saxdispatch_inflate_init_gzip(z_streamp stream) {
  return inflateInit2(stream, 15 + 16);
}

#endif
