// Interposes malloc and friends when loaded with LD_PRELOAD, counts allocations,
// and writes the count to the file named by MALLOC_COUNT_FILE at exit.
#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
unsigned long long malloc_counter_count(void);
#endif
