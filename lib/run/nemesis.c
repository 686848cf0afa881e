/*
 * run/nemesis.c -- a run's nemesis thread: faults of the kinds the run
 * asks for (nemesis/), on a schedule drawn from the seed -- a wait of 0.5
 * to 1.5 times --fault-every, the fault, --fault-for seconds, its heal --
 * each start and each stop recorded as two ops of the process "nemesis",
 * its invocation and its completion, both :info as Jepsen writes them.
 * The invariant: when run_nemesis_stop returns, no fault is on (a fault
 * in force is healed first), so the final reads see the whole database.
 * The commands it records (--fault, --heal, --restart) hold none of the
 * passwords the run knows (its URLs', PGPASSWORD, MYSQL_PWD).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/rng.h"
#include "nemesis/nemesis.h"
#include "run/drivers/url.h"
#include "run/nemesis.h"

#define MAX_KINDS ISOLDE_RUN_MAX_KINDS

struct run_nemesis {
    const isolde_run_opts *o;
    const nem_kind *kinds[MAX_KINDS];
    int n_kinds;
    long kind_faults[MAX_KINDS];
    double first_wait;  /* seconds before the first fault, drawn at the start */
    double t0;          /* when the schedule began */
    nem_ctx ctx;
    uint64_t rng;
    run_nemesis_record record;
    void *arg;
    struct iso_guard *guard;
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, nomem, running;
    long faults;
    iso_buf value;
    run_secrets secrets;
};

static void scrub(void *arg, char *text) { run_secrets_scrub(arg, text); }

/* The passwords the run knows: its URLs', and the environment's. */
static void known_secrets(run_secrets *s, const isolde_run_opts *o)
{
    for (size_t i = 0; i < o->n_urls; i++) run_secrets_of_url(s, o->urls[i]);
    for (size_t i = 0; i < o->n_read_urls; i++) run_secrets_of_url(s, o->read_urls[i]);
    for (const char *const *v = (const char *const[]){"PGPASSWORD", "MYSQL_PWD", NULL}; *v; v++) {
        const char *pw = getenv(*v);
        run_secrets_add(s, pw, pw ? strlen(pw) : 0);
    }
}

/* Wait s seconds, or until stopped; 1 when stopped. */
static int wait_for(struct run_nemesis *n, double s)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long long ns = until.tv_nsec + (long long)(s * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    pthread_mutex_lock(&n->mu);
    while (!n->stop && pthread_cond_timedwait(&n->cv, &n->mu, &until) == 0) {}
    int stop = n->stop;
    pthread_mutex_unlock(&n->mu);
    return stop;
}

/* Start (or stop) a fault of kind k, recording both ops. */
static void act(struct run_nemesis *n, const nem_kind *k, int start)
{
    const char *f = start ? k->start_f : k->stop_f;
    n->record(n->arg, f, "null", 0);
    n->value.n = 0;
    (start ? k->start : k->stop)(&n->ctx, &n->value);
    n->record(n->arg, f, iso_buf_cstr(&n->value), 1);
}

/* The wait before the next fault: 0.5 to 1.5 times --fault-every. */
static double next_wait(struct run_nemesis *n)
{
    return n->o->faults.every * (0.5 + (double)iso_rng_below(&n->rng, 1u << 20) / (double)(1u << 20));
}

static void schedule(void *arg)
{
    struct run_nemesis *n = arg;
    const isolde_run_opts *o = n->o;
    for (double wait = n->first_wait;; wait = next_wait(n)) {
        if (wait_for(n, wait)) return;
        uint32_t kind = iso_rng_below(&n->rng, (uint32_t)n->n_kinds);
        const nem_kind *k = n->kinds[kind];
        act(n, k, 1);
        n->faults++;
        n->kind_faults[kind]++;
        int stopped = wait_for(n, o->faults.duration);
        act(n, k, 0);
        if (stopped) return;
    }
}

static void *thread(void *arg)
{
    struct run_nemesis *n = arg;
    if (iso_guard_enter(n->guard, schedule, n) != 0) n->nomem = 1;
    return NULL;
}

int run_nemesis_start(run_nemesis **out, const isolde_run_opts *o, struct nem_proxy *proxy,
                      run_nemesis_record record, void *arg, isolde_error *err)
{
    *out = NULL;
    const nem_kind *kinds[MAX_KINDS];
    int n_kinds = nem_parse(o, kinds, MAX_KINDS, err);
    if (n_kinds <= 0) return n_kinds;
    if (!(o->faults.every > 0) || !(o->faults.duration >= 0))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--fault-every must be > 0 and --fault-for >= 0");
    struct run_nemesis *n = iso_xcalloc(1, sizeof *n);
    nem_ctx ctx = {.o = o, .proxy = proxy, .n_nodes = (int)o->n_urls, .rng = o->seed ^ 0x70726f7879ull};
    *n = (struct run_nemesis){.o = o, .n_kinds = n_kinds, .ctx = ctx, .rng = o->seed ^ 0x6e656d65736973ull,
                              .record = record, .arg = arg, .guard = iso_guard_current()};
    for (int i = 0; i < n_kinds; i++) n->kinds[i] = kinds[i];
    n->first_wait = next_wait(n);
    n->t0 = iso_now();
    known_secrets(&n->secrets, o);
    n->ctx.scrub = scrub;
    n->ctx.scrub_arg = &n->secrets;
    pthread_mutex_init(&n->mu, NULL);
    pthread_cond_init(&n->cv, NULL);
    n->running = pthread_create(&n->tid, NULL, thread, n) == 0;
    if (!n->running) {
        run_nemesis_stop(n, NULL, NULL);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot start the nemesis thread");
    }
    *out = n;
    return 0;
}

/* What the nemesis did, into st. */
static void tell(const struct run_nemesis *n, isolde_run_stats *st)
{
    st->faults = n->faults;
    for (int i = 0; i < n->n_kinds; i++) st->kind_faults[i] = n->kind_faults[i];
    st->first_fault_due = n->first_wait;
    st->nemesis_seconds = iso_now() - n->t0;
}

void run_nemesis_stop(run_nemesis *n, int *nomem, isolde_run_stats *st)
{
    if (!n) return;
    pthread_mutex_lock(&n->mu);
    n->stop = 1;
    pthread_cond_signal(&n->cv);
    pthread_mutex_unlock(&n->mu);
    if (n->running) pthread_join(n->tid, NULL);
    if (st) tell(n, st);
    if (nomem) *nomem = n->nomem;
    pthread_cond_destroy(&n->cv);
    pthread_mutex_destroy(&n->mu);
    nem_ctx_free(&n->ctx);
    iso_buf_free(&n->value);
    run_secrets_release(&n->secrets);
    iso_free(n);
}
