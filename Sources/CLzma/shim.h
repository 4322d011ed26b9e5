// liblzma as installed (liblzma-dev on Debian, the SDK or Homebrew's xz on macOS).
#ifndef SAXDISPATCH_CLZMA_SHIM_H
#define SAXDISPATCH_CLZMA_SHIM_H

#include <lzma.h>

/// LZMA_STREAM_INIT is a compound literal Swift cannot import: a zeroed stream is the same.
static inline lzma_stream saxdispatch_lzma_stream_init(void) {
  lzma_stream stream = LZMA_STREAM_INIT;
  return stream;
}

/// LZMA_CONCATENATED is written with UINT32_C, which Swift does not import: the decoder
/// flag that reads concatenated streams and the padding between them.
static inline uint32_t saxdispatch_lzma_concatenated(void) {
  return LZMA_CONCATENATED;
}

#endif
