/*
 * core/parallel.c -- thread teams under the caller's allocation guard: each
 * thread, the caller's too, runs its work inside iso_guard_enter, so that
 * memory running out on one thread never unwinds past threads still
 * running; once all are joined the caller's guard is raised. Each thread
 * starts with its caller's phase clock (core/phase.h).
 */
#include "core/parallel.h"
#include "core/alloc.h"
#include "core/phase.h"

#include <pthread.h>
#include <unistd.h>

struct team {
    void (*work)(void *);
    void *arg;
    struct iso_guard *guard;
    double phase_clock; /* the caller's ISOLDE_TIMING clock, for every thread */
    int failed;
};

static void *team_thread(void *p)
{
    struct team *t = p;
    iso_phase_set_clock(t->phase_clock);
    if (iso_guard_enter(t->guard, t->work, t->arg) < 0) __atomic_store_n(&t->failed, 1, __ATOMIC_RELAXED);
    return NULL;
}

void iso_parallel(int threads, void (*work)(void *arg), void *arg)
{
    enum { MAX_THREADS = 64 };
    pthread_t tid[MAX_THREADS];
    struct team t = {work, arg, iso_guard_current(), iso_phase_clock(), 0};
    int started = 0;
    for (int i = 1; i < threads && i < MAX_THREADS; i++)
        if (pthread_create(&tid[started], NULL, team_thread, &t) == 0) started++;
    team_thread(&t);
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    if (t.failed) iso_guard_raise();
}

int iso_thread_count(int asked)
{
    long cores = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
}

size_t iso_next_item(size_t *counter)
{
    return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

struct both {
    void (*fn[2])(void *);
    void *arg;
    size_t next;
};

static void both_work(void *p)
{
    struct both *b = p;
    for (size_t i; (i = iso_next_item(&b->next)) < 2;) b->fn[i](b->arg);
}

void iso_both(void (*a)(void *), void (*b)(void *), void *arg, int threads)
{
    struct both x = {{a, b}, arg, 0};
    iso_parallel(threads > 1 ? 2 : 1, both_work, &x);
}
