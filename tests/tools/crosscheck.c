/*
 * crosscheck.c -- randomized soundness cross-check of the transactional
 * checker. It generates small histories by simulating a sloppy database
 * (fixed seeds), checks each with iso_check under several models, and
 * decides the same question by exhaustive search over serial orders
 * (serializable, strict-serializable) or commit orders with snapshots
 * (snapshot-isolation). An "invalid" verdict the search refutes is a
 * soundness failure; "valid" where no order exists is counted as
 * incompleteness (Elle's inference is incomplete by design), not failed.
 *
 * usage: crosscheck [-n COUNT] [-s SEED] [-w la|rw|all] [-i INDEX] [-p] [-v]
 */
#include "crosscheck_gen.h"

/* A verdict that is none: the check itself failed. */
#define CHECK_ERROR 3
static isolde_read_opts jsonl_opts = {sizeof(isolde_read_opts), ISOLDE_FORMAT_JSONL};

/* The orders the exhaustive search looks for. */
enum { BF_SER, BF_SESSION, BF_STRICT, BF_SI, BF_SESSION_SI, BF_STRONG_SI, BF_KINDS };
enum { O_PROC = 1, O_RT = 2, O_SNAP = 4 };
static const int bf_flags[BF_KINDS] = {0, O_PROC, O_RT, O_SNAP, O_SNAP | O_PROC, O_SNAP | O_RT};

/* ---- exhaustive search ------------------------------------------------------- */

/* Serializable: a serial order of all :ok and some :info txns whose every
 * known read sees exactly the state at its point. Snapshot isolation: an
 * order of commits where each txn reads the state after some earlier
 * prefix (its snapshot) plus its own writes, and no txn committed after
 * its snapshot writes a key it writes. O_PROC / O_RT: the order extends
 * process / real-time order, and (with O_SNAP) so does every snapshot. */
typedef struct search {
    const hist *h;
    int flags;
    unsigned must, cand;   /* txns that must / may be placed */
    unsigned pred[MAXT];   /* txns that must come first */
    unsigned writes[MAXT]; /* keys each txn writes (bit set) */
    int pos[MAXT];         /* position of each placed txn */
    kstate st[MAXT + 1];   /* state after each placed prefix */
    int order[MAXT];
    long nodes;
} search;

/* Apply txn i over base, its reads seeing view + its own writes. */
static bool run_txn(const search *s, int i, const kstate *view0, const kstate *base, kstate *out)
{
    const txn *t = &s->h->t[i];
    kstate view = *view0;
    *out = *base;
    for (int j = 0; j < t->nm; j++) {
        const mop *m = &t->m[j];
        if (m->f != F_READ) {
            kput(&view, s->h->wl, m->key, m->val);
            kput(out, s->h->wl, m->key, m->val);
            continue;
        }
        if (m->n < 0) continue; /* unknown: an :info or :fail completion */
        int len = view.len[m->key];
        const int *v = view.v[m->key];
        bool same = s->h->wl == WL_RW
                        ? (m->rd[0] == NIL ? len == 0 : len == 1 && v[0] == m->rd[0])
                        : m->n == len && !memcmp(m->rd, v, (size_t)len * sizeof *v);
        if (!same) return false;
    }
    return true;
}

/* Can txn i go at position d? Snapshot isolation tries every snapshot from
 * the newest down, stopping where an intervening commit writes its keys or
 * the snapshot would miss a predecessor. */
static bool place(search *s, int d, int i)
{
    if (!(s->flags & O_SNAP)) return run_txn(s, i, &s->st[d], &s->st[d], &s->st[d + 1]);
    int lo = 0;
    for (int j = 0; j < s->h->n; j++)
        if ((s->pred[i] >> j & 1) && s->pos[j] + 1 > lo) lo = s->pos[j] + 1;
    for (int snap = d; snap >= lo; snap--) {
        if (snap < d && (s->writes[s->order[snap]] & s->writes[i])) break;
        if (run_txn(s, i, &s->st[snap], &s->st[d], &s->st[d + 1])) return true;
    }
    return false;
}

/* Depth at most MAXT, so plain recursion. */
static bool dfs(search *s, int d, unsigned placed)
{
    if ((placed & s->must) == s->must) {
        for (int k = d; k < MAXT; k++) s->order[k] = -1;
        return true;
    }
    for (int i = 0; i < s->h->n; i++) {
        unsigned bit = 1u << i;
        if ((placed & bit) || !(s->cand & bit) || (s->pred[i] & ~placed)) continue;
        s->nodes++;
        s->order[d] = i, s->pos[i] = d;
        if (place(s, d, i) && dfs(s, d + 1, placed | bit)) return true;
    }
    return false;
}

/* Must txn j come before txn i? Only :ok txns have completions. */
static bool precedes(const hist *h, int j, int i, int flags)
{
    const txn *a = &h->t[j], *b = &h->t[i];
    if (a->type != T_OK || a->cmp > b->inv) return false;
    return (flags & O_RT) || ((flags & O_PROC) && a->proc == b->proc);
}

static bool reports_reads(const txn *t)
{
    for (int j = 0; j < t->nm; j++)
        if (t->m[j].f == F_READ && t->m[j].n >= 0) return true;
    return false;
}

/* Does an order exist? On success s->order holds it (-1 terminated).
 * trust_info: an :info txn that reports reads must be in the order (Elle's
 * list-append reads them as if it committed). */
static bool brute_force(search *s, const hist *h, int kind, bool trust_info)
{
    memset(s, 0, sizeof *s);
    s->h = h, s->flags = bf_flags[kind];
    for (int i = 0; i < h->n; i++) {
        const txn *t = &h->t[i];
        if (t->type == T_OK || (trust_info && t->type == T_INFO && reports_reads(t)))
            s->must |= 1u << i;
        if (t->type != T_FAIL) s->cand |= 1u << i;
        s->writes[i] = txn_writes(t);
        for (int j = 0; j < h->n; j++)
            if (precedes(h, j, i, s->flags)) s->pred[i] |= 1u << j;
    }
    return dfs(s, 0, 0);
}

/* ---- the search's own tests ------------------------------------------------ */

/* "la|ok 0 0 1 a0.1 r1=|info 1 2 3 r0=1,2|..." : workload, then per txn
 * type, process, invocation and completion positions, micro-ops: aK.V
 * append, wK.V write, rK=1,2 read (LA list; RW value, "-" nil), rK? unknown. */
static void parse_spec(hist *h, const char *spec)
{
    char copy[512], *save = NULL;
    snprintf(copy, sizeof copy, "%s", spec);
    memset(h, 0, sizeof *h);
    h->nkeys = MAXK;
    h->wl = !strcmp(strtok_r(copy, "|", &save), "rw") ? WL_RW : WL_LA;
    for (char *ts; (ts = strtok_r(NULL, "|", &save)) != NULL; h->n++) {
        txn *t = &h->t[h->n];
        char type[8], *save2 = NULL;
        sscanf(ts, "%7s %d %d %d", type, &t->proc, &t->inv, &t->cmp);
        t->type = type[0] == 'o' ? T_OK : type[0] == 'f' ? T_FAIL : T_INFO;
        strtok_r(ts, " ", &save2);
        for (int skip = 0; skip < 3; skip++) strtok_r(NULL, " ", &save2);
        for (char *ms; (ms = strtok_r(NULL, " ", &save2)) != NULL; t->nm++) {
            mop *m = &t->m[t->nm];
            m->key = ms[1] - '0', m->n = -1;
            m->f = ms[0] == 'a' ? F_APPEND : ms[0] == 'w' ? F_WRITE : F_READ;
            if (m->f != F_READ) m->val = atoi(ms + 3);
            else if (ms[2] == '=' && h->wl == WL_RW)
                m->n = 1, m->rd[0] = ms[3] == '-' ? NIL : atoi(ms + 3);
            else if (ms[2] == '=')
                for (char *v = ms + 3, *end; *v; v = *end ? end + 1 : end)
                    m->rd[++m->n] = (int)strtol(v, &end, 10);
            if (m->f == F_READ && ms[2] == '=' && h->wl == WL_LA) m->n++;
        }
    }
}

/* Known answers, one digit per search kind in enum order:
 * ser, strong-session-ser, strict-ser, SI, strong-session-SI, strong SI. */
static const struct { const char *spec, *want; } selftests[] = {
    {"la|ok 0 0 1 a0.1|ok 1 2 3 r0=1", "111111"},
    {"la|ok 0 0 1 a0.1|ok 1 2 3 r0=", "110110"},     /* stale read */
    {"la|ok 0 0 1 a0.1|ok 0 2 3 r0=", "100100"},     /* same process */
    {"rw|ok 0 0 2 r0=- r1=- w0.1|ok 1 1 3 r0=- r1=- w1.1", "000111"}, /* write skew */
    {"la|ok 0 0 3 r0= a1.1|ok 1 1 2 a0.1 r1=", "000111"},
    {"la|ok 0 0 2 r0= a0.1|ok 1 1 3 r0= a0.2", "000000"}, /* lost update */
    {"la|ok 0 0 2 a0.1 r1=1|ok 1 1 3 a1.1 r0=1", "000000"}, /* G1c */
    {"la|info 0 0 1 a0.1|ok 1 2 3 r0=1", "111111"},
    {"la|info 0 0 1 a0.1|ok 1 2 3 r0=", "111111"},
    {"la|fail 0 0 1 a0.1|ok 1 2 3 r0=1", "000000"},  /* G1a */
    {"la|ok 0 0 1 a0.1 r0=1", "111111"},
    {"la|ok 0 0 1 a0.1 r0=", "000000"},              /* internal */
    {"la|info 0 0 1 r0=7|ok 1 2 3 r0=", "111111"},   /* :info reads may be dropped */
    {"la|info 0 0 9 a0.2 r0=1,2|ok 1 1 2 a0.1|ok 2 3 4 r0=1", "111111"},
    {"la|info 0 0 9 a0.2 r0=2,1|ok 1 1 2 a0.1|ok 2 3 4 r0=1,2", "000000"},
    {"rw|ok 0 0 1 w0.1|ok 1 2 3 w0.2|ok 2 4 5 r0=1", "110110"},
    {"la|ok 0 0 3 a0.1 a0.2|ok 1 1 2 r0=1", "000000"},  /* G1b */
};

static int run_selftests(void)
{
    int bad = 0;
    for (size_t c = 0; c < sizeof selftests / sizeof selftests[0]; c++) {
        hist h;
        static search s;
        parse_spec(&h, selftests[c].spec);
        for (int b = 0; b < BF_KINDS; b++)
            if (brute_force(&s, &h, b, false) != (selftests[c].want[b] == '1')) {
                printf("crosscheck: search self-test %zu (%s) kind %d: got %d\n", c,
                       selftests[c].spec, b, !(selftests[c].want[b] == '1'));
                bad++;
            }
    }
    return bad;
}

/* ---- checking ---------------------------------------------------------------- */

typedef struct cfg {
    int wl;
    const char *model;
    int bf;
    int wfr, seq, lin;
    int stronger; /* a row whose model implies this one's (same evidence), or -1 */
    const char *label;
} cfg;

static const cfg cfgs[] = {
    {WL_LA, "serializable", BF_SER, 0, 0, 0, 1, "list-append serializable"},
    {WL_LA, "strong-session-serializable", BF_SESSION, 0, 0, 0, 2,
     "list-append strong-session-serializable"},
    {WL_LA, "strict-serializable", BF_STRICT, 0, 0, 0, -1, "list-append strict-serializable"},
    {WL_LA, "snapshot-isolation", BF_SI, 0, 0, 0, 4, "list-append snapshot-isolation"},
    {WL_LA, "strong-session-snapshot-isolation", BF_SESSION_SI, 0, 0, 0, 5,
     "list-append strong-session-SI"},
    {WL_LA, "strong-snapshot-isolation", BF_STRONG_SI, 0, 0, 0, 2,
     "list-append strong-SI"},
    {WL_RW, "serializable", BF_SER, 0, 0, 0, 7, "rw-register serializable"},
    {WL_RW, "strict-serializable", BF_STRICT, 0, 0, 0, -1, "rw-register strict-serializable"},
    {WL_RW, "snapshot-isolation", BF_SI, 0, 0, 0, 9, "rw-register snapshot-isolation"},
    {WL_RW, "strong-snapshot-isolation", BF_STRONG_SI, 0, 0, 0, 7,
     "rw-register strong-SI"},
    {WL_RW, "serializable", BF_SER, 1, 0, 0, -1, "rw-register serializable --wfr-keys"},
    {WL_RW, "strong-session-serializable", BF_SESSION, 1, 1, 0, -1,
     "rw-register strong-session-ser wfr+seq"},
    {WL_RW, "strict-serializable", BF_STRICT, 1, 1, 1, -1,
     "rw-register strict-ser wfr+seq+lin"},
};
#define NCFG (sizeof cfgs / sizeof cfgs[0])

typedef struct stats {
    long runs, valid, invalid, unknown, errors;
    long impossible, unsound, missed, missed_observed, unknown_impossible, info_read, fail_read;
    long nonmono;
} stats;

#define MAXTYPES 64

typedef struct ctx {
    uint64_t seed;
    int only, print_all, verbose;
    long failures, printed, printed_notes; /* reports shown: failures, -v notes */
    stats st[NCFG];
    long nodes;
    char types[MAXTYPES][40]; /* anomaly types reported so far, and how often */
    long type_count[MAXTYPES];
    int ntypes;
} ctx;

static void count_types(ctx *c, const isolde_result *res)
{
    for (size_t i = 0; i < isolde_result_type_count(res); i++) {
        const char *name = isolde_result_type(res, i);
        int t = 0;
        while (t < c->ntypes && strcmp(c->types[t], name)) t++;
        if (t == c->ntypes) {
            if (t == MAXTYPES) continue;
            snprintf(c->types[c->ntypes++], sizeof c->types[0], "%s", name);
        }
        c->type_count[t]++;
    }
}

/* List-append with no :info appends and, per key, some :ok read holding
 * every :ok append: the version order is fully known, so Elle's inference
 * is complete and "valid" where no order exists is worth a look. */
static bool fully_observed(const hist *h)
{
    for (int k = 0; k < h->nkeys; k++) {
        int appends = 0, longest = 0;
        for (int i = 0; i < h->n; i++)
            for (int j = 0; j < h->t[i].nm; j++) {
                const mop *m = &h->t[i].m[j];
                if (m->key != k) continue;
                if (m->f == F_APPEND && h->t[i].type == T_INFO) return false;
                if (m->f == F_APPEND && h->t[i].type == T_OK) appends++;
                if (m->f == F_READ && h->t[i].type == T_OK && m->n > longest) longest = m->n;
            }
        if (longest < appends) return false;
    }
    return true;
}

/* Show a history, the checker's result and the search's order; at most
 * five failures and five -v notes per run. */
static void report(ctx *c, bool note, const char *what, long idx, const cfg *k, const buf *jsonl,
                   isolde_result *res, const search *s)
{
    if ((note ? c->printed_notes++ : c->printed++) >= 5) return;
    printf("\n%s: history %ld (crosscheck -s %llu -i %ld), %s\n", what, idx,
           (unsigned long long)c->seed, idx, k->label);
    fwrite(jsonl->s, 1, jsonl->n, stdout);
    if (res) {
        printf("checker: ");
        fflush(stdout);
        isolde_result_write_json(res, stdout, NULL);
        printf("\n");
    }
    if (s && s->order[0] >= 0) {
        printf("order found by exhaustive search (completion indices; :info invocations):");
        for (int d = 0; d < MAXT && s->order[d] >= 0; d++) {
            const txn *t = &s->h->t[s->order[d]];
            printf(" %d", line_index(s->h, t->type == T_INFO ? t->inv : t->cmp));
        }
        printf("\n");
    }
}

static isolde_validity run_check(const isolde_history *ih, const cfg *k, isolde_result **res, isolde_error *err)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = k->wl == WL_LA ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER;
    o.models = k->model;
    o.threads = 1;
    const char *given[3];
    o.checker_opts = given;
    if (k->wfr) given[o.n_checker_opts++] = "wfr-keys";
    if (k->seq) given[o.n_checker_opts++] = "sequential-keys";
    if (k->lin) given[o.n_checker_opts++] = "linearizable-keys";
    if (isolde_check(ih, &o, res, err) != 0) return CHECK_ERROR;
    return isolde_result_validity(*res);
}

/* What the exhaustive search says about one history. */
typedef struct truth {
    bool possible[BF_KINDS]; /* an order exists (:info txns optional) */
    bool trusted[BF_KINDS];  /* one exists with :info txns that report reads */
    search wit[BF_KINDS];    /* the order behind trusted[] */
} truth;

/* Is the checker's "invalid" gone once :fail completions stop reporting
 * reads? Elle infers dirty-update from every client op's reads. */
static bool rests_on_fail_reads(const hist *h, const cfg *k)
{
    static buf b;
    bool any = false;
    for (int i = 0; i < h->n; i++) any |= h->t[i].type == T_FAIL && reports_reads(&h->t[i]);
    if (!any) return false;
    write_jsonl(h, &b, true);
    isolde_history *ih = NULL;
    isolde_result *res = NULL;
    isolde_error err = {0};
    if (isolde_history_read_mem("crosscheck", b.s, b.n, &jsonl_opts, &ih, &err) != 0)
        return false;
    isolde_validity v = run_check(ih, k, &res, &err);
    isolde_result_free(res);
    isolde_history_free(ih);
    return v != ISOLDE_INVALID && v != CHECK_ERROR;
}

static isolde_validity check_one(ctx *c, long idx, const hist *h, const buf *jsonl,
                              const isolde_history *ih, size_t ci, const truth *tr)
{
    const cfg *k = &cfgs[ci];
    stats *st = &c->st[ci];
    isolde_result *res = NULL;
    isolde_error err = {0};
    isolde_validity v = run_check(ih, k, &res, &err);
    bool possible = tr->possible[k->bf];
    st->runs++;
    st->impossible += !possible;
    if (v == CHECK_ERROR) {
        st->errors++, c->failures++;
        report(c, false, "CHECKER ERROR", idx, k, jsonl, NULL, NULL);
        if (c->printed <= 5)
            printf("error: %s:%ld:%ld: %s\n", err.file, err.line, err.col, err.msg);
    } else if (v == ISOLDE_INVALID) {
        st->invalid++;
        count_types(c, res);
        if (tr->trusted[k->bf] && rests_on_fail_reads(h, k)) st->fail_read++;
        else if (tr->trusted[k->bf]) {
            st->unsound++, c->failures++;
            report(c, false, "SOUNDNESS FAILURE", idx, k, jsonl, res, &tr->wit[k->bf]);
        } else if (possible) st->info_read++;
    } else if (v == ISOLDE_UNKNOWN) {
        st->unknown++;
        st->unknown_impossible += !possible;
    } else {
        st->valid++;
        if (!possible) {
            st->missed++;
            bool obs = h->wl == WL_LA && fully_observed(h);
            st->missed_observed += obs;
            if (c->verbose && (obs || c->verbose > 1))
                report(c, true, obs ? "MISSED (fully observed)" : "missed", idx, k, jsonl, res,
                       NULL);
        }
    }
    isolde_result_free(res);
    return v;
}

/* The search kinds are ordered by strength: a stronger one never succeeds
 * where a weaker one fails. */
static bool consistent(const bool *p)
{
    return !(p[BF_STRICT] && !p[BF_SESSION]) && !(p[BF_SESSION] && !p[BF_SER]) &&
           !(p[BF_SER] && !p[BF_SI]) && !(p[BF_STRONG_SI] && !p[BF_SESSION_SI]) &&
           !(p[BF_SESSION_SI] && !p[BF_SI]) && !(p[BF_STRICT] && !p[BF_STRONG_SI]);
}

static void search_all(ctx *c, const hist *h, truth *tr)
{
    bool trust = false;
    for (int i = 0; i < h->n && h->wl == WL_LA; i++)
        trust |= h->t[i].type == T_INFO && reports_reads(&h->t[i]);
    for (int b = 0; b < BF_KINDS; b++) {
        tr->trusted[b] = brute_force(&tr->wit[b], h, b, trust);
        c->nodes += tr->wit[b].nodes;
        tr->possible[b] = tr->trusted[b];
        if (trust && !tr->trusted[b]) {
            static search tmp;
            tr->possible[b] = brute_force(&tmp, h, b, false);
            c->nodes += tmp.nodes;
        }
    }
    if (!consistent(tr->possible) || !consistent(tr->trusted)) {
        fprintf(stderr, "crosscheck: exhaustive search is inconsistent\n");
        exit(2);
    }
}

static void run_history(ctx *c, long idx, int wl)
{
    hist h;
    static buf jsonl;
    static truth tr;
    gen_history(&h, wl, c->seed * 0x100000001b3ULL + (uint64_t)idx * 2 + (uint64_t)wl);
    write_jsonl(&h, &jsonl, false);
    if (c->print_all) fwrite(jsonl.s, 1, jsonl.n, stdout), printf("\n");
    search_all(c, &h, &tr);
    isolde_history *ih = NULL;
    isolde_error err = {0};
    if (isolde_history_read_mem("crosscheck", jsonl.s, jsonl.n, &jsonl_opts, &ih, &err) != 0) {
        c->failures++;
        report(c, false, "READ ERROR", idx, &cfgs[wl == WL_LA ? 0 : 6], &jsonl, NULL, NULL);
        printf("error: %s:%ld:%ld: %s\n", err.file, err.line, err.col, err.msg);
        return;
    }
    isolde_validity v[NCFG];
    for (size_t ci = 0; ci < NCFG; ci++)
        if (cfgs[ci].wl == wl) v[ci] = check_one(c, idx, &h, &jsonl, ih, ci, &tr);
    for (size_t ci = 0; ci < NCFG; ci++) /* a stronger model must not pass */
        if (cfgs[ci].wl == wl && cfgs[ci].stronger >= 0 && v[ci] == ISOLDE_INVALID &&
            v[cfgs[ci].stronger] != ISOLDE_INVALID) {
            c->st[ci].nonmono++;
            if (c->verbose)
                report(c, true, "NOT MONOTONIC (stronger model passes)", idx, &cfgs[ci],
                       &jsonl, NULL, NULL);
        }
    isolde_history_free(ih);
}

static void print_stats(const ctx *c)
{
    printf("%-44s %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s\n", "configuration", "runs",
           "valid", "inval", "unkn", "noord", "unsnd", "miss", "misob", "unkno", "infrd", "flrd",
           "nmono");
    for (size_t i = 0; i < NCFG; i++) {
        const stats *s = &c->st[i];
        if (!s->runs) continue;
        printf("%-44s %5ld %5ld %5ld %5ld %5ld %5ld %5ld %5ld %5ld %5ld %5ld %5ld\n",
               cfgs[i].label, s->runs, s->valid, s->invalid, s->unknown, s->impossible,
               s->unsound, s->missed, s->missed_observed, s->unknown_impossible, s->info_read,
               s->fail_read, s->nonmono);
    }
    printf("noord: exhaustive search found no order; unsnd: checker said invalid though an\n"
           "order exists (must be 0); miss: no order, checker said valid (incompleteness);\n"
           "misob: of those, list-append histories with every :ok append read and no :info\n"
           "appends; unkno: no order, checker said unknown; infrd: invalid only because an\n"
           ":info txn's reads were trusted (Elle's list-append semantics); flrd: invalid only\n"
           "because of :fail txns' reads (Elle infers dirty-update from them); nmono: invalid\n"
           "here but not under the stronger model of the row named in cfgs[]. Nodes: %ld.\n",
           c->nodes);
    printf("anomaly types in invalid verdicts:");
    for (int t = 0; t < c->ntypes; t++)
        printf("%s %s %ld", t % 4 ? "," : "\n ", c->types[t], c->type_count[t]);
    printf("\n");
}

static void usage(void)
{
    fprintf(stderr, "usage: crosscheck [-n COUNT] [-s SEED] [-w la|rw|all] [-i INDEX] [-p] [-v]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    ctx c = {.seed = 1, .only = -1};
    long count = 2000;
    const char *w = "all";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-p")) c.print_all = 1;
        else if (!strcmp(a, "-v")) c.verbose++;
        else if (i + 1 >= argc) usage();
        else if (!strcmp(a, "-n")) count = atol(argv[++i]);
        else if (!strcmp(a, "-s")) c.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "-i")) c.only = atoi(argv[++i]);
        else if (!strcmp(a, "-w")) w = argv[++i];
        else usage();
    }
    if (run_selftests()) return 1;
    bool la = !strcmp(w, "all") || !strcmp(w, "la"), rw = !strcmp(w, "all") || !strcmp(w, "rw");
    if (!la && !rw) usage();
    for (long i = 0; i < count; i++) {
        if (c.only >= 0 && i != c.only) continue;
        if (la) run_history(&c, i, WL_LA);
        if (rw) run_history(&c, i, WL_RW);
    }
    print_stats(&c);
    long checks = 0;
    for (size_t i = 0; i < NCFG; i++) checks += c.st[i].runs;
    printf("random: %ld passed, %ld failed\n", checks - c.failures, c.failures);
    return c.failures ? 1 : 0;
}
