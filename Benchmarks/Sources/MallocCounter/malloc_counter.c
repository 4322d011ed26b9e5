// Counts allocations of a whole process: LD_PRELOAD=libMallocCounter.so PROGRAM.
// Uses glibc's __libc_* entry points, so it works only with glibc (Linux).
#define _GNU_SOURCE
#include "malloc_counter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static unsigned long long allocations;

static void counted(void) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { counted(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

unsigned long long malloc_counter_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

__attribute__((destructor)) static void malloc_counter_report(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    unsigned long long count = malloc_counter_count();
    FILE *file = fopen(path, "w");
    if (!file) return;
    fprintf(file, "%llu\n", count);
    fclose(file);
}
#else
unsigned long long malloc_counter_count(void) { return 0; }
#endif
