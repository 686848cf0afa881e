/*
 * test_sim.c -- the simulated database, directly (write skew, lost update,
 * dirty reads at each level) and as the ladder: for every isolation level,
 * over 150 seeds, the checker finds the history sound at its own level,
 * finds at some seed the anomaly the next level forbids, and the level
 * still commits a real share of its transactions. Broken modes are caught.
 * The replicated levels' broken modes, directly: a fractured read and a
 * causality violation (t4020-sim-weak-ladder judges them by the oracle).
 */
#include "testutil.h"
#include "run/run.h"
#include "sim/sim.h"

/* ---- direct ---- */

static void make(txn *t, const char *ops)
{
    /* ops: "r0 a1 w2": read key 0, append 1 to key 1 (value = 10+k), ... */
    memset(t->mops, 0, sizeof t->mops);
    t->n = 0;
    t->list_append = 1;
    for (const char *p = ops; *p; p++) {
        if (*p == ' ') continue;
        txn_mop *m = &t->mops[t->n++];
        m->f = *p == 'r' ? TXN_R : *p == 'a' ? TXN_APPEND : TXN_W;
        m->key = p[1] - '0';
        m->value = 10 + m->key + 100 * t->n;
        p++;
    }
}

static int run_all(struct sim *s, uint32_t id, txn *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (sim_exec(s, id, i) < 0) return TXN_FAIL;
    return TXN_OK;
}

static struct sim *sim_at(int level)
{
    sim_params p = {level, 1, 1, 0, 0, 0, 0};
    return sim_new(&p);
}

/* T1 and T2 read x and y, then each writes one of them: write skew. */
static int write_skew_commits(int level)
{
    struct sim *s = sim_at(level);
    txn t1 = {0}, t2 = {0};
    make(&t1, "r0 r1 a0");
    make(&t2, "r0 r1 a1");
    uint32_t a = sim_begin(s, &t1, SIM_FRESH), b = sim_begin(s, &t2, SIM_FRESH);
    int n = 0;
    if (run_all(s, a, &t1) == TXN_OK && run_all(s, b, &t2) == TXN_OK) {
        n += sim_commit(s, a, 0) == TXN_OK;
        n += sim_commit(s, b, 0) == TXN_OK;
    }
    txn_release(&t1);
    txn_release(&t2);
    sim_free(s);
    return n;
}

static void test_write_skew(void **state)
{
    (void)state;
    assert_int_equal(write_skew_commits(SIM_SI), 2);
    assert_int_equal(write_skew_commits(SIM_SER), 1);
    assert_int_equal(write_skew_commits(SIM_SSER), 1);
}

/* T1 and T2 both read x then append to it; returns commits and the
 * length of x read afterwards. */
static int lost_update(int level, uint32_t *len)
{
    struct sim *s = sim_at(level);
    txn t1 = {0}, t2 = {0}, t3 = {0};
    make(&t1, "r0 a0");
    make(&t2, "r0 a0");
    t2.mops[1].value = 99;
    uint32_t a = sim_begin(s, &t1, SIM_FRESH), b = sim_begin(s, &t2, SIM_FRESH);
    run_all(s, a, &t1);
    run_all(s, b, &t2);
    int n = (sim_commit(s, a, 0) == TXN_OK) + (sim_commit(s, b, 0) == TXN_OK);
    make(&t3, "r0");
    uint32_t c = sim_begin(s, &t3, SIM_FRESH);
    run_all(s, c, &t3);
    assert_int_equal(sim_commit(s, c, 0), TXN_OK);
    *len = t3.mops[0].len;
    txn_release(&t1);
    txn_release(&t2);
    txn_release(&t3);
    sim_free(s);
    return n;
}

static void test_lost_update(void **state)
{
    (void)state;
    uint32_t len;
    assert_int_equal(lost_update(SIM_SI, &len), 1);
    assert_int_equal(len, 1);
    assert_int_equal(lost_update(SIM_NO_VALIDATE, &len), 2);
    assert_int_equal(len, 2);
    assert_int_equal(lost_update(SIM_LOST_UPDATE, &len), 2);
    assert_int_equal(len, 1); /* the first append was written over */
}

/* T1 appends to x and stays open; T2 reads x. */
static uint32_t dirty_len(int level)
{
    struct sim *s = sim_at(level);
    txn t1 = {0}, t2 = {0};
    make(&t1, "a0");
    make(&t2, "r0");
    uint32_t a = sim_begin(s, &t1, SIM_FRESH), b = sim_begin(s, &t2, SIM_FRESH);
    run_all(s, a, &t1);
    run_all(s, b, &t2);
    uint32_t len = t2.mops[0].len;
    sim_commit(s, b, 0);
    sim_commit(s, a, 0);
    txn_release(&t1);
    txn_release(&t2);
    sim_free(s);
    return len;
}

static void test_dirty_reads(void **state)
{
    (void)state;
    assert_int_equal(dirty_len(SIM_RU), 1);
    assert_int_equal(dirty_len(SIM_DIRTY_READ), 1);
    assert_int_equal(dirty_len(SIM_RC), 0);
    assert_int_equal(dirty_len(SIM_SI), 0);
}

static void test_write_locks(void **state)
{
    (void)state;
    struct sim *s = sim_at(SIM_RC);
    txn t1 = {0}, t2 = {0};
    make(&t1, "a0");
    make(&t2, "a0");
    uint32_t a = sim_begin(s, &t1, SIM_FRESH), b = sim_begin(s, &t2, SIM_FRESH);
    assert_int_equal(sim_exec(s, a, 0), 0);
    assert_int_equal(sim_exec(s, b, 0), -1); /* no-wait: the second writer aborts */
    assert_string_equal(t2.error, "write lock held");
    assert_int_equal(sim_commit(s, a, 0), TXN_OK);
    txn_release(&t1);
    txn_release(&t2);
    sim_free(s);
}

/* Replicated levels (--lag 0): each client's transaction, begun and run
 * to its commit in turn (client i at site i mod 3); the lengths of the
 * last one's reads, into len. */
static void in_turn(int level, const char *const *ops, const int *client, int n, uint32_t *len)
{
    struct sim *s = sim_at(level);
    txn t = {0};
    for (int i = 0; i < n; i++) {
        make(&t, ops[i]);
        uint32_t id = sim_begin(s, &t, client[i]);
        assert_int_equal(run_all(s, id, &t), TXN_OK);
        assert_int_equal(sim_commit(s, id, 0), TXN_OK);
    }
    for (uint32_t i = 0; i < t.n; i++) len[i] = t.mops[i].len;
    txn_release(&t);
    sim_free(s);
}

/* Site 0 commits appends to keys 0 and 1; site 2 reads both at once:
 * fractured-read has applied one key, parallel SI both. */
static void test_fractured_read(void **state)
{
    (void)state;
    const char *ops[] = {"a0 a1", "r0 r1"};
    const int client[] = {0, 2};
    uint32_t len[2];
    in_turn(SIM_FRACTURED, ops, client, 2, len);
    assert_int_equal(len[0], 1);
    assert_int_equal(len[1], 0);
    in_turn(SIM_PSI, ops, client, 2, len);
    assert_int_equal(len[0], 1);
    assert_int_equal(len[1], 1);
}

/* Site 0 appends to key 0; site 2 reads it and appends to key 1; site 1
 * reads key 1, then key 0: causality-violation (whose link from site 0 to
 * site 1 is stalled) shows key 1's append without key 0's, which caused
 * it; parallel SI shows both. */
static void test_causality_violation(void **state)
{
    (void)state;
    const char *ops[] = {"a0", "r0 a1", "r1 r0"};
    const int client[] = {0, 2, 1};
    uint32_t len[2];
    in_turn(SIM_CAUSALITY, ops, client, 3, len);
    assert_int_equal(len[0], 1);
    assert_int_equal(len[1], 0);
    in_turn(SIM_PSI, ops, client, 3, len);
    assert_int_equal(len[0], 1);
    assert_int_equal(len[1], 1);
}

static void test_level_names(void **state)
{
    (void)state;
    const isolde_backend *b = isolde_backend_at(0);
    assert_string_equal(b->name, "sim");
    for (int i = 0; i < SIM_N_LEVELS; i++) {
        assert_string_equal(b->levels[i], sim_level_names[i]);
        assert_int_equal(sim_level_parse(b->levels[i]), i);
    }
    assert_null(b->levels[SIM_N_LEVELS]);
    assert_int_equal(sim_level_parse("chaos"), -1);
}

/* ---- whole runs ---- */

/* The sim's own options, as "name=value" (backend_opts). */
static char sim_knobs[2][64];
static const char *sim_knob_list[2];

static void sim_knobs_set(isolde_run_opts *o, double abort_rate, double info_rate)
{
    snprintf(sim_knobs[0], sizeof sim_knobs[0], "abort-rate=%g", abort_rate);
    snprintf(sim_knobs[1], sizeof sim_knobs[1], "info-rate=%g", info_rate);
    sim_knob_list[0] = sim_knobs[0];
    sim_knob_list[1] = sim_knobs[1];
    o->backend_opts = sim_knob_list;
    o->n_backend_opts = 2;
}

static void sim_opts(isolde_run_opts *o, const char *level, uint64_t seed, int la)
{
    isolde_run_opts_init(o);
    o->isolation = level;
    o->seed = seed;
    o->txns = 200;
    o->clients = 6;
    o->workload = la ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER;
}

/* Run the sim through isolde_run into a scratch file and read it back. */
static isolde_history *sim_history(isolde_run_opts *o, isolde_run_stats *st)
{
    char path[] = "/tmp/isolde-test-sim-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    isolde_error err = {0};
    isolde_history *h = NULL;
    o->history_path = path;
    if (isolde_run(o, st, &err) != ISOLDE_OK) fail_msg("sim run failed: %s", err.msg);
    if (isolde_history_read_file(path, tu_fmt(ISOLDE_FORMAT_JSONL), &h, &err) != 0)
        fail_msg("sim history unreadable: %ld:%ld: %s", err.line, err.col, err.msg);
    unlink(path);
    return h;
}

static isolde_result *check(const isolde_history *h, const char *models, isolde_workload w)
{
    isolde_check_opts co;
    isolde_check_opts_init(&co);
    co.models = models;
    co.workload = w;
    static const char *const wfr[] = {"wfr-keys"};
    co.checker_opts = wfr;
    co.n_checker_opts = 1;
    co.threads = 1;
    isolde_result *r = NULL;
    isolde_error err = {0};
    if (isolde_check(h, &co, &r, &err) != 0) fail_msg("check failed: %s", err.msg);
    return r;
}

/* Does r report an anomaly type named want (or, for "-realtime", any
 * type ending so)? */
static int has_type(const isolde_result *r, const char *want)
{
    for (size_t i = 0; i < isolde_result_type_count(r); i++) {
        const char *t = isolde_result_type(r, i);
        size_t lt = strlen(t), lw = strlen(want);
        if (want[0] == '-' ? lt >= lw && strcmp(t + lt - lw, want) == 0 : strcmp(t, want) == 0)
            return 1;
    }
    return 0;
}

struct rung {
    const char *level;
    const char *next;     /* the model just above, or NULL */
    const char *shows[2]; /* at some seed, one of these under next */
    double abort_rate;
    double min_commit;    /* share of transactions that must commit */
};

static const struct rung ladder[] = {
    {"read-uncommitted", "read-committed", {"G1a", "G1b"}, 0.1, 0.5},
    {"read-committed", "snapshot-isolation", {"G-single-item", NULL}, 0, 0.5},
    {"snapshot-isolation", "serializable", {"G2-item", NULL}, 0, 0.5},
    {"serializable", "strict-serializable", {"-realtime", NULL}, 0, 0.4},
    {"strict-serializable", NULL, {NULL, NULL}, 0, 0.4},
};

#define SEEDS 150

static void climb(const struct rung *g, int la)
{
    long ok = 0, all = 0;
    int shown = 0;
    isolde_workload w = la ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        isolde_run_opts o;
        isolde_run_stats st = {0};
        sim_opts(&o, g->level, seed, la);
        sim_knobs_set(&o, g->abort_rate, 0);
        isolde_history *h = sim_history(&o, &st);
        isolde_result *r = check(h, g->level, w);
        if (isolde_result_validity(r) != ISOLDE_VALID)
            fail_msg("%s seed %lu: not sound at its own level (%s)", g->level,
                     (unsigned long)seed, isolde_result_type_count(r) ? isolde_result_type(r, 0) : "?");
        isolde_result_free(r);
        if (g->next) {
            r = check(h, g->next, w);
            shown += has_type(r, g->shows[0]) || (g->shows[1] && has_type(r, g->shows[1]));
            isolde_result_free(r);
        }
        isolde_history_free(h);
        ok += st.ok;
        all += st.ok + st.fail + st.info;
    }
    print_message("%-20s %s: commits %.2f, next level's anomaly at %d/%d seeds\n",
                  g->level, la ? "list-append" : "rw-register", (double)ok / all, shown, SEEDS);
    if (g->next && shown == 0) fail_msg("%s never showed %s", g->level, g->shows[0]);
    assert_true((double)ok / all >= g->min_commit);
}

static void test_ladder_list_append(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++) climb(&ladder[i], 1);
}

static void test_ladder_rw_register(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++) climb(&ladder[i], 0);
}

/* Broken modes must be convicted at the level they pretend to. */
static void test_broken_modes(void **state)
{
    (void)state;
    static const char *const broken[][2] = {{"lost-update", "snapshot-isolation"},
                                            {"no-validate", "snapshot-isolation"},
                                            {"dirty-read", "read-committed"}};
    for (size_t b = 0; b < 3; b++) {
        int caught = 0;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            isolde_run_opts o;
            isolde_run_stats st;
            sim_opts(&o, broken[b][0], seed, 1);
            isolde_history *h = sim_history(&o, &st);
            isolde_result *r = check(h, broken[b][1], ISOLDE_WORKLOAD_LIST_APPEND);
            caught += isolde_result_validity(r) == ISOLDE_INVALID;
            isolde_result_free(r);
            isolde_history_free(h);
        }
        print_message("%-12s caught at %d/20 seeds\n", broken[b][0], caught);
        assert_true(caught >= 10);
    }
}

/* Indeterminate commits stay sound: an info may or may not have happened. */
static void test_info_knob(void **state)
{
    (void)state;
    long info = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        isolde_run_opts o;
        isolde_run_stats st;
        sim_opts(&o, "strict-serializable", seed, 1);
        sim_knobs_set(&o, 0.1, 0.1);
        isolde_history *h = sim_history(&o, &st);
        isolde_result *r = check(h, "strict-serializable", ISOLDE_WORKLOAD_LIST_APPEND);
        assert_int_equal(isolde_result_validity(r), ISOLDE_VALID);
        info += st.info;
        isolde_result_free(r);
        isolde_history_free(h);
    }
    assert_true(info > 0);
}

/* The bytes isolde_run records for o. */
static void sim_bytes(isolde_run_opts *o, iso_buf *out)
{
    char path[] = "/tmp/isolde-test-sim-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    isolde_run_stats st;
    isolde_error err;
    o->history_path = path;
    assert_int_equal(isolde_run(o, &st, &err), ISOLDE_OK);
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) iso_buf_put(out, buf, (size_t)n);
    close(fd);
    unlink(path);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    iso_buf a = {0}, b = {0}, c = {0};
    isolde_run_opts o;
    sim_opts(&o, "serializable", 7, 1);
    sim_bytes(&o, &a);
    sim_bytes(&o, &b);
    o.seed = 8;
    sim_bytes(&o, &c);
    assert_true(a.n > 0);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.p, b.p, a.n);
    assert_true(a.n != c.n || memcmp(a.p, c.p, a.n) != 0);
    iso_buf_free(&a);
    iso_buf_free(&b);
    iso_buf_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_skew),
        cmocka_unit_test(test_lost_update),
        cmocka_unit_test(test_dirty_reads),
        cmocka_unit_test(test_write_locks),
        cmocka_unit_test(test_fractured_read),
        cmocka_unit_test(test_causality_violation),
        cmocka_unit_test(test_level_names),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_info_knob),
        cmocka_unit_test(test_broken_modes),
        cmocka_unit_test(test_ladder_list_append),
        cmocka_unit_test(test_ladder_rw_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
