#include "zstd_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void *(*create_function)(void);
typedef size_t (*free_function)(void *);
typedef size_t (*decompress_function)(void *, saxdispatch_zstd_output *, saxdispatch_zstd_input *);
typedef unsigned (*is_error_function)(size_t);
typedef const char *(*error_name_function)(size_t);

typedef void *(*create_compressor_function)(void);
typedef size_t (*free_compressor_function)(void *);
typedef size_t (*set_parameter_function)(void *, int, int);
typedef size_t (*compress_function)(void *, saxdispatch_zstd_output *, saxdispatch_zstd_input *, int);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static create_function create_stream;
static free_function free_stream;
static decompress_function decompress_stream;
static is_error_function is_error;
static error_name_function error_name;
static create_compressor_function create_compressor;
static free_compressor_function free_compressor;
static set_parameter_function set_parameter;
static compress_function compress_stream;
static int compresses = 0;

// zstd.h's values, stable since libzstd 1.4.0 (ZSTD_c_compressionLevel, ZSTD_e_continue, ZSTD_e_end).
enum { zstd_c_compression_level = 100, zstd_e_continue = 0, zstd_e_end = 2 };

// The run-time library's names: Debian's package, then macOS (Homebrew on Apple silicon
// and on Intel, then the dynamic linker's own search).
static const char *const library_names[] = {
    "libzstd.so.1",
    "libzstd.so",
    "/opt/homebrew/lib/libzstd.1.dylib",
    "/usr/local/lib/libzstd.1.dylib",
    "libzstd.1.dylib",
};

static void load(void) {
  void *library = NULL;
  // SAXDISPATCH_LIBZSTD names the library to load instead (a build of its own, another
  // prefix); nothing else is tried then, so a wrong name is an error, not another library.
  const char *chosen = getenv("SAXDISPATCH_LIBZSTD");
  if (chosen && *chosen) {
    library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
  } else {
    for (size_t index = 0; index < sizeof library_names / sizeof library_names[0] && !library; index++) {
      library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
    }
  }
  if (!library) return;
  create_stream = (create_function)dlsym(library, "ZSTD_createDStream");
  free_stream = (free_function)dlsym(library, "ZSTD_freeDStream");
  decompress_stream = (decompress_function)dlsym(library, "ZSTD_decompressStream");
  is_error = (is_error_function)dlsym(library, "ZSTD_isError");
  error_name = (error_name_function)dlsym(library, "ZSTD_getErrorName");
  create_compressor = (create_compressor_function)dlsym(library, "ZSTD_createCCtx");
  free_compressor = (free_compressor_function)dlsym(library, "ZSTD_freeCCtx");
  set_parameter = (set_parameter_function)dlsym(library, "ZSTD_CCtx_setParameter");
  compress_stream = (compress_function)dlsym(library, "ZSTD_compressStream2");
  compresses = create_compressor && free_compressor && set_parameter && compress_stream;
  // The library stays open for the life of the process: streams may be decoded at any time.
  loaded = create_stream && free_stream && decompress_stream && is_error && error_name;
}

int saxdispatch_zstd_load(void) {
  pthread_once(&load_once, load);
  return loaded;
}

void *saxdispatch_zstd_create(void) {
  return saxdispatch_zstd_load() ? create_stream() : NULL;
}

void saxdispatch_zstd_free(void *stream) {
  if (stream && saxdispatch_zstd_load()) free_stream(stream);
}

size_t saxdispatch_zstd_decompress(void *stream, saxdispatch_zstd_output *output, saxdispatch_zstd_input *input) {
  return decompress_stream(stream, output, input);
}

int saxdispatch_zstd_is_error(size_t code) {
  return is_error(code) != 0;
}

const char *saxdispatch_zstd_error_name(size_t code) {
  return error_name(code);
}

int saxdispatch_zstd_load_compressor(void) {
  return saxdispatch_zstd_load() && compresses;
}

void *saxdispatch_zstd_create_compressor(int level) {
  if (!saxdispatch_zstd_load_compressor()) return NULL;
  void *context = create_compressor();
  if (context && is_error(set_parameter(context, zstd_c_compression_level, level))) {
    free_compressor(context);
    return NULL;
  }
  return context;
}

void saxdispatch_zstd_free_compressor(void *context) {
  if (context && saxdispatch_zstd_load_compressor()) free_compressor(context);
}

size_t saxdispatch_zstd_compress(void *context, saxdispatch_zstd_output *output, saxdispatch_zstd_input *input, int end) {
  return compress_stream(context, output, input, end ? zstd_e_end : zstd_e_continue);
}
