/*
 * run/scenario.c -- isolde_scenario_run: the classic interleavings as data
 * (one row per scenario: its script, as Hermitage writes them), run
 * deterministically against any backend that can run statement by
 * statement (a driver's begin / step / commit).
 *
 * Each scripted transaction runs on a client thread of its own with its
 * own connection. The coordinator hands the script's statements out in
 * order: it queues a statement for its client and waits until the client
 * is idle again, or until the wait has passed -- then the statement is
 * blocked on a lock and the script goes on without it; the client runs
 * what is queued behind it once it returns (when the other transaction
 * commits or aborts), and the coordinator does not wait for a client that
 * is still blocked. A transaction that failed takes no more statements.
 *
 * Before the script, a setup transaction appends each key's first element
 * (x: 1, y: 2, z: 3); after it, when every client is done, a final read
 * of every key ends the history. The history's lines are made at the end
 * from the events (invocations and completions, in the order they
 * happened, timed), so nothing is allocated while the lock is held.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "history/history.h"
#include "record/record.h"
#include "run/run.h"

static const isolde_scenario scenarios[] = {
    {"write-skew", "G2-item", "each reads both keys, then appends to the one the other did not",
     "T1 begin; T2 begin; T1 r x; T1 r y; T2 r x; T2 r y; T1 append x 11; T2 append y 21; "
     "T1 commit; T2 commit"},
    {"read-skew", "G-single-item", "T1 reads x, T2 appends to x and y and commits, T1 reads y",
     "T1 begin; T2 begin; T1 r x; T2 r x; T2 r y; T2 append x 21; T2 append y 22; T2 commit; "
     "T1 r y; T1 commit"},
    {"lost-update", "lost-update", "both read x, then both append to it",
     "T1 begin; T2 begin; T1 r x; T2 r x; T1 append x 11; T2 append x 21; T1 commit; T2 commit"},
    {"dirty-write", "G0", "both append to x, then both to y, T1 committing in between",
     "T1 begin; T2 begin; T1 append x 11; T2 append x 21; T1 append y 12; T1 commit; "
     "T2 append y 22; T2 commit"},
    {"G1c", "G1c", "each appends to a key, then reads the other's key, uncommitted",
     "T1 begin; T2 begin; T1 append x 11; T2 append y 21; T1 r y; T2 r x; T1 commit; T2 commit"},
};
#define N_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

const isolde_scenario *isolde_scenario_at(size_t i) { return i < N_SCENARIOS ? &scenarios[i] : NULL; }

enum { S_BEGIN, S_MOP, S_COMMIT };
#define MAX_STEPS 64
#define MAX_KEYS 3 /* x, y, z */
#define N_TXNS ISOLDE_SCENARIO_MAX_TXNS

struct step {
    int who;      /* 1..n */
    int what;     /* S_* */
    uint32_t mop; /* S_MOP: the micro-op's index in who's transaction */
};

struct event {
    int who;      /* 0: the setup; 1..n: T1..Tn; n + 1: the final reads */
    int type;     /* ISO_OP_* */
    int64_t ns;
};

struct sc;

struct client {
    struct sc *sc;
    int who;
    void *conn;
    pthread_t tid;
    int q[MAX_STEPS], head, tail; /* step indices queued, head running */
    int over;     /* its transaction ended: it takes no more statements */
    int outcome;  /* enum txn_outcome, once over */
    int waited;   /* a statement was not done within the wait */
    int quit;     /* the script is over: return once the queue is empty */
};

struct sc {
    const run_driver *d;
    const run_env *env;
    struct step steps[MAX_STEPS];
    int n_steps, n;       /* statements; transactions T1..Tn */
    int keys;             /* keys 1..keys are used */
    txn *t;           /* [0, n + 2): setup, T1..Tn, final reads */
    struct client c[N_TXNS + 1];
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct event ev[2 * (N_TXNS + 2)];
    int n_ev;
    int64_t t0_ns;
    struct iso_guard *guard;
    int nomem;
};

/* ---- the script ---- */

static int bad_script(const char *name, const char *stmt, isolde_error *err)
{
    return iso_fail(err, ISOLDE_ERR_INTERNAL, NULL, 0, 0, "scenario %s: bad statement '%s'", name, stmt);
}

/* One statement "T1 append x 11" into a step and who's transaction. */
static int parse_stmt(struct sc *sc, const char *stmt, const char *name, isolde_error *err)
{
    int who, at = 0;
    char word[16], k = 0;
    long v = 0;
    if (sc->n_steps == MAX_STEPS || sscanf(stmt, " T%d %15s %n", &who, word, &at) != 2 || who < 1 ||
        who > N_TXNS)
        return bad_script(name, stmt, err);
    struct step *s = &sc->steps[sc->n_steps++];
    *s = (struct step){who, S_MOP, 0};
    if (who > sc->n) sc->n = who;
    if (!strcmp(word, "begin") || !strcmp(word, "commit")) {
        s->what = word[0] == 'b' ? S_BEGIN : S_COMMIT;
        return 0;
    }
    int is_r = !strcmp(word, "r");
    if ((is_r ? sscanf(stmt + at, "%c", &k) : sscanf(stmt + at, "%c %ld", &k, &v)) != 2 - is_r ||
        (!is_r && strcmp(word, "append")) || k < 'x' || k > 'z')
        return bad_script(name, stmt, err);
    txn *t = &sc->t[who];
    s->mop = t->n++;
    t->mops[s->mop] = (txn_mop){.f = is_r ? TXN_R : TXN_APPEND, .key = k - 'w', .value = v};
    if (k - 'w' > sc->keys) sc->keys = k - 'w';
    return 0;
}

static int parse_script(struct sc *sc, const isolde_scenario *s, isolde_error *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s->script);
    char *save = NULL;
    for (char *stmt = strtok_r(buf, ";", &save); stmt; stmt = strtok_r(NULL, ";", &save))
        if (parse_stmt(sc, stmt, s->name, err)) return -1;
    return 0;
}

/* The setup (key k's first element is k) and the final reads; every
 * read not done yet. */
static void setup_and_final(struct sc *sc)
{
    txn *setup = &sc->t[0], *final = &sc->t[sc->n + 1];
    for (int k = 1; k <= sc->keys; k++) {
        setup->mops[setup->n++] = (txn_mop){.f = TXN_APPEND, .key = k, .value = k};
        final->mops[final->n++] = (txn_mop){.f = TXN_R, .key = k};
    }
    for (int w = 0; w <= sc->n + 1; w++) txn_clear_reads(&sc->t[w]);
}

/* ---- clients ---- */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* An event, in the order they happen (lock held). */
static void event_locked(struct sc *sc, int who, int type)
{
    sc->ev[sc->n_ev++] = (struct event){who, type, now_ns() - sc->t0_ns};
}

static int exec_step(struct client *c, const struct step *s)
{
    struct sc *sc = c->sc;
    txn *t = &sc->t[c->who];
    if (s->what == S_BEGIN) {
        pthread_mutex_lock(&sc->lock);
        event_locked(sc, c->who, ISO_OP_INVOKE);
        pthread_mutex_unlock(&sc->lock);
        return sc->d->begin(c->conn, t);
    }
    return s->what == S_COMMIT ? sc->d->commit(c->conn, t) : sc->d->step(c->conn, t, s->mop);
}

static const int op_types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};

/* A statement returned rc (lock held): a failure or a commit ends the
 * transaction. */
static void step_done_locked(struct client *c, int step, int rc)
{
    c->head++;
    if (rc == TXN_OK && c->sc->steps[step].what != S_COMMIT) return;
    c->over = 1;
    c->outcome = rc;
    event_locked(c->sc, c->who, op_types[rc]);
}

static void client_main(void *arg)
{
    struct client *c = arg;
    struct sc *sc = c->sc;
    pthread_mutex_lock(&sc->lock);
    for (;;) {
        while (c->head == c->tail && !c->quit) pthread_cond_wait(&sc->cond, &sc->lock);
        if (c->head == c->tail) break;
        int step = c->q[c->head];
        if (c->over) {
            c->head++;
            continue;
        }
        pthread_mutex_unlock(&sc->lock);
        int rc = exec_step(c, &sc->steps[step]);
        pthread_mutex_lock(&sc->lock);
        step_done_locked(c, step, rc);
        pthread_cond_broadcast(&sc->cond);
    }
    pthread_mutex_unlock(&sc->lock);
}

/* A client under the caller's guard: running out of memory ends it (its
 * queue dropped) and fails the scenario once every client is joined. */
static void *client_thread(void *arg)
{
    struct client *c = arg;
    if (iso_guard_enter(c->sc->guard, client_main, c) == 0) return NULL;
    pthread_mutex_lock(&c->sc->lock);
    c->sc->nomem = c->over = 1;
    c->head = c->tail;
    pthread_cond_broadcast(&c->sc->cond);
    pthread_mutex_unlock(&c->sc->lock);
    return NULL;
}

/* ---- the coordinator ---- */

/* Wait until c has run all it was given, or until the deadline; 1 if it
 * has (lock held). */
static int wait_idle_locked(struct sc *sc, struct client *c, long wait_ms)
{
    int64_t end = now_ns() + (int64_t)wait_ms * 1000000;
    struct timespec ts = {(time_t)(end / 1000000000), (long)(end % 1000000000)};
    while (c->head != c->tail)
        if (pthread_cond_timedwait(&sc->cond, &sc->lock, &ts) == ETIMEDOUT) return c->head == c->tail;
    return 1;
}

static void coordinate(struct sc *sc, long wait_ms)
{
    pthread_mutex_lock(&sc->lock);
    for (int i = 0; i < sc->n_steps; i++) {
        struct client *c = &sc->c[sc->steps[i].who];
        if (c->over) continue;
        int blocked = c->head != c->tail; /* still on a statement that waited */
        c->q[c->tail++] = i;
        pthread_cond_broadcast(&sc->cond);
        if (!blocked && !wait_idle_locked(sc, c, wait_ms)) c->waited = 1;
    }
    for (int w = 1; w <= sc->n; w++) sc->c[w].quit = 1;
    pthread_cond_broadcast(&sc->cond);
    pthread_mutex_unlock(&sc->lock);
}

/* A transaction of the coordinator's own (the setup, the final reads) on
 * conn; it must commit. */
static int own_txn(struct sc *sc, void *conn, int who, const char *what, isolde_error *err)
{
    txn *t = &sc->t[who];
    pthread_mutex_lock(&sc->lock);
    event_locked(sc, who, ISO_OP_INVOKE);
    pthread_mutex_unlock(&sc->lock);
    int rc = sc->d->txn(conn, t);
    pthread_mutex_lock(&sc->lock);
    event_locked(sc, who, op_types[rc]);
    pthread_mutex_unlock(&sc->lock);
    if (rc == TXN_OK) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "the %s did not commit: %s", what,
                    t->error[0] ? t->error : "no reason given");
}

/* A client's endpoint: the run's in turn. */
static const char *url_of(const struct sc *sc, int client)
{
    const isolde_run_opts *o = sc->env->o;
    return o->n_urls ? o->urls[(size_t)client % o->n_urls] : NULL;
}

/* Open every client's connection, start their threads (the number
 * started in *started). */
static int start_clients(struct sc *sc, int *started, isolde_error *err)
{
    for (int w = 1; w <= sc->n; w++) {
        struct client *c = &sc->c[w];
        *c = (struct client){.sc = sc, .who = w};
        if (run_open(sc->d, sc->env, w - 1, url_of(sc, w - 1), NULL, NULL, &c->conn, err)) return -1;
        if (pthread_create(&c->tid, NULL, client_thread, c) != 0) {
            sc->d->close(c->conn);
            c->conn = NULL;
            return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot start a client thread");
        }
        ++*started;
    }
    return 0;
}

static void stop_clients(struct sc *sc, int started)
{
    pthread_mutex_lock(&sc->lock);
    for (int w = 1; w <= started; w++) sc->c[w].quit = 1;
    pthread_cond_broadcast(&sc->cond);
    pthread_mutex_unlock(&sc->lock);
    for (int w = 1; w <= started; w++) {
        pthread_join(sc->c[w].tid, NULL);
        sc->d->close(sc->c[w].conn);
    }
}

/* ---- the history and the outcome ---- */

static int write_history(struct sc *sc, const char *path, isolde_error *err)
{
    iso_buf b = {0};
    for (int i = 0; i < sc->n_ev; i++) {
        const struct event *e = &sc->ev[i];
        rec_line(&b, i, e->type, e->who, &sc->t[e->who], NULL, e->ns);
    }
    FILE *f = fopen(path, "w");
    int ok = f && fwrite(b.p, 1, b.n, f) == b.n;
    if (f && fclose(f) != 0) ok = 0;
    iso_buf_free(&b);
    return ok ? 0 : iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
}

static void outcome(const struct sc *sc, isolde_scenario_result *out)
{
    static const char *const names[] = {"ok", "fail", "info"};
    out->n_txns = sc->n;
    for (int w = 1; w <= sc->n; w++) {
        const struct client *c = &sc->c[w];
        const txn *t = &sc->t[w];
        isolde_scenario_txn *r = &out->txns[w - 1];
        r->outcome = names[c->over ? c->outcome : TXN_INFO];
        r->waited = c->waited;
        snprintf(r->err_class, sizeof r->err_class, "%s", t->err_class);
        snprintf(r->code, sizeof r->code, "%s", t->err_code);
        snprintf(r->error, sizeof r->error, "%s", t->error);
    }
}

/* ---- the run ---- */

/* The script, the setup, the clients and the final reads. */
static int play(struct sc *sc, void *conn, long wait_ms, isolde_error *err)
{
    if (own_txn(sc, conn, 0, "setup transaction", err)) return -1;
    int started = 0, rc = start_clients(sc, &started, err);
    if (rc == 0) coordinate(sc, wait_ms);
    stop_clients(sc, started);
    if (sc->nomem) iso_guard_raise();
    return rc ? rc : own_txn(sc, conn, sc->n + 1, "final read", err);
}

static int run_scenario(struct sc *sc, const isolde_scenario *s, long wait_ms, isolde_scenario_result *out,
                        isolde_error *err)
{
    const run_driver *d = sc->d;
    if (!d->begin || !d->step || !d->commit)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "%s cannot run statement by statement", d->pub.name);
    for (int i = 0; i < N_TXNS + 2; i++) sc->t[i].list_append = 1;
    if (parse_script(sc, s, err)) return -1;
    setup_and_final(sc);
    if (run_setup(d, sc->env, err)) return -1;
    void *conn;
    if (run_open(d, sc->env, sc->n, url_of(sc, sc->n), NULL, NULL, &conn, err)) return -1;
    sc->t0_ns = now_ns();
    double t0 = iso_now();
    int rc = play(sc, conn, wait_ms, err);
    d->close(conn);
    out->seconds = iso_now() - t0;
    outcome(sc, out);
    return rc ? rc : write_history(sc, sc->env->o->history_path, err);
}

struct scenario_call {
    const isolde_run_opts *user;
    const char *name;
    long wait_ms;
    isolde_scenario_result *out;
};

static const isolde_scenario *scenario_named(const char *name)
{
    for (size_t i = 0; name && i < N_SCENARIOS; i++)
        if (strcmp(scenarios[i].name, name) == 0) return &scenarios[i];
    return NULL;
}

/* user's options with fresh tables asked for, where the backend has a
 * "fresh" option; opts is room for them. */
static isolde_run_opts fresh_opts(const isolde_run_opts *user, const char **opts, size_t room)
{
    isolde_run_opts o;
    isolde_run_opts_init(&o);
    memcpy(&o, user, user->size < sizeof o ? user->size : sizeof o);
    o.size = sizeof o;
    o.faults.nemesis = NULL;
    size_t n = user->n_backend_opts < room - 1 ? user->n_backend_opts : room - 1;
    for (size_t i = 0; i < n; i++) opts[i] = user->backend_opts[i];
    for (size_t i = 0; isolde_backend_option(user->backend, i); i++)
        if (!strcmp(isolde_backend_option(user->backend, i)->name, "fresh")) opts[n++] = "fresh=1";
    o.backend_opts = opts;
    o.n_backend_opts = n;
    o.workload = ISOLDE_WORKLOAD_LIST_APPEND;
    return o;
}

static int scenario(void *arg, isolde_error *err)
{
    struct scenario_call *c = arg;
    const isolde_scenario *s = scenario_named(c->name);
    if (!s) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown scenario '%s'", c->name ? c->name : "");
    if (!c->user || c->user->size < offsetof(isolde_run_opts, n_backend_opts) + sizeof(size_t) ||
        !c->user->backend)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "run options not initialised (isolde_run_opts_init)");
    const char *opts[65];
    isolde_run_opts user = fresh_opts(c->user, opts, 65), o;
    struct sc sc = {.guard = iso_guard_current()};
    run_env env;
    if (run_prepare(&user, &o, &sc.d, &env, err)) return -1;
    sc.env = &env;
    sc.t = iso_xcalloc(N_TXNS + 2, sizeof *sc.t);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&sc.cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&sc.lock, NULL);
    int rc = run_scenario(&sc, s, c->wait_ms > 0 ? c->wait_ms : 300, c->out, err);
    for (int i = 0; i < N_TXNS + 2; i++) txn_release(&sc.t[i]);
    iso_free(sc.t);
    iso_free((void *)env.config);
    pthread_cond_destroy(&sc.cond);
    pthread_mutex_destroy(&sc.lock);
    return rc;
}

isolde_status isolde_scenario_run(const isolde_run_opts *o, const char *name, long wait_ms,
                                  isolde_scenario_result *out, isolde_error *err)
{
    isolde_scenario_result local;
    struct scenario_call c = {o, name, wait_ms, out ? out : &local};
    memset(c.out, 0, sizeof *c.out);
    return iso_call(scenario, &c, err);
}
