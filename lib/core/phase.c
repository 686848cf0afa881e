/* core/phase.c -- the monotonic clock, sleeping, and the ISOLDE_TIMING phase timer.
 * Each thread has its clock (the time of its last phase); a team's threads
 * start from their caller's (core/parallel.c), and the peak printed is
 * never below the resident size printed beside it. */
#include "core/phase.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static _Thread_local double last;

double iso_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void iso_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Resident memory in MB, from /proc (0 where there is none). */
static long rss_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
        fclose(f);
    }
    return (long)((double)rss * (double)sysconf(_SC_PAGESIZE) / (1024 * 1024));
}

/* The resident high-water mark so far, in MB: the kernel's, which it
 * updates lazily, or rss if that is more. */
static long peak_mb(long rss)
{
    struct rusage ru;
    long peak = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss / 1024 : 0;
    return peak > rss ? peak : rss;
}

double iso_phase_clock(void) { return last; }
void iso_phase_set_clock(double t) { last = t; }

/* With ISOLDE_TIMING set, each phase's wall time, the resident memory
 * after it and the peak so far go to stderr. */
void iso_phase(const char *name)
{
    static _Thread_local int on = -1;
    iso_cancel_point();
    if (on < 0) on = getenv("ISOLDE_TIMING") != NULL;
    if (!on) return;
    double now = iso_now();
    if (name) {
        long rss = rss_mb();
        fprintf(stderr, "isolde: %-16s %7.3f s  %6ld MB resident, peak %ld MB\n", name, now - last, rss,
                peak_mb(rss));
    }
    last = now;
}
