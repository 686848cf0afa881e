/*
 * core/alloc.c -- allocation with guards: blocks linked into the pool of
 * the guard they were allocated under, so that running out of memory
 * unwinds (longjmp) to the guard, which frees the pool and reports an
 * error instead of the process dying.
 *
 * A guard that asks for it (iso_guard_catch_bus) is unwound the same way
 * by a bus fault, which is how reading a mapped file that another process
 * truncates fails with an error instead of killing the process.
 *
 * A pool is shared by the guard's thread and the worker threads it starts
 * (iso_guard_enter), so it has a lock; it lives on the heap and outlives a
 * guard that ended well until its last block is freed. A block's header
 * keeps 16-byte alignment.
 */
#include "core/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct pool;

/* 32 bytes, a multiple of 16: what follows it is aligned as malloc's is. */
struct blk {
    struct blk *prev, *next;
    struct pool *pool; /* NULL: allocated outside any guard */
    size_t size;
};

struct pool {
    pthread_mutex_t lock;
    struct blk head;   /* sentinel of the list of live blocks */
    size_t live;
    int detached;      /* its guard ended well: freed with its last block */
};

struct iso_guard {
    jmp_buf jb;
    struct pool *pool;
    size_t asked;      /* bytes of the allocation that failed */
    int failed;        /* set by a worker thread whose allocation failed */
    int bus;           /* a bus fault unwinds it (iso_guard_catch_bus) */
    int bus_fault;     /* one did: the call fails with ISOLDE_ERR_IO */
    void (*undo)(void *arg); /* run when it unwinds (iso_guard_on_unwind) */
    void *undo_arg;
    const atomic_int *cancel; /* set by another thread: unwind at the next iso_cancel_point */
    int cancelled;     /* it did: the call fails with ISOLDE_ERR_CANCELLED */
};

static _Thread_local struct iso_guard *current;
static isolde_oom_handler oom_handler;
static void *oom_arg;

void isolde_set_oom_handler(isolde_oom_handler fn, void *arg)
{
    oom_handler = fn;
    oom_arg = arg;
}

#ifdef ISO_TESTING
static unsigned long fail_after, unguarded_failures;
static size_t fail_above;

void iso_alloc_fail_after(unsigned long n) { __atomic_store_n(&fail_after, n, __ATOMIC_RELAXED); }
unsigned long iso_alloc_unguarded_failures(void) { return unguarded_failures; }

void iso_alloc_fail_above(size_t n) { __atomic_store_n(&fail_above, n, __ATOMIC_RELAXED); }

/* The test hooks: this allocation of n bytes fails when the countdown
 * reaches it, or when it is larger than the cap. */
static int injected_failure(size_t size)
{
    size_t cap = __atomic_load_n(&fail_above, __ATOMIC_RELAXED);
    if (cap && size > cap) return 1;
    unsigned long n = __atomic_load_n(&fail_after, __ATOMIC_RELAXED);
    if (n == 0) return 0;
    if (n == 1) return 1; /* stays failing until reset */
    __atomic_fetch_sub(&fail_after, 1, __ATOMIC_RELAXED);
    return 0;
}

static void count_unguarded(void) { __atomic_fetch_add(&unguarded_failures, 1, __ATOMIC_RELAXED); }
#else
static int injected_failure(size_t size) { return (void)size, 0; }
static void count_unguarded(void) {}
#endif

static void link_blk(struct pool *p, struct blk *b)
{
    pthread_mutex_lock(&p->lock);
    b->prev = &p->head;
    b->next = p->head.next;
    p->head.next->prev = b;
    p->head.next = b;
    p->live++;
    pthread_mutex_unlock(&p->lock);
}

/* Unlink b; frees the pool too when it was its detached pool's last. */
static void unlink_blk(struct blk *b)
{
    struct pool *p = b->pool;
    pthread_mutex_lock(&p->lock);
    b->prev->next = b->next;
    b->next->prev = b->prev;
    int last = --p->live == 0 && p->detached;
    pthread_mutex_unlock(&p->lock);
    if (last) {
        pthread_mutex_destroy(&p->lock);
        free(p);
    }
}

/* Memory is out: ask the handler, then unwind. Returns only to retry (1)
 * or, outside any guard, to give up (0). */
static int out_of_memory(size_t n)
{
    if (oom_handler && oom_handler(n, oom_arg)) return 1;
    if (!current) {
        count_unguarded();
        return 0;
    }
    current->asked = n;
    longjmp(current->jb, 1);
}

/* A raw block of n bytes after the header, linked into the guard's pool. */
static void *raw_alloc(size_t n, int zero)
{
    if (n > SIZE_MAX - sizeof(struct blk)) n = SIZE_MAX - sizeof(struct blk);
    for (;;) {
        struct blk *b = injected_failure(n) ? NULL
                      : zero ? calloc(1, sizeof *b + n) : malloc(sizeof *b + n);
        if (b) {
            b->size = n;
            b->pool = current ? current->pool : NULL;
            if (b->pool) link_blk(b->pool, b);
            return b + 1;
        }
        if (!out_of_memory(n)) return NULL;
    }
}

void *iso_xmalloc(size_t n) { return raw_alloc(n ? n : 1, 0); }

void *iso_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return raw_alloc(SIZE_MAX, 1);
    return raw_alloc(n && size ? n * size : 1, 1);
}

void *iso_xrealloc(void *p, size_t n)
{
    if (!p) return iso_xmalloc(n);
    struct blk *b = (struct blk *)p - 1;
    if (n > SIZE_MAX - sizeof *b) n = SIZE_MAX - sizeof *b;
    struct pool *pool = b->pool;
    for (;;) {
        /* The block stays linked while it moves: its neighbours are
         * pointed at its new place under the pool's lock. */
        if (pool) pthread_mutex_lock(&pool->lock);
        struct blk *q = injected_failure(n) ? NULL : realloc(b, sizeof *b + (n ? n : 1));
        if (q) {
            q->size = n;
            if (pool) {
                q->prev->next = q;
                q->next->prev = q;
                pthread_mutex_unlock(&pool->lock);
            }
            return q + 1;
        }
        if (pool) pthread_mutex_unlock(&pool->lock);
        if (!out_of_memory(n)) return NULL;
    }
}

void iso_free(void *p)
{
    if (!p) return;
    struct blk *b = (struct blk *)p - 1;
    if (b->pool) unlink_blk(b);
    free(b);
}

char *iso_xstrndup(const char *s, size_t n)
{
    char *p = iso_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *iso_xstrdup(const char *s) { return iso_xstrndup(s, strlen(s)); }

void iso_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return;
    size_t c = *cap ? *cap : 8;
    while (c < need) c = c > SIZE_MAX / 2 / sz ? SIZE_MAX / sz : c * 2;
    *arr = iso_xrealloc(*arr, c * sz);
    *cap = c;
}

void iso_drop_pages(void *p, size_t n)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), b = ((uintptr_t)p + n) & ~(page - 1);
    if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

void iso_adopt(void *p, const void *owner)
{
    if (!p || !owner) return;
    struct blk *b = (struct blk *)p - 1;
    struct pool *to = ((const struct blk *)owner - 1)->pool;
    if (b->pool == to) return;
    if (b->pool) unlink_blk(b); /* its pool is the running call's: never freed by this */
    b->pool = to;
    if (to) link_blk(to, b);
}

void iso_grow_for(void **arr, size_t *cap, size_t need, size_t sz, const void *owner)
{
    iso_grow(arr, cap, need, sz);
    iso_adopt(*arr, owner);
}

int iso_try_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    if (need > (SIZE_MAX - sizeof(struct blk)) / sz) return -1;
    struct blk *b = *arr ? (struct blk *)*arr - 1 : NULL;
    struct pool *pool = b ? b->pool : current ? current->pool : NULL;
    if (pool) pthread_mutex_lock(&pool->lock);
    struct blk *q = injected_failure(need * sz) ? NULL : realloc(b, sizeof *q + need * sz);
    if (q) {
        q->size = need * sz;
        if (!b) {
            q->pool = pool;
            if (pool) { /* link a new block in (the lock is held) */
                q->prev = &pool->head;
                q->next = pool->head.next;
                pool->head.next->prev = q;
                pool->head.next = q;
                pool->live++;
            }
        } else if (pool) {
            q->prev->next = q;
            q->next->prev = q;
        }
        *arr = q + 1;
        *cap = need;
    }
    if (pool) pthread_mutex_unlock(&pool->lock);
    return q ? 0 : -1;
}

/* ---- bus faults ------------------------------------------------------------ */

/* A bus fault on a thread whose guard catches them (it reads a mapped
 * file that shrank): unwind that guard. Any other: the default action,
 * as if this handler had never been installed. SA_NODEFER: SIGBUS is not
 * left blocked once the jump has left the handler. */
static void on_bus(int sig)
{
    struct iso_guard *g = current;
    if (g && g->bus) {
        g->bus_fault = 1;
        longjmp(g->jb, 1);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

/* Ours is SIGBUS's handler: 1; installed if the program has none of its
 * own (two threads installing it at once install the same); else 0. */
static int bus_handler(void)
{
    struct sigaction now, sa;
    if (sigaction(SIGBUS, NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO)) return 0;
    if (now.sa_handler == on_bus) return 1;
    if (now.sa_handler != SIG_DFL) return 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_bus;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGBUS, &sa, NULL) == 0;
}

int iso_guard_catch_bus(int on)
{
    if (!current || (on && !bus_handler())) return -1;
    current->bus = on;
    return 0;
}

/* ---- guards ---------------------------------------------------------------- */

static struct pool *pool_new(void)
{
    struct pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    p->head.prev = p->head.next = &p->head;
    return p;
}

/* Free every block of p, and p. */
static void pool_free_all(struct pool *p)
{
    for (struct blk *b = p->head.next, *next; b != &p->head; b = next) {
        next = b->next;
        free(b);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* The guard ended well: its blocks live on, the pool goes with the last. */
static void pool_detach(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->detached = 1;
    int empty = p->live == 0;
    pthread_mutex_unlock(&p->lock);
    if (empty) {
        pthread_mutex_destroy(&p->lock);
        free(p);
    }
}

/* Why guard g unwound, into err. */
static int unwound(isolde_error *err, const struct iso_guard *g)
{
    if (!err) return -1;
    memset(err, 0, sizeof *err);
    err->code = g->cancelled ? ISOLDE_ERR_CANCELLED : g->bus_fault ? ISOLDE_ERR_IO : ISOLDE_ERR_NOMEM;
    if (g->cancelled) snprintf(err->msg, sizeof err->msg, "cancelled");
    else if (g->bus_fault) snprintf(err->msg, sizeof err->msg, "the file shrank while it was read (SIGBUS)");
    else snprintf(err->msg, sizeof err->msg, "out of memory (asked for %zu bytes)", g->asked);
    return -1;
}

int iso_guarded(int (*fn)(void *arg), void *arg, isolde_error *err)
{
    if (current) return fn(arg);
    struct iso_guard *g = calloc(1, sizeof *g);
    struct pool *p = g ? pool_new() : NULL;
    if (!p) {
        free(g);
        struct iso_guard none = {.asked = sizeof *g + sizeof *p};
        return unwound(err, &none);
    }
    g->pool = p;
    int rc;
    current = g;
    if (setjmp(g->jb) == 0) {
        rc = fn(arg);
        current = NULL;
        pool_detach(p);
    } else {
        current = NULL;
        if (g->undo) g->undo(g->undo_arg);
        pool_free_all(p);
        rc = unwound(err, g);
    }
    free(g);
    return rc;
}

struct iso_guard *iso_guard_current(void) { return current; }

void iso_guard_on_unwind(void (*fn)(void *arg), void *arg)
{
    if (!current) return;
    current->undo = fn;
    current->undo_arg = arg;
}

int iso_guard_enter(struct iso_guard *g, void (*fn)(void *arg), void *arg)
{
    if (!g) {
        fn(arg);
        return 0;
    }
    struct iso_guard local = {.pool = g->pool, .bus = g->bus, .cancel = g->cancel};
    struct iso_guard *outer = current;
    int rc = 0;
    current = &local;
    if (setjmp(local.jb) == 0) {
        fn(arg);
    } else {
        __atomic_store_n(&g->failed, 1, __ATOMIC_RELAXED);
        if (local.cancelled) __atomic_store_n(&g->cancelled, 1, __ATOMIC_RELAXED);
        else if (local.bus_fault) __atomic_store_n(&g->bus_fault, 1, __ATOMIC_RELAXED);
        else g->asked = local.asked;
        rc = -1;
    }
    current = outer;
    return rc;
}

void iso_guard_raise(void)
{
    if (current) longjmp(current->jb, 1);
}

void iso_guard_cancel_on(const atomic_int *flag)
{
    if (current) current->cancel = flag;
}

void iso_cancel_point(void)
{
    if (!current || !current->cancel || !atomic_load(current->cancel)) return;
    current->cancelled = 1;
    longjmp(current->jb, 1);
}
