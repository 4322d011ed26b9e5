// A memory budget for one expat parser.
//
// Expat's memory-handling suite (XML_ParserCreate_MM) takes plain malloc/realloc/free
// functions with no context pointer, so the budget to charge is found in a thread-local
// slot that the caller sets around every call into expat that may allocate. Each block
// remembers its budget in a small header, so frees and reallocs charge the right one
// whatever thread they run on.
#ifndef SAXDISPATCH_EXPAT_MEMORY_H
#define SAXDISPATCH_EXPAT_MEMORY_H

#include <stddef.h>

typedef struct saxdispatch_memory_budget {
    /// Bytes currently allocated through this budget.
    size_t used;
    /// The most bytes allowed at once; SIZE_MAX for no limit.
    size_t limit;
    /// The most bytes ever allocated at once.
    size_t peak;
    /// Set when an allocation was refused because of the limit.
    int exceeded;
    /// How many blocks were allocated or reallocated through this budget: it does not move
    /// between two events unless expat took memory, which it does for every name it
    /// interns for the first time (an element type, an attribute, a prefix).
    size_t allocations;
} saxdispatch_memory_budget;

/// Makes `budget` the one charged by allocations on this thread; returns the previous one.
saxdispatch_memory_budget *_Nullable saxdispatch_memory_enter(saxdispatch_memory_budget *_Nullable budget);

/// Charges `budget` for `bytes` more that the caller holds for the parse outside expat,
/// as an allocation would be charged; returns 0, charging nothing and marking the budget
/// exceeded, when they do not fit.
int saxdispatch_memory_charge(saxdispatch_memory_budget *_Nonnull budget, size_t bytes);

/// Gives back `bytes` that saxdispatch_memory_charge charged, which the caller no longer holds.
void saxdispatch_memory_release(saxdispatch_memory_budget *_Nonnull budget, size_t bytes);

/// The allocation functions to pass to XML_ParserCreate_MM.
void *_Nullable saxdispatch_memory_malloc(size_t size);
void *_Nullable saxdispatch_memory_realloc(void *_Nullable pointer, size_t size);
void saxdispatch_memory_free(void *_Nullable pointer);

#endif
