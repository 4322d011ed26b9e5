#include "zstd_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void *(*create_function)(void);
typedef size_t (*free_function)(void *);
typedef size_t (*decompress_function)(void *, saxdispatch_zstd_output *, saxdispatch_zstd_input *);
typedef unsigned (*is_error_function)(size_t);
typedef const char *(*error_name_function)(size_t);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static create_function create_stream;
static free_function free_stream;
static decompress_function decompress_stream;
static is_error_function is_error;
static error_name_function error_name;

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
