/* jepsen/test_jepsen.c -- lib/jepsen/: the cases of tests/data/jepsen
 * through the library, as their headers say (tests/data/README; the CLI's
 * side is tests/cli/t6200-check-jepsen.sh); set-full's segment-tree
 * shortcut and long-fork's sort-and-chain shortcut agree with Jepsen's
 * quadratic algorithms (every element against every read; every pair of
 * reads) on random histories; counter's bounds; every checker's JSON is
 * one object with Jepsen's keys. */
#include "cases.h"

#define ELEMS 12
#define OPS 60

/* ---- set-full: Jepsen's per-element fold, read by read ---- */

struct op { int type, f, proc, value, index, inv; long long time; unsigned set; };

/* counts[0..3]: stable, lost, never-read, stale (Jepsen's set-full-results) */
static void naive_set_full(const struct op *ops, int n, size_t counts[4])
{
    for (int e = 0; e < ELEMS; e++) {
        int added = -1, known = -1, present = -1, absent = -1;
        for (int i = 0; i < n; i++) {
            const struct op *o = &ops[i];
            if (o->f == 0 && o->value == e && o->type == 0) { added = i; known = present = absent = -1; }
            else if (o->f == 0 && o->value == e && o->type == 1 && added >= 0 && known < 0) known = i;
            else if (o->f == 1 && o->type == 1 && added >= 0) {
                if (o->set >> e & 1) {
                    if (known < 0) known = i;
                    if (present < 0 || ops[present].index < ops[o->inv].index) present = o->inv;
                } else if (absent < 0 || ops[absent].index < ops[o->inv].index) {
                    absent = o->inv;
                }
            }
        }
        if (added < 0) continue;
        int ia = absent < 0 ? -1 : ops[absent].index, ip = present < 0 ? -1 : ops[present].index;
        if (present >= 0 && ia < ip) {
            long long t = absent < 0 ? 0 : ops[absent].time + 1, d = t - ops[known].time;
            counts[0]++;
            counts[3] += d / 1000000 > 0;
        } else if (known >= 0 && absent >= 0 && ip < ia && ops[known].index < ia) {
            counts[1]++;
        } else {
            counts[2]++;
        }
    }
}

static void random_set_full(unsigned seed, struct op *ops, int *n, char *edn, size_t cap)
{
    int open[4] = {-1, -1, -1, -1}, m = 0;
    size_t len = 0;
    srand(seed);
    for (int i = 0; i < OPS; i++) {
        int p = rand() % 4;
        struct op o = {0, rand() % 2, p, rand() % ELEMS, m, m, (long long)i * 700000, 0};
        if (open[p] >= 0) { /* complete p's op */
            o = ops[open[p]];
            o.type = rand() % 5 ? 1 : 3;
            o.index = m;
            o.inv = open[p];
            o.time = (long long)i * 700000;
            if (o.f == 1) o.set = (unsigned)rand() & ((1u << ELEMS) - 1);
            open[p] = -1;
        } else {
            open[p] = m;
        }
        ops[m++] = o;
        len += (size_t)snprintf(edn + len, cap - len, "{:type :%s, :f :%s, :process %d, :time %lld, :value ",
                                o.type == 0 ? "invoke" : o.type == 1 ? "ok" : "info", o.f ? "read" : "add", p,
                                o.time);
        if (o.f == 0) len += (size_t)snprintf(edn + len, cap - len, "%d}\n", o.value);
        else if (o.type != 1) len += (size_t)snprintf(edn + len, cap - len, "nil}\n");
        else {
            len += (size_t)snprintf(edn + len, cap - len, "[");
            for (int e = 0; e < ELEMS; e++)
                if (o.set >> e & 1) len += (size_t)snprintf(edn + len, cap - len, "%d ", e);
            len += (size_t)snprintf(edn + len, cap - len, "]}\n");
        }
    }
    *n = m;
}

static char *json_of(isolde_history *h, isolde_workload w, isolde_validity *v)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = w;
    isolde_result *r = NULL;
    isolde_error err;
    assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_OK);
    *v = isolde_result_validity(r);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(isolde_result_write_json(r, f, &err), ISOLDE_OK);
    fclose(f);
    isolde_result_free(r);
    return buf;
}

static size_t count_of(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    if (!p) fail_msg("no %s in %s", key, json);
    return (size_t)strtoul(p + strlen(pat), NULL, 10);
}

static void set_full_agrees_with_jepsen(void **state)
{
    (void)state;
    static char edn[1 << 16];
    struct op ops[OPS];
    for (unsigned seed = 1; seed <= 500; seed++) {
        int n;
        random_set_full(seed, ops, &n, edn, sizeof edn);
        size_t want[4] = {0};
        naive_set_full(ops, n, want);
        isolde_history *h = tu_read(edn, ISOLDE_FORMAT_EDN);
        isolde_validity v;
        char *json = json_of(h, ISOLDE_WORKLOAD_SET_FULL, &v);
        static const char *const keys[] = {"stable-count", "lost-count", "never-read-count", "stale-count"};
        for (int k = 0; k < 4; k++)
            if (count_of(json, keys[k]) != want[k])
                fail_msg("seed %u: %s %zu, Jepsen %zu\n%s", seed, keys[k], count_of(json, keys[k]), want[k], edn);
        isolde_validity jv = want[1] ? ISOLDE_INVALID : !want[0] ? ISOLDE_UNKNOWN : ISOLDE_VALID;
        assert_int_equal(v, jv);
        free(json);
        isolde_history_free(h);
    }
}

/* ---- long-fork: every pair of reads of a group ---- */

#define KEYS 4

static void long_fork_agrees_with_pairs(void **state)
{
    (void)state;
    static char edn[1 << 14];
    for (unsigned seed = 1; seed <= 500; seed++) {
        srand(seed);
        int reads = 2 + rand() % 6, fork = 0;
        unsigned seen[8];
        size_t len = 0;
        for (int r = 0; r < reads; r++) {
            seen[r] = (unsigned)rand() & ((1u << KEYS) - 1);
            len += (size_t)snprintf(edn + len, sizeof edn - len, "{:type :ok, :f :read, :process %d, :value [", r);
            for (int k = 0; k < KEYS; k++)
                len += (size_t)snprintf(edn + len, sizeof edn - len, "[:r %d %s] ", (k + r) % KEYS,
                                        seen[r] >> ((k + r) % KEYS) & 1 ? "1" : "nil");
            len += (size_t)snprintf(edn + len, sizeof edn - len, "]}\n");
            for (int q = 0; q < r; q++)
                fork |= (seen[q] & ~seen[r]) && (seen[r] & ~seen[q]);
        }
        isolde_history *h = tu_read(edn, ISOLDE_FORMAT_EDN);
        isolde_validity v;
        char *json = json_of(h, ISOLDE_WORKLOAD_LONG_FORK, &v);
        if (v != (fork ? ISOLDE_INVALID : ISOLDE_VALID)) fail_msg("seed %u: %s\n%s", seed, json, edn);
        free(json);
        isolde_history_free(h);
    }
}

/* ---- counter ---- */

static void counter_bounds(void **state)
{
    (void)state;
    /* an add of 2 in flight: a read may see 1 or 3, not 4 */
    const char *base = "{:type :invoke, :f :add, :value 1, :process 0}\n{:type :ok, :f :add, :value 1, :process 0}\n"
                       "{:type :invoke, :f :add, :value 2, :process 0}\n{:type :invoke, :f :read, :process 1}\n";
    for (int seen = 0; seen <= 4; seen++) {
        char edn[512];
        snprintf(edn, sizeof edn, "%s{:type :ok, :f :read, :value %d, :process 1}\n", base, seen);
        isolde_history *h = tu_read(edn, ISOLDE_FORMAT_EDN);
        isolde_validity v;
        char *json = json_of(h, ISOLDE_WORKLOAD_COUNTER, &v);
        assert_int_equal(v, seen >= 1 && seen <= 3 ? ISOLDE_VALID : ISOLDE_INVALID);
        char want[64];
        snprintf(want, sizeof want, "\"reads\":[[1,%d,3]]", seen);
        if (!strstr(json, want)) fail_msg("%s lacks %s", json, want);
        free(json);
        isolde_history_free(h);
    }
}

static void data_cases(void **state)
{
    (void)state;
    tc_dir("tests/data/jepsen");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_cases),
        cmocka_unit_test(set_full_agrees_with_jepsen),
        cmocka_unit_test(long_fork_agrees_with_pairs),
        cmocka_unit_test(counter_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
