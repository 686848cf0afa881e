/*
 * run/runner.c -- iso_run: drive a backend with concurrent clients and
 * record the history.
 *
 * The generator, the counters and the history file live in one shared
 * mapping under one mutex (process-shared when clients are forked), so
 * threads and processes run the same client loop. Ops are formatted under
 * the mutex, in index order, and every completion is written out with
 * write(2) before its client goes on: a SIGKILL leaves a complete prefix
 * on disk. After an info the
 * client reconnects under a new process id. When every client is done, the
 * runner reads every key with a connection of its own.
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
    int fd;
    double t0;
    size_t n_pend;        /* bytes of pend not yet written */
    char pend[1 << 20];   /* recorded lines (written at each completion) */
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

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void fail_locked(struct shared *sh, const char *fmt, const char *arg)
{
    if (!sh->failed) snprintf(sh->errmsg, sizeof sh->errmsg, fmt, arg);
    sh->failed = 1;
    sh->stop = 1;
}

static void write_locked(struct shared *sh, const char *p, size_t n)
{
    if (write_all(sh->fd, p, n) < 0) fail_locked(sh, "cannot write the history: %s", strerror(errno));
}

/* Record one op (caller holds the lock): index and time are taken here,
 * so the file's order is the index order and times never go backwards.
 * Invocations wait in pend; a completion writes pend out (group commit:
 * one write(2) per transaction at most, and fewer under concurrency).
 * An op is thus on disk before its client goes on, and any op that could
 * have observed an invocation's effects comes after it in pend. */
static void emit(struct shared *sh, iso_buf *b, int type, int64_t process,
                 const run_txn *t)
{
    b->n = 0;
    int64_t ns = (int64_t)((iso_now() - sh->t0) * 1e9);
    rec_line(b, sh->next_index++, type, process, t, ns);
    if (sh->n_pend + b->n > sizeof sh->pend) {
        write_locked(sh, sh->pend, sh->n_pend);
        sh->n_pend = 0;
    }
    if (b->n > sizeof sh->pend) {
        write_locked(sh, b->p, b->n);
    } else {
        memcpy(sh->pend + sh->n_pend, b->p, b->n);
        sh->n_pend += b->n;
    }
    if (type != ISO_OP_INVOKE && sh->n_pend) {
        write_locked(sh, sh->pend, sh->n_pend);
        sh->n_pend = 0;
    }
}

static void count(struct shared *sh, int outcome)
{
    if (outcome == RUN_OK) sh->ok++;
    else if (outcome == RUN_FAIL) sh->fail++;
    else sh->info++;
}

static int external_stop(const iso_run_opts *o) { return o->stop && *o->stop; }

/* Record the invocation of t's next transaction; 0 when there is none. */
static int next_txn(struct ctx *x, iso_buf *b, int64_t process, run_txn *t, int final)
{
    struct shared *sh = x->sh;
    pthread_mutex_lock(&sh->lock);
    int go = !sh->stop && !external_stop(x->o) &&
             (final ? gen_final(&sh->g, t) : gen_next(&sh->g, t));
    if (go) emit(sh, b, ISO_OP_INVOKE, process, t);
    pthread_mutex_unlock(&sh->lock);
    return go;
}

/* Record the completion; returns the process id to go on with. */
static int64_t complete(struct ctx *x, iso_buf *b, int64_t process, run_txn *t, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    struct shared *sh = x->sh;
    pthread_mutex_lock(&sh->lock);
    emit(sh, b, types[outcome], process, t);
    count(sh, outcome);
    if (outcome == RUN_INFO) process = sh->next_process++;
    pthread_mutex_unlock(&sh->lock);
    return process;
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
    run_txn t = {0};
    iso_buf b = {0};
    void *conn;
    if (open_conn(x, &conn) == 0) {
        while (next_txn(x, &b, process, &t, final)) {
            run_txn_clear_reads(&t);
            int outcome = x->drv->txn(conn, &t);
            process = complete(x, &b, process, &t, outcome);
            if (outcome != RUN_INFO) continue;
            x->drv->close(conn);
            if (open_conn(x, &conn) < 0) break;
        }
        if (conn) x->drv->close(conn);
    }
    run_txn_release(&t);
    iso_buf_free(&b);
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
    if (sh == MAP_FAILED) return NULL;
    memset(sh, 0, sizeof *sh);
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
    sh->fd = fd;
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
    if (sh->n_pend) write_locked(sh, sh->pend, sh->n_pend);
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
