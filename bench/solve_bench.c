/*
 * solve_bench.c -- benchmark of solve/ on polygraphs shaped like the sim's
 * rw-register histories with no version-order evidence: N transactions
 * run one after another (a serializable execution) by S sessions, each of
 * OPS micro-ops on K keys (half reads, which see the latest write; a key's
 * first version is a setup transaction's, known to be first). Known edges:
 * session order, write-read, setup -> every writer and the rw edges of
 * the setup's readers. Every other pair of writers of a key is a choice
 * (side 0 the earlier writer first). With "skew", two transactions of
 * their own sessions are planted at the end: each reads the last versions
 * of two keys and writes the other key (write skew: not serializable,
 * snapshot isolation holds).
 *
 * usage: solve_bench N [ser|si] [skew] [SESSIONS [KEYS]]
 * (SOLVE_BENCH_REFINEMENTS, SOLVE_BENCH_PRUNE_WORK: budgets other than the
 * defaults)
 * prints the choices, how many were free, pruned and solved, the verdict,
 * the solver's and the whole call's time, and the process's CPU time and
 * peak memory (the generator's included).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/phase.h"
#include "core/rng.h"
#include "solve/solve.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n) { return iso_rng_below(&rng, n); }

struct vec {
    struct solve_edge *e;
    size_t n, cap;
};

static void push(struct vec *v, uint32_t from, uint32_t to, uint32_t kind)
{
    if (from == to) return;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 1024;
        v->e = realloc(v->e, v->cap * sizeof *v->e);
        if (!v->e) exit(3);
    }
    v->e[v->n++] = (struct solve_edge){from, to, kind};
}

/* Per key: its writes in order, each with its readers. */
struct write {
    uint32_t t, *readers, n_readers, cap_readers;
};
struct key {
    struct write *w;
    uint32_t n_w, cap_w;
};

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t sz)
{
    if (need <= *cap) return p;
    *cap = *cap ? 2 * *cap : 4;
    p = realloc(p, *cap * sz);
    if (!p) exit(3);
    return p;
}

static void add_writer(struct key *k, uint32_t t)
{
    k->w = grow(k->w, &k->cap_w, k->n_w + 1, sizeof *k->w);
    k->w[k->n_w++] = (struct write){t, NULL, 0, 0};
}

static void add_reader(struct key *k, uint32_t t, struct vec *known)
{
    struct write *v = &k->w[k->n_w - 1];
    if (v->n_readers && v->readers[v->n_readers - 1] == t) return;
    v->readers = grow(v->readers, &v->cap_readers, v->n_readers + 1, sizeof *v->readers);
    v->readers[v->n_readers++] = t;
    push(known, v->t, t, SOLVE_DEP);
}

/* Transaction t (session s): OPS micro-ops on random keys. */
static void run_txn(struct key *keys, uint32_t n_keys, uint32_t t, uint32_t ops, struct vec *known)
{
    for (uint32_t o = 0; o < ops; o++) {
        struct key *k = &keys[rnd(n_keys)];
        if (rnd(2)) add_reader(k, t, known);
        else if (k->w[k->n_w - 1].t != t) add_writer(k, t);
    }
}

/* The known and chosen edges of key k: setup first, pairs as choices. */
static void key_edges(const struct key *k, struct vec *known, struct vec *sides, size_t **start, size_t *n_start,
                      size_t *cap_start, int swap)
{
    for (uint32_t i = 1; i < k->n_w; i++) {
        push(known, k->w[0].t, k->w[i].t, SOLVE_DEP);
        for (uint32_t r = 0; r < k->w[0].n_readers; r++) push(known, k->w[0].readers[r], k->w[i].t, SOLVE_ANTI);
    }
    for (uint32_t i = 1; i < k->n_w; i++)
        for (uint32_t j = i + 1; j < k->n_w; j++) {
            uint32_t flip = swap ? rnd(2) : 0;
            for (uint32_t side = 0; side < 2; side++) {
                uint32_t a = side ^ flip ? j : i, b = side ^ flip ? i : j;
                if (*n_start + 2 > *cap_start) {
                    *cap_start = *cap_start ? 2 * *cap_start : 1024;
                    *start = realloc(*start, *cap_start * sizeof **start);
                    if (!*start) exit(3);
                }
                (*start)[(*n_start)++] = sides->n;
                push(sides, k->w[a].t, k->w[b].t, SOLVE_DEP);
                for (uint32_t r = 0; r < k->w[a].n_readers; r++)
                    push(sides, k->w[a].readers[r], k->w[b].t, SOLVE_ANTI);
            }
        }
}

static void free_all(struct key *keys, uint32_t n_keys)
{
    for (uint32_t k = 0; k < n_keys; k++) {
        for (uint32_t i = 0; i < keys[k].n_w; i++) free(keys[k].w[i].readers);
        free(keys[k].w);
    }
    free(keys);
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 10000;
    enum solve_model model = argc > 2 && !strcmp(argv[2], "si") ? SOLVE_SI : SOLVE_SER;
    int skew = argc > 3 && !strcmp(argv[3], "skew"), swap = !getenv("SOLVE_BENCH_ORDERED");
    uint32_t sessions = argc > 4 ? (uint32_t)atoi(argv[4]) : 20, n_keys = argc > 5 ? (uint32_t)atoi(argv[5]) : n / 5;
    if (n < 10 || sessions < 1 || n_keys < 2) return fprintf(stderr, "usage: solve_bench N [ser|si] [skew]\n"), 2;
    struct key *keys = calloc(n_keys, sizeof *keys);
    struct vec known = {0}, sides = {0};
    uint32_t *last = malloc(sessions * sizeof *last), total = n + 2 * (uint32_t)skew;
    for (uint32_t s = 0; s < sessions; s++) last[s] = UINT32_MAX;
    for (uint32_t k = 0; k < n_keys; k++) add_writer(&keys[k], 0);
    for (uint32_t t = 1; t < n; t++) {
        uint32_t s = rnd(sessions);
        if (last[s] != UINT32_MAX) push(&known, last[s], t, SOLVE_DEP);
        last[s] = t;
        run_txn(keys, n_keys, t, 4, &known);
    }
    if (skew) { /* n reads x and y, writes y; n + 1 reads both, writes x */
        add_reader(&keys[0], n, &known), add_reader(&keys[1], n, &known);
        add_reader(&keys[0], n + 1, &known), add_reader(&keys[1], n + 1, &known);
        add_writer(&keys[1], n), add_writer(&keys[0], n + 1);
    }
    size_t *start = NULL, n_start = 0, cap_start = 0;
    for (uint32_t k = 0; k < n_keys; k++) key_edges(&keys[k], &known, &sides, &start, &n_start, &cap_start, swap);
    start = realloc(start, (n_start + 1) * sizeof *start);
    start[n_start] = sides.n;
    struct solve_input in = {model, total, known.e, known.n, (uint32_t)(n_start / 2), start, sides.e, sides.n,
                             {0, 0, 0}};
    if (getenv("SOLVE_BENCH_REFINEMENTS")) in.budget.refinements = strtoull(getenv("SOLVE_BENCH_REFINEMENTS"), NULL, 10);
    if (getenv("SOLVE_BENCH_PRUNE_WORK")) in.budget.prune_work = strtoull(getenv("SOLVE_BENCH_PRUNE_WORK"), NULL, 10);
    struct solve_result r;
    isolde_error err = {0};
    if (solve_run(&in, &r, &err) < 0) return fprintf(stderr, "solve_bench: %s\n", err.msg), 3;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                 (double)ru.ru_stime.tv_usec / 1e6;
    const char *verdict = r.verdict == SOLVE_VALID ? "valid" : r.verdict == SOLVE_INVALID ? "invalid" : "unknown";
    printf("%u txns %s%s: %zu known edges, %u choices (%zu side edges): %u free, %u pruned, %u solved, %u groups; "
           "%s%s%s; core %u, %u cases; solver %.3f s (%llu calls, %llu cycles forbidden), all %.3f s; "
           "process cpu %.2f s, peak %ld MB\n",
           total, model == SOLVE_SI ? "si" : "ser", skew ? " skew" : "", known.n, r.stats.n_choices, sides.n,
           r.stats.n_free, r.stats.n_pruned, r.stats.n_solved, r.stats.n_groups, verdict, r.why ? ": " : "",
           r.why ? r.why : "", r.n_core, r.n_cases, r.stats.solver_seconds, (unsigned long long)r.stats.solver_calls,
           (unsigned long long)r.stats.refinements, r.stats.seconds, cpu, ru.ru_maxrss / 1024);
    solve_result_release(&r);
    free_all(keys, n_keys);
    free(known.e), free(sides.e), free(start), free(last);
    return 0;
}
