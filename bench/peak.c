/*
 * bench/peak.c -- runs a command and reports its wall time and peak resident
 * memory, for the benchmarks (no dependency on GNU time). The command's
 * stdout is discarded; one line "WALL_S CPU_S PEAK_KB STATUS" goes to
 * stdout: wall time, user+system CPU time (meaningful when the machine is
 * shared), peak RSS, and the exit status, or 128+signal, or "timeout" when
 * the command ran longer than -t SECONDS and was killed.
 *
 *   peak [-t SECONDS] command [args...]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;
static pid_t child;

static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
    kill(child, SIGKILL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void exec_quiet(char **argv)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "peak: %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv)
{
    unsigned limit = 0;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-t") == 0) {
        limit = (unsigned)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc) {
        fputs("usage: peak [-t SECONDS] command [args...]\n", stderr);
        return 2;
    }
    signal(SIGALRM, on_alarm);
    double t0 = now();
    child = fork();
    if (child < 0) {
        perror("peak: fork");
        return 2;
    }
    if (child == 0) exec_quiet(argv + first);
    alarm(limit);
    int status;
    struct rusage ru;
    pid_t r;
    while ((r = wait4(child, &status, 0, &ru)) < 0 && errno == EINTR) {}
    double elapsed = now() - t0;
    alarm(0);
    if (r < 0) {
        perror("peak: wait4");
        return 2;
    }
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    printf("%.3f %.3f %ld ", elapsed, cpu, ru.ru_maxrss);
    if (timed_out) puts("timeout");
    else if (WIFSIGNALED(status)) printf("%d\n", 128 + WTERMSIG(status));
    else printf("%d\n", WEXITSTATUS(status));
    return 0;
}
