/*
 * run/runner.c -- iso_run: drive a backend with concurrent clients and
 * record the history.
 *
 * The generator, the counters and the history file (hist.c) live in one
 * shared mapping under one mutex (process-shared when clients are forked),
 * so threads and processes run the same client loop. A client formats a
 * completion's value outside the mutex; under it the op gets its index
 * and time, the next transaction is generated, and both lines go into the
 * history in one copy, so the file's order is the index order. A
 * completion is in the file before its client goes on: a SIGKILL leaves a
 * complete prefix. After an info the client reconnects under a new
 * process id (after a fail whose connection is gone, under the same one); a connection that cannot be opened is tried again until the
 * run's reconnect deadline, so a database that restarts does not end the
 * run. When every client is done, the runner reads every key with a
 * connection of its own. A run in which no transaction got an answer (ok
 * or fail), only infos, fails with the first info's error: the database
 * or the client never worked.
 *
 * Each client runs under the run's allocation guard (iso_guard_enter): a
 * client that runs out of memory ends the run, which unwinds only after
 * every client is joined and the shared mapping is gone. No allocation is
 * made while the shared lock is held.
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
#include "core/names.h"
#include "gen/gen.h"
#include "history/history.h"
#include "run/drivers/driver.h"
#include "run/drivers/url.h"
#include "nemesis/nemesis.h"
#include "run/nemesis.h"
#include "run/proxy.h"
#include "record/hist.h"
#include "record/record.h"
#include "run/run.h"
#include "sim/sim.h"

struct shared {
    pthread_mutex_t lock;
    const gen_ops *gen;   /* how the transactions are made */
    gen g;
    int64_t next_index, next_process;
    isolde_run_stats st;  /* outcomes and reasons; seconds set at the end */
    int clients_done;
    int stop;             /* clients stop at their next transaction */
    int failed;           /* a client hit an error: errmsg says which */
    int nomem;            /* a client ran out of memory */
    char errmsg[600];
    char first_info[sizeof ((run_txn *)0)->error]; /* the first info's error */
    double t0;
    int64_t t0_ns;        /* t0 on CLOCK_MONOTONIC, in nanoseconds */
    run_flight *flight;   /* one slot per client (its own mapping), for
                             counting contended transactions */
    int n_flight;
    hist hist;            /* the history file */
};

struct ctx {
    const isolde_run_opts *o;
    const run_driver *drv;
    const run_env *env;
    const run_env *read_env; /* --read-url's connections, or NULL */
    struct shared *sh;
    struct iso_guard *guard; /* the run's: every client loop runs under it */
    int client;
    char *const *urls;       /* what clients connect to: o's, or through the proxy */
    struct nem_proxy *proxy; /* the run's fault proxy, or NULL */
};

void isolde_run_opts_init(isolde_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->backend = "sim";
    o->workload = ISOLDE_WORKLOAD_LIST_APPEND;
    o->txns = 2000;
    o->clients = 8;
    o->keys = 8;
    o->max_writes_per_key = 32;
    o->max_txn_length = 4;
    o->read_ratio = 0.5;
    o->seed = 1;
    o->reconnect_ms = 30000;
    o->faults.every = 5;
    o->faults.duration = 2;
}

static void fail_locked(struct shared *sh, const char *fmt, const char *arg)
{
    if (!sh->failed) snprintf(sh->errmsg, sizeof sh->errmsg, fmt, arg);
    sh->failed = 1;
    sh->stop = 1;
}

/* Take the shared lock. With forked clients it is robust: a client
 * process that died holding it (a crash in the middle of a line) fails
 * the run instead of leaving every other waiting for ever. */
static void lock_shared(struct shared *sh)
{
    if (pthread_mutex_lock(&sh->lock) != EOWNERDEAD) return;
    pthread_mutex_consistent(&sh->lock);
    fail_locked(sh, "%s", "a client process died while it held the history's lock");
}

/* Nanoseconds since the run began; read under the lock, so times never
 * go backwards in the file. */
static int64_t now_locked(const struct shared *sh)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - sh->t0_ns;
}

/* Append the lines in [from, to) to the history (lock held). */
static void emit(struct shared *sh, const char *from, const char *to, int flush)
{
    struct iovec v = {(char *)from, (size_t)(to - from)};
    if (hist_append(&sh->hist, &v, 1, flush) < 0)
        fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
}

static int external_stop(const isolde_run_opts *o) { return o->stop && *o->stop; }

/* One client's state. Its lines are built whole in two buffers by turns,
 * so that the file gets one copy of them: the completion of the
 * transaction whose invocation is in buf[cur] goes into the other buffer,
 * after room for its head, followed by the next invocation. */
struct client {
    struct ctx *x;
    int64_t process;
    int final;        /* the final reads, not the workload */
    run_txn t;
    iso_buf buf[2];
    int cur;          /* the buffer holding t's invocation line */
    size_t inv_off, n_inv; /* t's value as its invocation recorded it */
    uint32_t null_at[RUN_MAX_MOPS]; /* where each read's null is in it */
    const char *f;    /* t's :f as its lines record it */
    iso_buf shaped;   /* a Jepsen workload's invocation value (gen_ops.shape),
                         made under the lock in room sized before it */
    iso_buf err_tail; /* a completion's ,"error":"..."}\n; empty if none */
    struct endpoint {
        const run_env *env;
        const char *url;
        const char *via;  /* what it connects to: url, or url through the proxy */
        void *conn;   /* NULL until opened */
        iso_buf node; /* ,"node":"host:port" on every line of its
                         transactions (and ,"isolation":L with --read-url);
                         empty if the endpoint names no node */
    } ep[2];          /* 0: every transaction; 1: --read-url's, read-only ones */
    int n_ep, at;     /* at: the endpoint of the transaction in t */
    size_t node_max;  /* the longest node text */
};

/* Room a buffer keeps after its completion value: the time, and a whole
 * invocation line. */
#define LINE_ROOM (REC_TIME_MAX + REC_HEAD_MAX + TXN_JSON_MAX + REC_TIME_MAX + 2)

/* An op's time as its line shows it: formatted once for both lines of a
 * critical section, copied whole (REC_TIME_MAX bytes, one move; there is
 * room) and cut to its length. */
struct time_text {
    char s[REC_TIME_MAX];
    size_t n;
};

/* The time, the node, then the tail: err_tail if it holds one, else }\n. */
static char *close_line(char *p, const struct time_text *tm, const iso_buf *node, const iso_buf *err_tail)
{
    memcpy(p, tm->s, REC_TIME_MAX);
    p += tm->n;
    if (node->n) memcpy(p, node->p, node->n); /* node->p is NULL while empty */
    p += node->n;
    if (err_tail && err_tail->n) {
        memcpy(p, err_tail->p, err_tail->n);
        return p + err_tail->n;
    }
    p[0] = '}';
    p[1] = '\n';
    return p + 2;
}

static int has_writes(const run_txn *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->mops[i].f != RUN_R) return 1;
    return 0;
}

/* Take the next transaction and write its invocation line at p, in buf[i]
 * (lock held; LINE_ROOM there). Returns the line's end, or NULL when there
 * is no transaction. */
static char *invoke_locked(struct client *c, int i, char *p, const struct time_text *tm)
{
    struct shared *sh = c->x->sh;
    const isolde_run_opts *o = c->x->o;
    int late = !c->final && o->time_limit > 0 && iso_now() - sh->t0 >= o->time_limit;
    if (late && sh->g.made < sh->g.p.txns) sh->st.time_limited = 1;
    int go = !sh->stop && !external_stop(o) && !late &&
             (c->final ? sh->gen->final(&sh->g, &c->t) : sh->gen->next(&sh->g, &c->t));
    if (!go) return NULL;
    c->at = c->n_ep > 1 && !has_writes(&c->t);
    if (!c->final) run_flight_start(sh->flight, sh->n_flight, c->x->client, &c->t);
    char *end;
    if (sh->gen->shape) { /* Jepsen's op: :transfer, :add, :read, ... */
        c->shaped.n = 0;
        c->f = sh->gen->shape(&c->t, 0, &c->shaped);
        p += rec_head(p, sh->next_index++, ISO_OP_INVOKE, c->process, c->f);
        end = (char *)memcpy(p, c->shaped.p, c->shaped.n) + c->shaped.n;
    } else {
        c->f = txn_f(&c->t);
        p += rec_head(p, sh->next_index++, ISO_OP_INVOKE, c->process, c->f);
        end = txn_json_invoke(p, &c->t, c->null_at);
    }
    c->cur = i;
    c->inv_off = (size_t)(p - c->buf[i].p);
    c->n_inv = (size_t)(end - p);
    return close_line(end, tm, &c->ep[c->at].node, NULL);
}

/* Take and record the next transaction alone (a client's first, or its
 * first after reconnecting); 0 when there is none. */
static int next_txn(struct client *c)
{
    struct shared *sh = c->x->sh;
    int i = c->cur ^ 1;
    ISO_GROW(c->buf[i].p, c->buf[i].cap, LINE_ROOM + c->node_max);
    ISO_GROW(c->shaped.p, c->shaped.cap, TXN_JSON_MAX);
    struct time_text tm;
    lock_shared(sh);
    tm.n = rec_time(tm.s, now_locked(sh));
    char *end = invoke_locked(c, i, c->buf[i].p, &tm);
    if (end) emit(sh, c->buf[i].p, end, 0);
    pthread_mutex_unlock(&sh->lock);
    return end != NULL;
}

static int has_reads(const run_txn *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->mops[i].f == RUN_R) return 1;
    return 0;
}

/* The completion's value, after REC_HEAD_MAX bytes of room for its head,
 * in the buffer that does not hold the invocation: an ok with reads gets
 * their results put into the invocation's value; any other completion
 * records that value as it is (reads null). Returns the buffer's index. */
static int completion_value(struct client *c, int type)
{
    const char *inv = c->buf[c->cur].p + c->inv_off;
    iso_buf *b = &c->buf[c->cur ^ 1];
    b->n = REC_HEAD_MAX;
    if (c->x->sh->gen->shape) {
        c->x->sh->gen->shape(&c->t, type == ISO_OP_OK, b);
    } else if (type == ISO_OP_OK && has_reads(&c->t)) {
        txn_json_ok(b, inv, c->n_inv, c->null_at, &c->t);
    } else {
        ISO_GROW(b->p, b->cap, b->n + c->n_inv);
        memcpy(b->p + b->n, inv, c->n_inv);
        b->n += c->n_inv;
    }
    c->err_tail.n = 0;
    if (rec_has_error(type, &c->t)) rec_tail(&c->err_tail, type, &c->t);
    ISO_GROW(b->p, b->cap, b->n + c->err_tail.n + LINE_ROOM + 2 * c->node_max);
    return c->cur ^ 1;
}

/* Record the completion; unless it is an info (after which the client
 * reconnects first), take the next transaction in the same critical
 * section and record its invocation right after, both lines in one copy.
 * The index and time are given here, under the lock, so the file's order
 * is the order in which the ops happened: a completion is written after
 * its transaction ended, an invocation before its transaction starts.
 * Returns whether the client has a transaction to run. */
static int complete(struct client *c, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    struct shared *sh = c->x->sh;
    int i = completion_value(c, types[outcome]);
    char *value = c->buf[i].p + REC_HEAD_MAX, *end = c->buf[i].p + c->buf[i].n;
    struct time_text tm;
    lock_shared(sh);
    tm.n = rec_time(tm.s, now_locked(sh)); /* one clock read for both ops */
    char *start = rec_head_before(value, sh->next_index++, types[outcome], c->process, c->f);
    end = close_line(end, &tm, &c->ep[c->at].node, &c->err_tail);
    run_txn_count(&sh->st, outcome, &c->t);
    if (!c->final && run_flight_end(sh->flight, c->x->client)) sh->st.contended++;
    if (outcome == RUN_INFO && !sh->first_info[0])
        snprintf(sh->first_info, sizeof sh->first_info, "%s", c->t.error[0] ? c->t.error : "no reason given");
    char *next = NULL;
    if (outcome == RUN_INFO) c->process = sh->next_process++;
    else next = invoke_locked(c, i, end, &tm);
    emit(sh, start, next ? next : end, 1);
    int go = next && !sh->hist.err;
    pthread_mutex_unlock(&sh->lock);
    return go;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int stopping(struct ctx *x)
{
    lock_shared(x->sh);
    int stop = x->sh->stop || external_stop(x->o);
    pthread_mutex_unlock(&x->sh->lock);
    return stop;
}

static int stopping_arg(void *x) { return stopping(x); }

/* Open the endpoint's connection (run_open); when that fails, the run
 * fails with the driver's last error. */
static int open_conn(struct ctx *x, struct endpoint *e)
{
    isolde_error err;
    if (run_open(x->drv, e->env, x->client, e->via, stopping_arg, x, &e->conn, &err) == 0) return 0;
    lock_shared(x->sh);
    fail_locked(x->sh, "%s", err.msg);
    pthread_mutex_unlock(&x->sh->lock);
    return -1;
}

/* ,"node":"host:port" for the endpoint's URL, when it names a node, and
 * with --read-url ,"isolation":L, the level its transactions run at. */
static void node_of(struct endpoint *e, int levels)
{
    char node[128];
    run_url_node(e->url ? e->url : "", node, sizeof node);
    if (node[0]) {
        iso_buf_puts(&e->node, ",\"node\":");
        iso_json_string(&e->node, node, strlen(node));
    }
    if (levels && e->env->isolation) {
        iso_buf_puts(&e->node, ",\"isolation\":");
        iso_json_string(&e->node, e->env->isolation, strlen(e->env->isolation));
    }
}

/* The client's endpoints: its --url, and its --read-url if any (not for
 * the final reads: they must see every acknowledged write). */
static void endpoints(struct client *c)
{
    struct ctx *x = c->x;
    const isolde_run_opts *o = x->o;
    size_t k = (size_t)x->client;
    c->ep[0] = (struct endpoint){x->env, o->n_urls ? o->urls[k % o->n_urls] : NULL,
                                 o->n_urls ? x->urls[k % o->n_urls] : NULL, NULL, {0}};
    c->n_ep = 1;
    if (x->read_env && !c->final) /* the final reads see the primary */
        c->ep[c->n_ep++] = (struct endpoint){x->read_env, o->read_urls[k % o->n_read_urls],
                                             o->read_urls[k % o->n_read_urls], NULL, {0}};
    for (int i = 0; i < c->n_ep; i++) {
        node_of(&c->ep[i], x->read_env != NULL);
        if (c->ep[i].node.n > c->node_max) c->node_max = c->ep[i].node.n;
    }
}

static void close_endpoints(struct client *c)
{
    for (int i = 0; i < c->n_ep; i++) {
        if (c->ep[i].conn) c->x->drv->close(c->ep[i].conn);
        iso_buf_free(&c->ep[i].node);
    }
}

/* Transactions until there are no more: each on its endpoint's
 * connection, opened when first needed and again after an info, or after
 * a fail that lost it. The first connection is opened before the first
 * transaction is taken: a client that cannot connect invokes none. */
static void client_loop(struct ctx *x, int64_t process, int final)
{
    if (final) x->client = (int)process;
    struct client c = {.x = x, .process = process, .final = final};
    endpoints(&c);
    int go = open_conn(x, &c.ep[0]) == 0 && next_txn(&c);
    while (go) { /* gen_next and gen_final leave t's reads clear */
        struct endpoint *e = &c.ep[c.at];
        if (!e->conn && open_conn(x, e) < 0) break;
        int outcome = x->drv->txn(e->conn, &c.t), lost = c.t.reconnect;
        go = complete(&c, outcome); /* after a fail, t is the next one */
        if (outcome != RUN_INFO && !lost) continue;
        x->drv->close(e->conn);
        e->conn = NULL;
        if (outcome == RUN_INFO) go = next_txn(&c);
    }
    close_endpoints(&c);
    run_txn_release(&c.t);
    iso_buf_free(&c.buf[0]);
    iso_buf_free(&c.buf[1]);
    iso_buf_free(&c.err_tail);
    iso_buf_free(&c.shaped);
}

static void client_done(struct shared *sh)
{
    lock_shared(sh);
    sh->clients_done++;
    pthread_mutex_unlock(&sh->lock);
}

struct client_job {
    struct ctx *x;
    int64_t process;
    int final;
};

static void client_job(void *arg)
{
    struct client_job *j = arg;
    client_loop(j->x, j->process, j->final);
}

/* A client loop under the run's guard: running out of memory ends this
 * client and fails the run (unwound once every client is done). */
static void guarded_client(struct ctx *x, int64_t process, int final)
{
    struct client_job j = {x, process, final};
    if (iso_guard_enter(x->guard, client_job, &j) == 0) return;
    lock_shared(x->sh);
    x->sh->nomem = 1;
    fail_locked(x->sh, "%s", "a client ran out of memory");
    pthread_mutex_unlock(&x->sh->lock);
}

static void *client_thread(void *arg)
{
    struct ctx *x = arg;
    guarded_client(x, x->client, 0);
    client_done(x->sh);
    return NULL;
}

/* ---- starting and waiting for clients ---- */

/* Report progress and pass on a stop request until every client is done. */
static void monitor(struct ctx *x, pid_t *pids, int n)
{
    struct shared *sh = x->sh;
    int reaped = 0;
    for (;;) {
        lock_shared(sh);
        if (external_stop(x->o)) sh->stop = 1;
        int done = sh->clients_done;
        long made = sh->st.ok + sh->st.fail + sh->st.info;
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
        lock_shared(x->sh);
        fail_locked(x->sh, "%s", "cannot start a client thread");
        x->sh->clients_done += n - started;
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, NULL, n);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    iso_free(tids);
    iso_free(xs);
    return 0;
}

static int run_processes(struct ctx *x, int n)
{
    pid_t *pids = iso_xcalloc((size_t)n, sizeof *pids), parent = getpid();
    int started = 0;
    for (; started < n; started++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            run_child_of(parent);
            x->client = started;
            guarded_client(x, started, 0);
            _exit(0);
        }
        pids[started] = pid;
    }
    if (started < n) {
        lock_shared(x->sh);
        fail_locked(x->sh, "%s", "cannot fork a client");
        pthread_mutex_unlock(&x->sh->lock);
    }
    monitor(x, pids, started);
    iso_free(pids);
    return 0;
}

/* ---- the run ---- */

static struct shared *shared_new(const isolde_run_opts *o, int fd)
{
    struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) return NULL; /* zero-filled: pend is touched only if used */
    sh->n_flight = o->clients;
    sh->flight = mmap(NULL, (size_t)o->clients * sizeof *sh->flight, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh->flight == MAP_FAILED) {
        munmap(sh, sizeof *sh);
        return NULL;
    }
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (o->processes) {
        pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
        pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    }
    pthread_mutex_init(&sh->lock, &attr);
    pthread_mutexattr_destroy(&attr);
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

static void shared_free(struct shared *sh)
{
    pthread_mutex_destroy(&sh->lock);
    munmap(sh->flight, (size_t)sh->n_flight * sizeof *sh->flight);
    munmap(sh, sizeof *sh);
}

/* A nemesis op, in index order like every other (run_nemesis_record); its
 * buffer is sized before the lock is taken. */
static void record_nemesis(void *arg, const char *f, const char *value, int completion)
{
    struct shared *sh = arg;
    iso_buf b = {0};
    (void)completion;
    ISO_GROW(b.p, b.cap, strlen(f) + strlen(value) + 256);
    lock_shared(sh);
    rec_op op = {sh->next_index++, ISO_OP_INFO, "nemesis", 0, f, value, now_locked(sh), NULL};
    rec_op_line(&b, &op);
    emit(sh, b.p, b.p + b.n, 1);
    pthread_mutex_unlock(&sh->lock);
    iso_buf_free(&b);
}

/* The workload's setup transaction, if it has one, run and then recorded
 * (process "setup": a bank's opening balances, which its checker reads). */
static int workload_setup(struct ctx *x, isolde_error *err)
{
    struct shared *sh = x->sh;
    run_txn t = {0};
    int rc = 0;
    if (sh->gen->setup && sh->gen->setup(&sh->g, &t)) rc = run_workload_setup(x->drv, x->env, &t, err);
    if (t.n && !rc) {
        iso_buf b = {0}, v = {0};
        const char *f = sh->gen->shape(&t, 1, &v);
        ISO_GROW(b.p, b.cap, REC_SETUP_MAX(f, iso_buf_cstr(&v)));
        lock_shared(sh);
        rec_setup(&b, sh->next_index, f, iso_buf_cstr(&v), now_locked(sh));
        sh->next_index += 2;
        emit(sh, b.p, b.p + b.n, 1);
        pthread_mutex_unlock(&sh->lock);
        iso_buf_free(&b);
        iso_buf_free(&v);
    }
    run_txn_release(&t);
    return rc;
}

/* The clients beside the nemesis, which is stopped (everything healed)
 * when they are done. */
static int run_faulted(struct ctx *x, int *nomem, isolde_error *err)
{
    run_nemesis *nem;
    if (run_nemesis_start(&nem, x->o, x->proxy, record_nemesis, x->sh, err) < 0) return -1;
    if (x->o->processes) run_processes(x, x->o->clients);
    else run_threads(x, x->o->clients);
    run_nemesis_stop(nem, nomem, &x->sh->st);
    return 0;
}

/* The clients, then the final reads, into the history file fd. */
static int run_clients(const run_env *env, const run_driver *drv, int fd, isolde_run_stats *st,
                       isolde_error *err)
{
    const isolde_run_opts *o = env->o;
    if (run_setup(drv, env, err) < 0) return -1;
    run_proxy rp;
    if (run_proxy_start(o, &rp, err) < 0) return -1;
    struct shared *sh = shared_new(o, fd);
    if (!sh) {
        run_proxy_stop(&rp);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot map shared memory: %s", strerror(errno));
    }
    run_env read_env = *env; /* --read-url's connections */
    read_env.read_only = 1;
    if (drv->read_level) read_env.isolation = drv->read_level(env->isolation);
    struct ctx x = {o, drv, env, o->n_read_urls ? &read_env : NULL, sh, iso_guard_current(), 0, rp.urls, rp.p};
    int nem_nomem = 0;
    if (workload_setup(&x, err) < 0 || run_faulted(&x, &nem_nomem, err) < 0) {
        hist_close(&sh->hist);
        shared_free(sh);
        run_proxy_stop(&rp);
        return -1;
    }
    if (nem_nomem) fail_locked(sh, "%s", "the nemesis ran out of memory");
    long before_final = sh->st.ok + sh->st.fail + sh->st.info;
    if (!sh->stop && !external_stop(o)) guarded_client(&x, sh->next_process++, 1);
    sh->st.final_reads = sh->st.ok + sh->st.fail + sh->st.info - before_final;
    if (hist_close(&sh->hist) < 0 && !sh->failed)
        fail_locked(sh, "cannot write the history: %s", strerror(sh->hist.err));
    if (!sh->failed && sh->st.ok + sh->st.fail == 0 && sh->st.info > 0)
        fail_locked(sh, "no transaction succeeded: every one ended unknown (info); the first error "
                        "was: %s", sh->first_info);
    *st = sh->st;
    st->seconds = iso_now() - sh->t0;
    int nomem = sh->nomem || nem_nomem;
    int rc = sh->failed ? iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "%s", sh->errmsg) : 0;
    shared_free(sh);
    run_proxy_stop(&rp);
    if (nomem) iso_guard_raise(); /* the memory the clients held goes with the guard */
    return rc;
}

/* The caller's run options as this library knows them. */
static int run_opts(const isolde_run_opts *user, isolde_run_opts *o, isolde_error *err)
{
    isolde_run_opts_init(o);
    if (!user || user->size < offsetof(isolde_run_opts, backend) + sizeof user->backend)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "run options not initialised (isolde_run_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    if (o->workload == ISOLDE_WORKLOAD_AUTO) o->workload = ISOLDE_WORKLOAD_LIST_APPEND;
    if (!o->backend) o->backend = "sim";
    if (o->clients < 1 || o->clients > 4096)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "clients must be between 1 and 4096");
    if (!o->history_path) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "no history path");
    return 0;
}

/* The level asked for, or the driver's; one of the levels it knows. */
static int isolation_of(const run_driver *d, const isolde_run_opts *o, const char **out,
                        isolde_error *err)
{
    const char *want = o->isolation ? o->isolation : d->pub.isolation;
    *out = want;
    if (!want || !d->pub.levels) return 0;
    for (const char *const *l = d->pub.levels; *l; l++)
        if (strcmp(*l, want) == 0) return 0;
    char list[512] = "";
    for (const char *const *l = d->pub.levels; *l; l++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", l == d->pub.levels ? "" : ", ", *l);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs at %s, not '%s'", d->pub.name, list, want);
}

/* The faults asked for can be made (before anything touches the database). */
static int check_nemesis(const run_driver *d, const isolde_run_opts *o, isolde_error *err)
{
    const nem_kind *kinds[8];
    if (!o->faults.nemesis || !*o->faults.nemesis) return 0;
    if (d->run) return 0; /* a backend that runs its own clients has its own */
    return nem_parse(o, kinds, 8, err) < 0 ? -1 : 0;
}

struct run_call {
    const isolde_run_opts *user;
    isolde_run_stats *st;
    int fd;
};

static const char *backend_name(size_t i, void *arg)
{
    (void)arg;
    return isolde_backend_at(i) ? isolde_backend_at(i)->name : NULL;
}

int run_prepare(const isolde_run_opts *user, isolde_run_opts *o, const run_driver **drv, run_env *env,
                isolde_error *err)
{
    if (run_opts(user, o, err)) return -1;
    const run_driver *d = *drv = run_driver_find(o->backend);
    if (!d) {
        const char *close = iso_closest_name(o->backend ? o->backend : "", backend_name, NULL);
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown backend '%s'%s%s%s", o->backend ? o->backend : "",
                        close ? " (did you mean " : "", close ? close : "", close ? "?)" : "");
    }
    const gen_ops *g = gen_ops_for(o->workload);
    if (!g)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "no generator makes %s histories",
                        isolde_workload_name(o->workload));
    if (g->single != d->single)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs %s, not %s", d->pub.name,
                        d->single ? "single ops (register, cas-register, kv)" : "transactions",
                        isolde_workload_name(o->workload));
    if (d->pub.url_help && !o->n_urls)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s needs --url (%s)", d->pub.name, d->pub.url_help);
    *env = (run_env){o, NULL, NULL, 0};
    if (isolation_of(d, o, &env->isolation, err)) return -1;
    env->config = run_config(d, o, err);
    return env->config ? 0 : -1;
}

static int run(void *arg, isolde_error *err)
{
    struct run_call *c = arg;
    isolde_run_opts o;
    const run_driver *drv;
    run_env env;
    if (run_prepare(c->user, &o, &drv, &env, err)) return -1;
    int bad = o.n_read_urls && drv->run
                  ? iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s runs its own clients: no --read-url", drv->pub.name)
                  : check_nemesis(drv, &o, err);
    if (bad) {
        iso_free((void *)env.config);
        return -1;
    }
    c->fd = open(o.history_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = c->fd < 0 ? iso_fail(err, ISOLDE_ERR_IO, o.history_path, 0, 0, "cannot create: %s", strerror(errno))
           : drv->run ? drv->run(&env, c->fd, c->st, err) : run_clients(&env, drv, c->fd, c->st, err);
    iso_free((void *)env.config);
    return rc;
}

isolde_status isolde_run(const isolde_run_opts *o, isolde_run_stats *st, isolde_error *err)
{
    isolde_run_stats local;
    struct run_call c = {o, st ? st : &local, -1};
    memset(c.st, 0, sizeof *c.st);
    isolde_status s = iso_call(run, &c, err);
    if (c.fd >= 0 && close(c.fd) < 0 && s == ISOLDE_OK) {
        isolde_error e;
        iso_fail(&e, ISOLDE_ERR_IO, o->history_path, 0, 0, "cannot write: %s", strerror(errno));
        if (err) *err = e;
        s = e.code;
    }
    return s;
}
