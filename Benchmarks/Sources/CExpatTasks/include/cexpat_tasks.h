#ifndef CEXPAT_TASKS_H
#define CEXPAT_TASKS_H
#include <stddef.h>

/// Runs TASK ("count" or "extract") for SHAPE ("zoo", "zoo-ns", "osm", "wiki") over the
/// file descriptor FD, reading it in 64 KiB chunks straight into expat's buffer, and
/// writes the result line into RESULT. Returns 0, or -1 with a message in RESULT.
/// NAMESPACES non-zero creates the parser with namespace processing (XML_ParserCreateNS)
/// and matches elements by namespace URI and local name; zoo-ns always has it.
int cexpat_run(const char *task, const char *shape, int fd, int namespaces, char *result, size_t result_size);

#endif
