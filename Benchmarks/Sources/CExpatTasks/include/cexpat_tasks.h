#ifndef CEXPAT_TASKS_H
#define CEXPAT_TASKS_H
#include <stddef.h>

/// Runs TASK ("count" or "extract") for SHAPE ("zoo", "osm", "wiki") over the file
/// descriptor FD, reading it in 64 KiB chunks straight into expat's buffer, and
/// writes the result line into RESULT. Returns 0, or -1 with a message in RESULT.
int cexpat_run(const char *task, const char *shape, int fd, char *result, size_t result_size);

#endif
