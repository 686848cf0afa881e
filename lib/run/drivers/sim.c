/*
 * run/drivers/sim.c -- the simulated database (sim/) as a backend: the one
 * backend that runs its clients itself. Logical clients are interleaved
 * one micro-op at a time by a seeded schedule, each op recorded as it
 * happens (time is the step count, so one seed gives a byte-identical
 * history). It shares the generators and the recorder with every other
 * backend. The history is written in 64 KiB chunks: the database lives in
 * this process, so a kill loses both together and what is on disk is
 * always a checkable prefix.
 */
#include <string.h>
#include <unistd.h>
#include "gen/gen.h"
#include "history/history.h"
#include "record/record.h"
#include "run/drivers/driver.h"
#include "sim/sim.h"

/* The sim's own options (its isolation level is the run's). */
struct sim_config {
    double abort_rate, info_rate;
    long stale;
};

struct client {
    run_txn t;
    uint32_t id;   /* sim txn id while busy */
    uint32_t pos;  /* micro-ops run */
    int busy;
    int64_t process;
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
    isolde_run_stats *st;
    double t0, last_progress;
    int write_failed;
};

static void flush(struct sim_runner *r, int force)
{
    if (r->fd < 0 || (!force && r->out->n < (1u << 16))) return;
    size_t done = 0;
    while (done < r->out->n) {
        ssize_t w = write(r->fd, r->out->p + done, r->out->n - done);
        if (w <= 0) { r->write_failed = 1; break; }
        done += (size_t)w;
    }
    r->out->n = 0;
}

static void record(struct sim_runner *r, int type, const struct client *c)
{
    rec_line(r->out, r->index++, type, c->process, &c->t, r->step * 100);
    flush(r, 0);
}

static void finish(struct sim_runner *r, struct client *c, int outcome)
{
    static const int types[] = {ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO};
    record(r, types[outcome], c);
    run_txn_count(r->st, outcome, &c->t);
    if (outcome == RUN_INFO) c->process = r->next_process++;
    c->busy = 0;
}

static int stopped(const struct sim_runner *r)
{
    return (r->o->stop && *r->o->stop) || r->write_failed;
}

/* One step of client c; returns 0 when c has nothing more to do. */
static int step(struct sim_runner *r, struct client *c)
{
    if (!c->busy) {
        if (stopped(r) || !r->gen->next(&r->g, &c->t)) return 0;
        record(r, ISO_OP_INVOKE, c);
        c->id = sim_begin(r->sim, &c->t, 0);
        c->busy = 1;
        c->pos = 0;
    } else if (c->pos < c->t.n) {
        if (sim_exec(r->sim, c->id, c->pos++) < 0) finish(r, c, RUN_FAIL);
    } else {
        finish(r, c, sim_commit(r->sim, c->id, 1));
    }
    return 1;
}

static void progress(struct sim_runner *r)
{
    if (!r->o->progress) return;
    double now = iso_now();
    if (now - r->last_progress < 0.1) return;
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
        uint32_t j = rng_below(&r->rng, n_live);
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
        c->id = sim_begin(r->sim, &c->t, 1);
        int rc = 0;
        for (uint32_t i = 0; i < c->t.n && rc == 0; i++) rc = sim_exec(r->sim, c->id, i);
        finish(r, c, rc < 0 ? RUN_FAIL : sim_commit(r->sim, c->id, 0));
    }
}

static int sim_loop(const run_env *env, int fd, isolde_run_stats *st, isolde_error *err)
{
    const isolde_run_opts *o = env->o;
    const struct sim_config *cf = env->config;
    gen_params gp;
    gen_params_of(o, &gp);
    sim_params sp = {sim_level_parse(env->isolation), gp.list_append, o->seed, cf->stale,
                     cf->abort_rate, cf->info_rate};
    iso_buf out = {0};
    struct sim_runner r = {.o = o, .fd = fd, .out = &out, .st = st, .gen = gen_ops_for(o->workload)};
    r.sim = sim_new(&sp);
    r.gen->init(&r.g, &gp);
    r.rng = o->seed * 0x2545F4914F6CDD1Dull + 7;
    r.next_process = o->clients;
    r.t0 = r.last_progress = iso_now();
    struct client *cs = iso_xcalloc((size_t)o->clients + 1, sizeof *cs);
    for (int i = 0; i <= o->clients; i++) cs[i].process = i;
    schedule(&r, cs, o->clients);
    final_reads(&r, &cs[o->clients]);
    flush(&r, 1);
    for (int i = 0; i <= o->clients; i++) run_txn_release(&cs[i].t);
    iso_free(cs);
    sim_free(r.sim);
    iso_buf_free(&out);
    st->seconds = iso_now() - r.t0;
    if (r.write_failed) return iso_fail(err, ISOLDE_ERR_IO, o->history_path, 0, 0, "cannot write the history");
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
};

const run_driver run_driver_sim = {
    {"sim", "a seeded in-process MVCC database whose levels are known", NULL, "strict-serializable",
     sim_level_names},
    sizeof(struct sim_config), options, sizeof options / sizeof options[0],
    NULL, NULL, NULL, NULL, sim_loop, NULL, NULL, NULL, NULL};
