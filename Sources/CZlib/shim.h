// zlib as installed (zlib1g-dev on Debian, the SDK on macOS); gzip members are inflated with it.
#ifndef SAXDISPATCH_CZLIB_SHIM_H
#define SAXDISPATCH_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2 is a macro over inflateInit2_, which Swift cannot call: this passes the
/// version and stream size the macro would.
static inline int saxdispatch_inflate_init_gzip(z_streamp stream) {
  return inflateInit2(stream, 15 + 16);
}

/// deflateInit2 is a macro too: a gzip member (window bits 15 + 16) at `level`, zlib's
/// default memory level and strategy.
static inline int saxdispatch_deflate_init_gzip(z_streamp stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
