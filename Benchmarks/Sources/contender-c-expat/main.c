// contender-c-expat TASK SHAPE FILE [namespaces]: the C+expat baseline; with
// `namespaces`, expat resolves namespaces (XML_ParserCreateNS), as it always does for
// zoo-ns and as SAXDispatch does by default, so the cost of expat's own resolution can
// be told apart from SAXDispatch's.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cexpat_tasks.h"

int main(int argc, char **argv) {
    int namespaces = argc == 5 && strcmp(argv[4], "namespaces") == 0;
    if (argc != 4 && !namespaces) {
        fprintf(stderr, "usage: %s count|extract zoo|zoo-ns|osm|wiki FILE [namespaces]\n", argv[0]);
        return 2;
    }
    int fd = open(argv[3], O_RDONLY);
    if (fd < 0) {
        perror(argv[3]);
        return 1;
    }
    char result[256];
    int status = cexpat_run(argv[1], argv[2], fd, namespaces, result, sizeof result);
    close(fd);
    if (status != 0) {
        fprintf(stderr, "%s:%s\n", argv[3], result);
        return 1;
    }
    puts(result);
    return 0;
}
