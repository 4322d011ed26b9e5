// measure REPORT COMMAND [ARGS...]: runs COMMAND and writes "user_seconds system_seconds
// peak_rss_bytes wall_seconds" to REPORT, exiting with COMMAND's status.
//
// Peak RSS on Linux survives exec: a child forked from a large process (Python)
// inherits its parent's high-water mark. This launcher is tiny, so the figure it
// reports is the command's own. MEASURE_LD_PRELOAD is set as LD_PRELOAD in the
// command's environment only (the runner's malloc counter).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s REPORT COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        // MEASURE_LD_PRELOAD becomes LD_PRELOAD for the command only, not for this launcher.
        const char *preload = getenv("MEASURE_LD_PRELOAD");
        if (preload) setenv("LD_PRELOAD", preload, 1);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    FILE *report = fopen(argv[1], "w");
    if (report) {
#ifdef __APPLE__
        long long rss = usage.ru_maxrss;
#else
        long long rss = (long long)usage.ru_maxrss * 1024;
#endif
        fprintf(report, "%.6f %.6f %lld %.6f\n", usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6,
                usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6, rss,
                (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
        fclose(report);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
