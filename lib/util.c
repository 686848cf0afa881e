/* util.c -- checked allocation, growable arrays and buffers, errors, clock. */
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void oom(size_t n)
{
    fprintf(stderr, "isolde: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *iso_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom(n);
    return p;
}

void *iso_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom(n * size);
    return p;
}

void *iso_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n);
    return q;
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
    while (c < need) {
        if (c > SIZE_MAX / 2 / sz) oom(SIZE_MAX);
        c *= 2;
    }
    *arr = iso_xrealloc(*arr, c * sz);
    *cap = c;
}

int iso_fail(iso_error *err, const char *file, long line, long col,
             const char *fmt, ...)
{
    if (!err) return -1;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

double iso_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void iso_buf_put(iso_buf *b, const char *s, size_t n)
{
    ISO_GROW(b->p, b->cap, b->n + n + 1);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void iso_buf_puts(iso_buf *b, const char *s) { iso_buf_put(b, s, strlen(s)); }

const char iso_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const uint64_t iso_pow10[ISO_INT_MAX_CHARS] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};

void iso_buf_int(iso_buf *b, int64_t v)
{
    ISO_GROW(b->p, b->cap, b->n + ISO_INT_MAX_CHARS + 1);
    b->n = (size_t)(iso_put_i64(b->p + b->n, v) - b->p);
    b->p[b->n] = 0;
}

void iso_buf_printf(iso_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    ISO_GROW(b->p, b->cap, b->n + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

const char *iso_buf_cstr(iso_buf *b)
{
    if (!b->p) iso_buf_put(b, "", 0);
    return b->p;
}

void iso_buf_free(iso_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
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
    return rss * 4096 / (1024 * 1024);
}

/* The resident high-water mark so far, in MB. */
static long peak_mb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss / 1024 : 0;
}

/* With ISOLDE_TIMING set, each phase's wall time, the resident memory
 * after it and the peak so far go to stderr. */
void iso_phase(const char *name)
{
    static _Thread_local double last;
    static _Thread_local int on = -1;
    if (on < 0) on = getenv("ISOLDE_TIMING") != NULL;
    if (!on) return;
    double now = iso_now();
    if (name)
        fprintf(stderr, "isolde: %-16s %7.3f s  %6ld MB resident, peak %ld MB\n", name, now - last,
                rss_mb(), peak_mb());
    last = now;
}

struct par_thread {
    void (*work)(void *);
    void *arg;
};

static void *par_start(void *p)
{
    struct par_thread *t = p;
    t->work(t->arg);
    return NULL;
}

void iso_parallel(int threads, void (*work)(void *arg), void *arg)
{
    enum { MAX_THREADS = 64 };
    pthread_t tid[MAX_THREADS];
    struct par_thread t = {work, arg};
    int started = 0;
    for (int i = 1; i < threads && i < MAX_THREADS; i++)
        if (pthread_create(&tid[started], NULL, par_start, &t) == 0) started++;
    work(arg);
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
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
