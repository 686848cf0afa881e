/*
 * run/runner.c -- iso_run: drive a backend with concurrent clients and
 * record the history.
 *
 * The generator, the counters and the history file (hist.c) live in one
 * shared mapping under one mutex (process-shared when clients are forked),
 * so threads and processes run the same client loop. A client formats an
 * op's value outside the mutex; under it the op gets its index and time
 * and goes into the history, so the file's order is the index order. A
 * completion is in the file before its client goes on, and the client's
 * next invocation is recorded in the same critical section: a SIGKILL
 * leaves a complete prefix. After an info the client reconnects under a
 * new process id. When every client is done, the runner reads every key
 * with a connection of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "history.h"
#include "run/driver.h"
#include "run/sim.h"

struct shared {
    pthread_mutex_t lock;
    gen g;
    int64_t next_index, next_process;
    long ok, fail, info;
    int clients_done;
    int stop;             /* clients stop at their next transaction */
    int failed;           /* a client hit an error: errmsg says which */
    char errmsg[600];
    double t0;
    hist hist;            /* the history file */
};

struct ctx {
    const iso_run_opts *o;
    const run_driver *drv;
    struct shared *sh;
    int client;
};

void iso_run_opts_init(iso_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = "sim";
    o->workload = ISO_WORKLOAD_LIST_APPEND;
    o->txns = 2000;
    o->clients = 8;
    o->keys = 8;
    o->max_writes_per_key = 32;
    o->max_txn_length = 4;
    o->read_ratio = 0.5;
    o->seed = 1;
    o->isolation = "strict-serializable";
    o->stale = -1;
    o->begin = "immediate";
    o->journal = "wal";
    o->busy_timeout_ms = 5000;
    o->timeout_ms = 10000;
}

static void fail_locked(struct shared *sh, const char *fmt, const char *arg)
{
    if (!sh->failed) snprintf(sh->errmsg, sizeof sh->errmsg, fmt, arg);
    sh->failed = 1;
    sh->stop = 1;
}

/* Nanoseconds since the run began; read under the lock, so times never
 * go backwards in the file. */
static int64_t now_locked(const struct shared *sh)
{
    return (int64_t)((iso_now() - sh->t0) * 1e9);
}

/* One op's line but for its head and time: its value, then its tail. */
struct line {
    const char *value, *tail;
    size_t n_value, n_tail;
};

/* Record one op (caller holds the lock); the index is taken here, so the
 * file's order is the index order. */
static void emit(struct shared *sh, const struct line *l, int type, int64_t process, int64_t ns)
{
    char head[REC_HEAD_MAX], time[REC_TIME_MAX];
    struct iovec v[4] = {
        {head, rec_head(head, sh->next_index++, type, process)},
        {(char *)l->value, l->n_value},
        {time, rec_time(time, ns)},
        {(char *)l->tail, l->n_tail},
    };
    if (hist_append(&sh->hist, v, 4, type != ISO_OP_INVOKE) < 0)
        fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
}

static void count(struct shared *sh, int outcome)
{
    if (outcome == RUN_OK) sh->ok++;
    else if (outcome == RUN_FAIL) sh->fail++;
    else sh->info++;
}

static int external_stop(const iso_run_opts *o) { return o->stop && *o->stop; }

/* One client's state. */
struct client {
    struct ctx *x;
    int64_t process;
    int final;        /* the final reads, not the workload */
    run_txn t;
    iso_buf inv;      /* t's value as its invocation recorded it */
    uint32_t null_at[RUN_MAX_MOPS]; /* where each read's null is in inv */
    uint32_t reads;   /* how many reads t has */
    iso_buf b;        /* the completion's value (an ok with reads) and tail */
};

/* Take the next transaction and record its invocation at time ns (lock
 * held); 0 when there is none. */
static int next_locked(struct client *c, int64_t ns)
{
    struct shared *sh = c->x->sh;
    int go = !sh->stop && !external_stop(c->x->o) &&
             (c->final ? gen_final(&sh->g, &c->t) : gen_next(&sh->g, &c->t));
    if (!go) return 0;
    c->reads = rec_invoke_value(&c->inv, &c->t, c->null_at);
    struct line l = {c->inv.p, "}\n", c->inv.n, 2};
    emit(sh, &l, ISO_OP_INVOKE, c->process, ns);
    return 1;
}

/* The completion's line: an ok with reads gets their results put into
 * the invocation's value; any other completion records that value as it
 * is (reads null). */
static struct line completion(struct client *c, int type)
{
    struct line l = {c->inv.p, "}\n", c->inv.n, 2};
    size_t n_value = 0;
    c->b.n = 0;
    if (type == ISO_OP_OK && c->reads) {
        rec_ok_value(&c->b, &c->inv, c->null_at, &c->t);
        n_value = c->b.n;
    }
    if (rec_has_error(type, &c->t)) {
        rec_tail(&c->b, type, &c->t);
        l.tail = c->b.p + n_value;
        l.n_tail = c->b.n - n_value;
    }
    if (n_value) {
        l.value = c->b.p; /* after rec_tail, which may move b */
        l.n_value = n_value;
    }
    return l;
}

static int next_txn(struct client *c)
{
    pthread_mutex_lock(&c->x->sh->lock);
    int go = next_locked(c, now_locked(c->x->sh));
    pthread_mutex_unlock(&c->x->sh->lock);
    return go;
}

/* Record the completion; unless it is an info (after which the client
 * reconnects first), take and record the next transaction in the same
 * critical section. Returns whether the client has a transaction to run. */
static int complete(struct client *c, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    struct shared *sh = c->x->sh;
    struct line l = completion(c, types[outcome]);
    pthread_mutex_lock(&sh->lock);
    int64_t ns = now_locked(sh); /* one clock read for both ops */
    emit(sh, &l, types[outcome], c->process, ns);
    count(sh, outcome);
    int go = 0;
    if (outcome == RUN_INFO) c->process = sh->next_process++;
    else go = next_locked(c, ns);
    pthread_mutex_unlock(&sh->lock);
    return go;
}

static int open_conn(struct ctx *x, void **conn)
{
    iso_error err = {0};
    *conn = NULL;
    if (x->drv->open(x->o, conn, &err) == 0) return 0;
    pthread_mutex_lock(&x->sh->lock);
    fail_locked(x->sh, "%s", err.msg);
    pthread_mutex_unlock(&x->sh->lock);
    *conn = NULL;
    return -1;
}

static void client_loop(struct ctx *x, int64_t process, int final)
{
    struct client c = {.x = x, .process = process, .final = final};
    void *conn;
    int go = open_conn(x, &conn) == 0 && next_txn(&c);
    while (go) { /* gen_next and gen_final leave t's reads clear */
        int outcome = x->drv->txn(conn, &c.t);
        go = complete(&c, outcome);
        if (outcome != RUN_INFO) continue;
        x->drv->close(conn);
        go = open_conn(x, &conn) == 0 && next_txn(&c);
    }
    if (conn) x->drv->close(conn);
    run_txn_release(&c.t);
    iso_buf_free(&c.inv);
    iso_buf_free(&c.b);
}

static void client_done(struct shared *sh)
{
    pthread_mutex_lock(&sh->lock);
    sh->clients_done++;
    pthread_mutex_unlock(&sh->lock);
}

static void *client_thread(void *arg)
{
    struct ctx *x = arg;
    client_loop(x, x->client, 0);
    client_done(x->sh);
    return NULL;
}

/* ---- starting and waiting for clients ---- */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Report progress and pass on a stop request until every client is done. */
static void monitor(struct ctx *x, pid_t *pids, int n)
{
    struct shared *sh = x->sh;
    int reaped = 0;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        if (external_stop(x->o)) sh->stop = 1;
        int done = sh->clients_done;
        long made = sh->ok + sh->fail + sh->info;
        pthread_mutex_unlock(&sh->lock);
        for (int i = 0; pids && i < n; i++)
            if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == pids[i]) {
                pids[i] = 0;
                reaped++;
            }
        if ((pids ? reaped : done) >= n) return;
        if (x->o->progress)
            x->o->progress(x->o->progress_arg, made, sh->g.p.txns, iso_now() - sh->t0);
        sleep_ms(pids ? 20 : 50);
    }
}

static int run_threads(struct ctx *x, int n)
{
    pthread_t *tids = iso_xcalloc((size_t)n, sizeof *tids);
    struct ctx *xs = iso_xcalloc((size_t)n, sizeof *xs);
    int started = 0;
    for (; started < n; started++) {
        xs[started] = *x;
        xs[started].client = started;
        if (pthread_create(&tids[started], NULL, client_thread, &xs[started]) != 0) break;
    }
    if (started < n) {
        pthread_mutex_lock(&x->sh->lock);
        fail_locked(x->sh, "%s", "cannot start a client thread");
        x->sh->clients_done += n - started;
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, NULL, n);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    free(tids);
    free(xs);
    return 0;
}

static int run_processes(struct ctx *x, int n)
{
    pid_t *pids = iso_xcalloc((size_t)n, sizeof *pids);
    int started = 0;
    for (; started < n; started++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
            x->client = started;
            client_loop(x, started, 0);
            _exit(0);
        }
        pids[started] = pid;
    }
    if (started < n) {
        pthread_mutex_lock(&x->sh->lock);
        fail_locked(x->sh, "%s", "cannot fork a client");
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, pids, started);
    free(pids);
    return 0;
}

/* ---- the run ---- */

static struct shared *shared_new(const iso_run_opts *o, int fd)
{
    struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) return NULL; /* zero-filled: pend is touched only if used */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (o->processes) pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    pthread_mutex_init(&sh->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    gen_params gp = {o->workload != ISO_WORKLOAD_RW_REGISTER, o->txns, o->keys,
                     o->max_writes_per_key, o->max_txn_length, o->read_ratio,
                     o->zipf, o->seed};
    gen_init(&sh->g, &gp);
    sh->next_process = o->clients;
    hist_open(&sh->hist, fd, o->history_path);
    sh->t0 = iso_now();
    return sh;
}

static void shared_free(struct shared *sh)
{
    pthread_mutex_destroy(&sh->lock);
    munmap(sh, sizeof *sh);
}

static int run_driver_clients(const iso_run_opts *o, const run_driver *drv, int fd,
                              iso_run_stats *st, iso_error *err)
{
    if (drv->setup && drv->setup(o, err) < 0) return -1;
    struct shared *sh = shared_new(o, fd);
    if (!sh) return iso_fail(err, NULL, 0, 0, "cannot map shared memory: %s", strerror(errno));
    struct ctx x = {o, drv, sh, 0};
    if (o->processes) run_processes(&x, o->clients);
    else run_threads(&x, o->clients);
    if (!sh->stop && !external_stop(o)) client_loop(&x, sh->next_process++, 1);
    if (hist_close(&sh->hist) < 0 && !sh->failed)
        fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
    st->ok = sh->ok;
    st->fail = sh->fail;
    st->info = sh->info;
    st->seconds = iso_now() - sh->t0;
    int rc = sh->failed ? iso_fail(err, NULL, 0, 0, "%s", sh->errmsg) : 0;
    shared_free(sh);
    return rc;
}

static int run_sim(const iso_run_opts *o, int fd, iso_run_stats *st, iso_error *err)
{
    iso_buf out = {0};
    int rc = sim_run(o, fd, &out, st, err);
    iso_buf_free(&out);
    return rc;
}

int iso_run(const iso_run_opts *o, iso_run_stats *st, iso_error *err)
{
    iso_run_stats local;
    if (!st) st = &local;
    memset(st, 0, sizeof *st);
    const char *backend = o->backend ? o->backend : "sim";
    int is_sim = strcmp(backend, "sim") == 0;
    const run_driver *drv = is_sim ? NULL : run_driver_find(backend);
    if (!is_sim && !drv)
        return iso_fail(err, NULL, 0, 0, "unknown backend '%s' (try sim, sqlite, exec)", backend);
    if (o->clients < 1 || o->clients > 4096)
        return iso_fail(err, NULL, 0, 0, "clients must be between 1 and 4096");
    if (!o->history_path) return iso_fail(err, NULL, 0, 0, "no history path");
    int fd = open(o->history_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return iso_fail(err, o->history_path, 0, 0, "cannot create: %s", strerror(errno));
    int rc = is_sim ? run_sim(o, fd, st, err) : run_driver_clients(o, drv, fd, st, err);
    if (close(fd) < 0 && rc == 0)
        rc = iso_fail(err, o->history_path, 0, 0, "cannot write: %s", strerror(errno));
    return rc;
}
