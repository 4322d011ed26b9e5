// libzstd's streaming decompressor, loaded at run time.
//
// Many machines have libzstd's run-time library (libzstd1, which much of the system uses)
// but not its headers, and the package must build there: so nothing here needs zstd.h.
// The few functions used are looked up with dlopen/dlsym on first use; their signatures
// and the two buffer structures are zstd's stable API (zstd 1.0 and later).
#ifndef SAXDISPATCH_ZSTD_LOADER_H
#define SAXDISPATCH_ZSTD_LOADER_H

#include <stddef.h>

/// zstd's ZSTD_inBuffer: compressed bytes and how many the decompressor consumed.
typedef struct {
  const void *src;
  size_t size;
  size_t pos;
} saxdispatch_zstd_input;

/// zstd's ZSTD_outBuffer: room for decompressed bytes and how many were written.
typedef struct {
  void *dst;
  size_t size;
  size_t pos;
} saxdispatch_zstd_output;

/// Loads libzstd the first time it is called (thread-safe); 1 when its functions are
/// available, 0 when the library or one of them is missing.
int saxdispatch_zstd_load(void);

/// ZSTD_createDStream; NULL when libzstd is not loaded or memory is short.
void *saxdispatch_zstd_create(void);

/// ZSTD_freeDStream; does nothing for NULL.
void saxdispatch_zstd_free(void *stream);

/// ZSTD_decompressStream: 0 when a frame was completely decoded and flushed, an error code
/// (see saxdispatch_zstd_is_error), or a hint of how many more input bytes the frame needs.
size_t saxdispatch_zstd_decompress(void *stream, saxdispatch_zstd_output *output, saxdispatch_zstd_input *input);

/// ZSTD_isError.
int saxdispatch_zstd_is_error(size_t code);

/// ZSTD_getErrorName: a static string describing an error code.
const char *saxdispatch_zstd_error_name(size_t code);

/// 1 when the loaded libzstd also compresses (ZSTD_createCCtx, ZSTD_CCtx_setParameter,
/// ZSTD_compressStream2, ZSTD_freeCCtx), 0 otherwise.
int saxdispatch_zstd_load_compressor(void);

/// ZSTD_createCCtx with ZSTD_c_compressionLevel set to `level`; NULL when libzstd is not
/// loaded, does not compress, or memory is short.
void *saxdispatch_zstd_create_compressor(int level);

/// ZSTD_freeCCtx; does nothing for NULL.
void saxdispatch_zstd_free_compressor(void *context);

/// ZSTD_compressStream2 with ZSTD_e_continue (`end` 0) or ZSTD_e_end (`end` 1): an error
/// code, or how many bytes are still to be flushed (0 once a frame is complete).
size_t saxdispatch_zstd_compress(void *context, saxdispatch_zstd_output *output, saxdispatch_zstd_input *input, int end);

#endif
