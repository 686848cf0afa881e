/*
 * run/drivers/sim.c -- the simulated database (sim/) as a backend: the one
 * backend that runs its clients itself. Logical clients are interleaved
 * one micro-op at a time by a seeded schedule, each op recorded as it
 * happens (time is the step count, so one seed gives a byte-identical
 * history; --time-limit is wall-clock seconds, what a user waits, so a
 * run it cuts short is a prefix of that history). It shares the generators and the recorder with every other
 * backend. The history is written in 64 KiB chunks: the database lives in
 * this process, so a kill loses both together and what is on disk is
 * always a checkable prefix.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "gen/gen.h"
#include "history/history.h"
#include "record/record.h"
#include "run/drivers/driver.h"
#include "sim/sim.h"
#include "txn/flight.h"

/* The sim's own options (its isolation level is the run's). */
struct sim_config {
    double abort_rate, info_rate;
    long stale;
    long lose;        /* a crash loses the last N acknowledged commits */
    long lag;         /* replicated levels: how late a site applies another's commits */
};

struct client {
    txn t;
    uint32_t id;   /* sim txn id while busy */
    uint32_t pos;  /* micro-ops run */
    int busy;
    int slot;      /* its flight slot and client number (its site in the
                      replicated levels); -1: the final reads */
    int64_t process;
    int minority;  /* partitioned off with the others of its node (odd clients) */
};

/* The sim's nemesis, in simulated time (a step is 100 ns of the history's
 * clock): partition (the odd clients' node is cut off: it serves reads
 * from the snapshot it had, refuses writes) and crash (every active
 * transaction aborts, the database is down until the heal, and with
 * --lose N the last N acknowledged commits are gone). Seeded apart from
 * the schedule: a run without faults is the history it always was. */
enum { FAULT_PARTITION = 1, FAULT_CRASH = 2 };
struct sim_nemesis {
    int kinds[ISOLDE_RUN_MAX_KINDS], n_kinds; /* as --nemesis names them */
    int on;                /* the fault in force, or 0 */
    int64_t snap;          /* partition: the minority's snapshot */
    int64_t next;          /* the step of the next start or heal */
    uint64_t rng;
};

struct sim_runner {
    const isolde_run_opts *o;
    struct sim *sim;
    const gen_ops *gen;
    gen g;
    uint64_t rng;          /* the schedule */
    int fd;
    iso_buf *out;
    int64_t index, step, next_process;
    txn_flight *flight;    /* one slot per client: contended transactions */
    int n_clients;
    isolde_run_stats *st;
    double t0, last_progress;
    int write_failed;      /* why the history could not be written (an errno) */
    int late;              /* --time-limit has passed: no transaction starts */
    long lose;
    struct sim_nemesis nem;
};

static void flush(struct sim_runner *r, int force)
{
    if (r->fd < 0 || (!force && r->out->n < (1u << 16))) return;
    size_t done = 0;
    while (done < r->out->n) {
        ssize_t w = write(r->fd, r->out->p + done, r->out->n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            r->write_failed = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    r->out->n = 0;
}

static void record(struct sim_runner *r, int type, const struct client *c)
{
    rec_line(r->out, r->index++, type, c->process, &c->t, r->gen->shape, r->step * 100);
    flush(r, 0);
}

/* The workload's setup (a bank's opening balances), recorded as process
 * "setup"'s op once it committed. */
static void setup(struct sim_runner *r, struct client *c)
{
    if (!r->gen->setup || !r->gen->setup(&r->g, &c->t)) return;
    uint32_t id = sim_begin(r->sim, &c->t, SIM_FRESH);
    int rc = 0;
    for (uint32_t i = 0; i < c->t.n && rc == 0; i++) rc = sim_exec(r->sim, id, i);
    if (rc == 0) rc = sim_commit(r->sim, id, 0);
    sim_settle(r->sim);
    if (rc != 0) return;
    iso_buf v = {0};
    const char *f = r->gen->shape(&c->t, 1, &v);
    rec_setup(r->out, r->index, f, iso_buf_cstr(&v), r->step * 100);
    r->index += 2;
    iso_buf_free(&v);
}

static void finish(struct sim_runner *r, struct client *c, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    record(r, types[outcome], c);
    txn_count(r->st, outcome, &c->t);
    if (c->slot >= 0 && txn_flight_end(r->flight, c->slot)) r->st->contended++;
    if (outcome == TXN_INFO) c->process = r->next_process++;
    c->busy = 0;
}

static int stopped(const struct sim_runner *r)
{
    return (r->o->stop && *r->o->stop) || r->write_failed;
}

/* No transaction starts once stopped or past --time-limit (the final
 * reads still run). */
static int no_more(const struct sim_runner *r) { return stopped(r) || r->late; }

/* A transaction the fault in force refuses at once (a crashed database;
 * a write on the cut-off node): it fails, with its reads unread. */
static int refused(struct sim_runner *r, struct client *c)
{
    int down = r->nem.on == FAULT_CRASH, cut = r->nem.on == FAULT_PARTITION && c->minority;
    if (!down && !(cut && txn_writes(&c->t))) return 0;
    txn_clear_reads(&c->t);
    if (down) txn_error(&c->t, "connection", NULL, "connection refused: the database is down");
    else txn_error(&c->t, "unavailable", NULL, "partitioned: this node cannot commit writes");
    finish(r, c, TXN_FAIL);
    return 1;
}

/* ---- the nemesis ---- */

static void record_fault(struct sim_runner *r, const char *f, const char *value)
{
    rec_op op = {r->index++, ISO_OP_INFO, "nemesis", 0, f, value, r->step * 100, NULL};
    rec_op_line(r->out, &op);
    flush(r, 0);
}

static int64_t steps_of(double seconds) { return (int64_t)(seconds * 1e7) + 1; }

/* Start a fault, failing the clients a crash cuts off mid-transaction. */
static void start_fault(struct sim_runner *r, struct client *cs, int n)
{
    struct sim_nemesis *m = &r->nem;
    uint32_t kind = iso_rng_below(&m->rng, (uint32_t)m->n_kinds);
    m->on = m->kinds[kind];
    r->st->kind_faults[kind]++;
    char value[160];
    if (m->on == FAULT_PARTITION) {
        m->snap = sim_last_commit(r->sim);
        snprintf(value, sizeof value, "{\"cut-off\":\"the odd clients' node\",\"snapshot\":%lld}",
                 (long long)m->snap);
        record_fault(r, "start-partition", "null");
        record_fault(r, "start-partition", value);
    } else {
        record_fault(r, "crash", "null");
        size_t lost = sim_crash(r->sim, sim_last_commit(r->sim) - r->lose);
        for (int i = 0; i < n; i++)
            if (cs[i].busy) {
                cs[i].t.err_class[0] = '\0';
                txn_error(&cs[i].t, "connection", NULL, "the database crashed");
                finish(r, &cs[i], TXN_FAIL);
            }
        snprintf(value, sizeof value, "{\"lost-commits\":%zu}", lost);
        record_fault(r, "crash", value);
    }
    r->st->faults++;
}

static void heal(struct sim_runner *r)
{
    const char *f = r->nem.on == FAULT_PARTITION ? "stop-partition" : "restart";
    record_fault(r, f, "null");
    record_fault(r, f, "\"healed\"");
    r->nem.on = 0;
}

/* At step boundaries: the next start or heal when its time has come. */
static void nemesis_step(struct sim_runner *r, struct client *cs, int n)
{
    struct sim_nemesis *m = &r->nem;
    if (!m->n_kinds || r->step < m->next) return;
    const isolde_run_opts *o = r->o;
    if (m->on) {
        heal(r);
        double wait = o->faults.every * (0.5 + (double)iso_rng_below(&m->rng, 1u << 20) / (double)(1u << 20));
        m->next = r->step + steps_of(wait);
    } else {
        start_fault(r, cs, n);
        m->next = r->step + steps_of(o->faults.duration);
    }
}

/* The kinds --nemesis asks of the sim; -1 with err for one it has not. */
static int sim_nemesis_parse(struct sim_runner *r, isolde_error *err)
{
    struct sim_nemesis *m = &r->nem;
    const isolde_run_opts *o = r->o;
    m->rng = o->seed ^ 0x73696d6e656dull;
    for (const char *s = o->faults.nemesis; s && *s;) {
        size_t len = strcspn(s, ",");
        int kind = len == 9 && !strncmp(s, "partition", 9) ? FAULT_PARTITION
                 : len == 5 && !strncmp(s, "crash", 5) ? FAULT_CRASH : 0;
        if (!kind)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                            "the sim's nemesis has partition and crash, not '%.*s'", (int)len, s);
        if (m->n_kinds == ISOLDE_RUN_MAX_KINDS)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "too many nemesis kinds");
        m->kinds[m->n_kinds++] = kind;
        s += len + (s[len] == ',');
    }
    if (m->n_kinds && !(o->faults.every > 0))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--fault-every must be > 0");
    m->next = steps_of(o->faults.every);
    r->st->first_fault_due = o->faults.every;
    return 0;
}

/* One step of client c; returns 0 when c has nothing more to do. */
static int step(struct sim_runner *r, struct client *c)
{
    if (!c->busy) {
        if (no_more(r) || !r->gen->next(&r->g, &c->t)) return 0;
        record(r, ISO_OP_INVOKE, c);
        txn_flight_start(r->flight, r->n_clients, c->slot, &c->t);
        if (refused(r, c)) return 1;
        int stale = r->nem.on == FAULT_PARTITION && c->minority;
        c->id = stale ? sim_begin_replica(r->sim, &c->t, r->nem.snap) : sim_begin(r->sim, &c->t, c->slot);
        c->busy = 1;
        c->pos = 0;
    } else if (c->pos < c->t.n) {
        if (sim_exec(r->sim, c->id, c->pos++) < 0) finish(r, c, TXN_FAIL);
    } else {
        finish(r, c, sim_commit(r->sim, c->id, 1));
    }
    return 1;
}

/* Every few thousand steps: the wall clock against --time-limit, and the
 * progress report. */
static void progress(struct sim_runner *r)
{
    double now = iso_now();
    if (r->o->time_limit > 0 && now - r->t0 >= r->o->time_limit) r->late = 1;
    if (!r->o->progress || now - r->last_progress < 0.1) return;
    r->last_progress = now;
    r->o->progress(r->o->progress_arg, (long)r->g.made, r->g.p.txns, now - r->t0);
}

/* Clients picked at random, one micro-op at a time, until all are done. */
static void schedule(struct sim_runner *r, struct client *cs, int n)
{
    uint32_t *live = iso_xmalloc((size_t)n * sizeof *live);
    uint32_t n_live = (uint32_t)n;
    for (int i = 0; i < n; i++) live[i] = (uint32_t)i;
    while (n_live > 0) {
        if ((++r->step & 4095) == 0) progress(r);
        nemesis_step(r, cs, n);
        uint32_t j = iso_rng_below(&r->rng, n_live);
        if (!step(r, &cs[live[j]])) live[j] = live[--n_live];
    }
    iso_free(live);
}

/* Read every key, one chunk at a time, on the latest snapshot. */
static void final_reads(struct sim_runner *r, struct client *c)
{
    c->process = r->next_process++;
    while (!stopped(r) && r->gen->final(&r->g, &c->t)) {
        record(r, ISO_OP_INVOKE, c);
        c->id = sim_begin(r->sim, &c->t, SIM_FRESH);
        int rc = 0;
        for (uint32_t i = 0; i < c->t.n && rc == 0; i++) rc = sim_exec(r->sim, c->id, i);
        finish(r, c, rc < 0 ? TXN_FAIL : sim_commit(r->sim, c->id, 0));
    }
}

/* The clients, one more for the setup and the final reads: client i
 * is process i, in flight slot i; the odd ones are the partition's
 * minority. */
static struct client *clients_new(struct sim_runner *r, int n)
{
    struct client *cs = iso_xcalloc((size_t)n + 1, sizeof *cs);
    r->flight = iso_xcalloc((size_t)n, sizeof *r->flight);
    r->n_clients = n;
    for (int i = 0; i <= n; i++) cs[i].process = i, cs[i].slot = i < n ? i : -1;
    for (int i = 0; i <= n; i++) cs[i].minority = i % 2;
    return cs;
}

/* The setup, the clients' schedule, then the final reads, counted in st. */
static void run_all(struct sim_runner *r, struct client *cs, int n, isolde_run_stats *st)
{
    setup(r, &cs[n]);
    schedule(r, cs, n);
    st->nemesis_seconds = (double)r->step * 1e-7;
    if (r->nem.on) heal(r); /* the final reads see the whole database */
    st->time_limited = r->late && r->g.made < r->g.p.txns;
    long before_final = st->ok + st->fail + st->info;
    final_reads(r, &cs[n]);
    st->final_reads = st->ok + st->fail + st->info - before_final;
    flush(r, 1);
}

static int sim_loop(const run_env *env, int fd, isolde_run_stats *st, isolde_error *err)
{
    const isolde_run_opts *o = env->o;
    const struct sim_config *cf = env->config;
    gen_params gp;
    gen_params_of(o, &gp);
    sim_params sp = {sim_level_parse(env->isolation), gp.list_append, o->seed, cf->stale,
                     cf->abort_rate, cf->info_rate, cf->lag};
    iso_buf out = {0};
    struct sim_runner r = {.o = o, .fd = fd, .out = &out, .st = st, .gen = gen_ops_for(o->workload),
                           .lose = cf->lose};
    if (sim_nemesis_parse(&r, err) < 0) return -1;
    r.sim = sim_new(&sp);
    r.gen->init(&r.g, &gp);
    r.rng = o->seed * 0x2545F4914F6CDD1Dull + 7;
    r.next_process = o->clients;
    r.t0 = r.last_progress = iso_now();
    struct client *cs = clients_new(&r, o->clients);
    run_all(&r, cs, o->clients, st);
    for (int i = 0; i <= o->clients; i++) txn_release(&cs[i].t);
    iso_free(cs);
    iso_free(r.flight);
    sim_free(r.sim);
    iso_buf_free(&out);
    st->seconds = iso_now() - r.t0;
    if (r.write_failed)
        return iso_fail(err, ISOLDE_ERR_IO, o->history_path, 0, 0, "cannot write the history: %s",
                        strerror(r.write_failed));
    return 0;
}

#define OPT(name, type, arg, dflt, help, field, lo, hi) \
    {{name, type, arg, dflt, help}, offsetof(struct sim_config, field), lo, hi, NULL}
static const run_option options[] = {
    OPT("abort-rate", ISOLDE_OPTION_DOUBLE, "F", "0", "share of commits aborted at random", abort_rate, 0, 1),
    OPT("info-rate", ISOLDE_OPTION_DOUBLE, "F", "0", "share of commits with an unknown outcome",
        info_rate, 0, 1),
    OPT("stale", ISOLDE_OPTION_INT, "N", "3", "serializable: snapshots up to N commits old", stale, 0,
        1 << 20),
    OPT("lose", ISOLDE_OPTION_INT, "N", "0", "broken: a crash (--nemesis crash) loses the last N acknowledged commits",
        lose, 0, 1 << 30),
    OPT("lag", ISOLDE_OPTION_INT, "N", "8", "replicated levels: a site applies another's commits up to N commits late",
        lag, 0, 1 << 20),
};

const run_driver run_driver_sim = {
    {"sim", "a seeded in-process MVCC database whose levels are known", NULL, "strict-serializable",
     sim_level_names},
    sizeof(struct sim_config), options, sizeof options / sizeof options[0],
    NULL, NULL, NULL, NULL, sim_loop, NULL, NULL, NULL, NULL, 0, NULL};
