// contender-c-expat TASK SHAPE FILE: the C+expat baseline.
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cexpat_tasks.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s count|extract zoo|osm|wiki FILE\n", argv[0]);
        return 2;
    }
    int fd = open(argv[3], O_RDONLY);
    if (fd < 0) {
        perror(argv[3]);
        return 1;
    }
    char result[256];
    int status = cexpat_run(argv[1], argv[2], fd, result, sizeof result);
    close(fd);
    if (status != 0) {
        fprintf(stderr, "%s:%s\n", argv[3], result);
        return 1;
    }
    puts(result);
    return 0;
}
