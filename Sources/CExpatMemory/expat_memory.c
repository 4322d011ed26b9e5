#include "expat_memory.h"

#include <stdint.h>
#include <stdlib.h>

// Every block starts with this header; expat sees the bytes after it. 16 bytes keep
// the alignment malloc gives.
typedef struct header {
    size_t size;
    saxdispatch_memory_budget *budget;
} header;

_Static_assert(sizeof(header) == 16 || sizeof(void *) != 8, "header keeps 16-byte alignment");

static _Thread_local saxdispatch_memory_budget *current;

saxdispatch_memory_budget *saxdispatch_memory_enter(saxdispatch_memory_budget *budget) {
    saxdispatch_memory_budget *previous = current;
    current = budget;
    return previous;
}

static int charge(saxdispatch_memory_budget *budget, size_t old_size, size_t new_size) {
    if (budget == NULL || new_size <= old_size) {
        if (budget) budget->used -= old_size - new_size;
        return 1;
    }
    size_t growth = new_size - old_size;
    if (growth > budget->limit || budget->used > budget->limit - growth) {
        budget->exceeded = 1;
        return 0;
    }
    budget->used += growth;
    if (budget->used > budget->peak) budget->peak = budget->used;
    return 1;
}

int saxdispatch_memory_charge(saxdispatch_memory_budget *budget, size_t bytes) {
    return charge(budget, 0, bytes);
}

void saxdispatch_memory_release(saxdispatch_memory_budget *budget, size_t bytes) {
    charge(budget, bytes < budget->used ? bytes : budget->used, 0);
}

void *saxdispatch_memory_malloc(size_t size) {
    if (size > SIZE_MAX - sizeof(header)) return NULL;
    saxdispatch_memory_budget *budget = current;
    if (!charge(budget, 0, size)) return NULL;
    header *block = malloc(sizeof(header) + size);
    if (block == NULL) {
        charge(budget, size, 0);
        return NULL;
    }
    block->size = size;
    block->budget = budget;
    if (budget) budget->allocations += 1;
    return block + 1;
}

void *saxdispatch_memory_realloc(void *pointer, size_t size) {
    if (pointer == NULL) return saxdispatch_memory_malloc(size);
    if (size > SIZE_MAX - sizeof(header)) return NULL;
    header *block = (header *)pointer - 1;
    saxdispatch_memory_budget *budget = block->budget;
    size_t old_size = block->size;
    if (!charge(budget, old_size, size)) return NULL;
    header *moved = realloc(block, sizeof(header) + size);
    if (moved == NULL) {
        charge(budget, size, old_size);
        return NULL;
    }
    moved->size = size;
    if (budget) budget->allocations += 1;
    return moved + 1;
}

void saxdispatch_memory_free(void *pointer) {
    if (pointer == NULL) return;
    header *block = (header *)pointer - 1;
    charge(block->budget, block->size, 0);
    free(block);
}
