/*
 * run/shared.c -- the state a run's clients share (run_int.h): one
 * mapping, made before clients fork, under one lock (process-shared and
 * robust when they are processes), holding the generator, the counters,
 * the contention slots and the history file; and what is done under the
 * lock: failing the run, reading its clock, appending to its history.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include "run/run_int.h"

void run_fail_locked(struct run_shared *sh, const char *fmt, const char *arg)
{
    if (!sh->failed) snprintf(sh->errmsg, sizeof sh->errmsg, fmt, arg);
    sh->failed = 1;
    sh->stop = 1;
}

/* With forked clients the lock is robust: a client process that died
 * holding it (a crash in the middle of a line) fails the run instead of
 * leaving every other waiting for ever. */
void run_lock(struct run_shared *sh)
{
    if (pthread_mutex_lock(&sh->lock) != EOWNERDEAD) return;
    pthread_mutex_consistent(&sh->lock);
    run_fail_locked(sh, "%s", "a client process died while it held the history's lock");
}

int64_t run_now_locked(const struct run_shared *sh)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - sh->t0_ns;
}

void run_emit(struct run_shared *sh, const char *from, const char *to, int flush)
{
    struct iovec v = {(char *)from, (size_t)(to - from)};
    if (hist_append(&sh->hist, &v, 1, flush) < 0)
        run_fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
}

int run_stop_asked(const isolde_run_opts *o) { return o->stop && *o->stop; }

/* A mapping of n bytes shared with forked clients (zero-filled), or NULL. */
static void *map_shared(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* The shared lock: process-shared and robust when clients are forked. */
static void init_lock(pthread_mutex_t *lock, int processes)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (processes) {
        pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
        pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    }
    pthread_mutex_init(lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

struct run_shared *run_shared_new(const isolde_run_opts *o, int fd)
{
    struct run_shared *sh = map_shared(sizeof *sh); /* pend is touched only if used */
    if (!sh) return NULL;
    sh->n_flight = o->clients;
    if (!(sh->flight = map_shared((size_t)o->clients * sizeof *sh->flight))) {
        munmap(sh, sizeof *sh);
        return NULL;
    }
    init_lock(&sh->lock, o->processes);
    gen_params gp;
    gen_params_of(o, &gp);
    sh->gen = gen_ops_for(o->workload);
    sh->gen->init(&sh->g, &gp);
    sh->next_process = o->clients;
    hist_open(&sh->hist, fd, o->history_path);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sh->t0 = iso_now();
    sh->t0_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return sh;
}

void run_shared_free(struct run_shared *sh)
{
    pthread_mutex_destroy(&sh->lock);
    munmap(sh->flight, (size_t)sh->n_flight * sizeof *sh->flight);
    munmap(sh, sizeof *sh);
}

