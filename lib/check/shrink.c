/*
 * check/shrink.c -- the smallest history that still shows an anomaly
 * (isolde_shrink; docs/SHRINK.md): a history of one op per line is cut
 * into units (a transaction: an invocation and its completion; any other
 * op alone), and units are left out while the check of what remains, with
 * the same options, still finds the anomaly's type and no type the whole
 * history did not have. It starts from the units of the anomaly's witness
 * when they show it alone, else from every unit, and removes chunks of
 * halving size (delta debugging's complement steps) until no single unit
 * can go: 1-minimal, unless the time limit came first.
 *
 * Invariant: keep holds the units of the smallest history found so far
 * that passes, in input order; the text written is those units' lines,
 * each as it was in the input.
 */
#include "check/check.h"
#include "core/phase.h"

#include <stdlib.h>
#include <string.h>

typedef struct shrink {
    const char *name, *text;
    size_t len;
    isolde_read_opts ro;
    const isolde_check_opts *co;
    const char *type;          /* the anomaly type kept */
    char **types;              /* the whole history's types */
    size_t n_types;
    size_t *line_at;           /* line k (1-based) starts at line_at[k - 1]; line_at[n_lines] = len */
    size_t n_lines;
    uint32_t *op_line;         /* per op of the whole history */
    uint32_t *unit_of;         /* per op: its unit */
    size_t n_ops, n_units;
    char *buf;                 /* a candidate's text */
    uint8_t *in;               /* per unit: in the candidate */
    uint8_t *scratch;          /* per unit */
    uint32_t *cur, *mops;      /* the units, and the micro-ops, the search still holds */
    uint32_t *mop_base;        /* per unit: its micro-ops' first place in mop_in; n_units + 1 of them */
    uint8_t *mop_in;           /* per micro-op of a transaction: in the candidate */
    double deadline;           /* iso_now() past which no more checks start; 0: none */
    size_t checks;
    int timed_out;
    char types_found[512];     /* the last candidate's types */
    int64_t anchor;            /* the witness's own op ("op" of its JSON: the read, the op that cannot
                                  be linearized) that a candidate's finding must name too; -1: none */
} shrink;

/* ---- the whole history ---------------------------------------------- */

/* The comment mark of a format whose histories shrink (one op per line,
 * comment lines read as no op), else 0. */
static char comment_mark(isolde_format f)
{
    return f == ISOLDE_FORMAT_EDN ? ';' : f == ISOLDE_FORMAT_JSONL || f == ISOLDE_FORMAT_ISOCHECK ? '#' : 0;
}

static void lines_of(shrink *k)
{
    size_t n = 0;
    for (size_t i = 0; i < k->len; i++) n += k->text[i] == '\n';
    k->line_at = iso_xmalloc((n + 2) * sizeof *k->line_at);
    size_t at = 0;
    k->line_at[at++] = 0;
    for (size_t i = 0; i < k->len; i++)
        if (k->text[i] == '\n') k->line_at[at++] = i + 1;
    if (k->line_at[at - 1] < k->len) k->line_at[at++] = k->len; /* a last line without newline */
    k->n_lines = at - 1;
}

/* Units: each invocation with the next op of its process; any other op
 * alone. The ops' lines, and whether two ops share one (no shrinking). */
static int units_of(shrink *k, const isolde_history *h, isolde_error *err)
{
    k->n_ops = h->n_ops;
    k->op_line = iso_xmalloc((h->n_ops + 1) * sizeof *k->op_line);
    k->unit_of = iso_xmalloc((h->n_ops + 1) * sizeof *k->unit_of);
    uint32_t *open = iso_xcalloc(h->procs.n + 1, sizeof *open); /* per process: its open unit + 1 */
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *o = &h->ops[i];
        k->op_line[i] = o->line;
        if (i && o->line == h->ops[i - 1].line) {
            iso_free(open);
            return iso_fail(err, ISOLDE_ERR_USAGE, k->name, o->line, 0,
                            "two ops on one line: shrink needs a history of one op per line (isolde convert "
                            "writes JSON lines)");
        }
        if (o->type != ISO_OP_INVOKE && open[o->process]) {
            k->unit_of[i] = open[o->process] - 1;
            open[o->process] = 0;
            continue;
        }
        k->unit_of[i] = (uint32_t)k->n_units++;
        if (o->type == ISO_OP_INVOKE && o->client) open[o->process] = k->unit_of[i] + 1;
    }
    iso_free(open);
    return 0;
}

/* ---- micro-ops in a line ----------------------------------------------- */

#define MAX_MOPS 256 /* a transaction with more keeps them all */

typedef struct span {
    size_t from, to; /* a micro-op's text: line[from, to) */
} span;

/* Where the value's vector of vectors starts in line[0, len): just past
 * its '[' (a JSON line's "value": or an EDN map's :value), or 0. */
static size_t value_start(const char *line, size_t len)
{
    const char *keys[2] = {"\"value\":", ":value "};
    for (int k = 0; k < 2; k++) {
        size_t kl = strlen(keys[k]);
        for (size_t i = 0; i + kl < len; i++) {
            if (memcmp(line + i, keys[k], kl)) continue;
            size_t j = i + kl;
            while (j < len && line[j] == ' ') j++;
            return j < len && line[j] == '[' ? j + 1 : 0;
        }
    }
    return 0;
}

/* The micro-ops of a line's value (each a vector), into out: how many, or
 * -1 when the value is no vector of vectors (or has more than max). */
static int mops_of(const char *line, size_t len, span *out, int max)
{
    size_t i = value_start(line, len);
    int n = 0, depth = 0, in_str = 0;
    if (!i) return -1;
    for (; i < len; i++) {
        char c = line[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{' || c == '(') {
            if (!depth++) {
                if (c != '[' || n == max) return -1;
                out[n].from = i;
            }
        } else if (c == ']' || c == '}' || c == ')') {
            if (!depth) return n; /* the value's own ']' */
            if (!--depth) out[n++].to = i + 1;
        } else if (!depth && c != ',' && c != ' ') {
            return -1; /* a micro-op that is no vector */
        }
    }
    return -1;
}

/* line[0, len) with only the micro-ops keep says, into out; its length. */
static size_t rewrite(const char *line, size_t len, const uint8_t *keep, char *out)
{
    span m[MAX_MOPS];
    int n = mops_of(line, len, m, MAX_MOPS), first = 1;
    size_t key = 1; /* a JSON object's keys are strings; an EDN map's, keywords */
    while (key < len && line[key] == ' ') key++;
    char sep = key < len && line[key] == '"' ? ',' : ' ';
    memcpy(out, line, m[0].from);
    size_t at = m[0].from;
    for (int j = 0; j < n; j++) {
        if (!keep[j]) continue;
        if (!first) out[at++] = sep;
        memcpy(out + at, line + m[j].from, m[j].to - m[j].from);
        at += m[j].to - m[j].from;
        first = 0;
    }
    memcpy(out + at, line + m[n - 1].to, len - m[n - 1].to);
    return at + len - m[n - 1].to;
}

/* Per unit, how many micro-ops its lines share (0: it has none to drop:
 * no vector of vectors, or its lines disagree). */
static void mops_per_unit(shrink *k)
{
    int *n = iso_xmalloc((k->n_units + 1) * sizeof *n);
    k->mop_base = iso_xmalloc((k->n_units + 1) * sizeof *k->mop_base);
    for (size_t u = 0; u < k->n_units; u++) n[u] = -2; /* no line yet */
    for (size_t i = 0; i < k->n_ops; i++) {
        span m[MAX_MOPS];
        size_t a = k->line_at[k->op_line[i] - 1], b = k->line_at[k->op_line[i]];
        int c = mops_of(k->text + a, b - a, m, MAX_MOPS);
        uint32_t u = k->unit_of[i];
        n[u] = n[u] == -2 || n[u] == c ? c : -1;
    }
    size_t total = 0;
    for (size_t u = 0; u < k->n_units; u++) {
        k->mop_base[u] = (uint32_t)total;
        total += n[u] > 0 ? (size_t)n[u] : 0;
    }
    k->mop_base[k->n_units] = (uint32_t)total;
    iso_free(n);
    k->mop_in = iso_xmalloc(total + 1);
    memset(k->mop_in, 1, total + 1);
}

/* ---- a candidate ---------------------------------------------------- */

/* The lines of the units in k->in, in input order, into k->buf. */
static size_t candidate_text(shrink *k)
{
    size_t at = 0;
    for (size_t i = 0; i < k->n_ops; i++) {
        if (!k->in[k->unit_of[i]]) continue;
        size_t a = k->line_at[k->op_line[i] - 1], b = k->line_at[k->op_line[i]];
        uint32_t u = k->unit_of[i], mops = k->mop_base[u + 1] - k->mop_base[u];
        if (mops && memchr(k->mop_in + k->mop_base[u], 0, mops)) {
            at += rewrite(k->text + a, b - a, k->mop_in + k->mop_base[u], k->buf + at);
        } else {
            memcpy(k->buf + at, k->text + a, b - a);
            at += b - a;
        }
        if (k->buf[at - 1] != '\n') k->buf[at++] = '\n';
    }
    return at;
}

static int has_type(const isolde_result *r, const char *type)
{
    for (size_t i = 0; i < isolde_result_type_count(r); i++)
        if (!strcmp(isolde_result_type(r, i), type)) return 1;
    return 0;
}

/* The result's types, space-separated, into out[0, size). */
static void types_text(const isolde_result *r, char *out, size_t size)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < isolde_result_type_count(r) && at < size; i++) {
        int n = snprintf(out + at, size - at, "%s%s", i ? " " : "", isolde_result_type(r, i));
        at += n > 0 ? (size_t)n : 0;
    }
}

/* The index of a finding's own op (its JSON's "op" object), or -1. */
static int64_t anchor_of(const char *json)
{
    const char *p = strstr(json, "\"op\":{");
    const char *end = p ? strchr(p, '}') : NULL;
    const char *idx = p ? strstr(p, "\"index\":") : NULL;
    return idx && idx < end ? strtoll(idx + 8, NULL, 10) : -1;
}

struct anchored {
    int64_t want;
    int met;
};

static void anchored_finding(void *arg, size_t i, const char *text, const char *json)
{
    struct anchored *a = arg;
    (void)i;
    (void)text;
    a->met |= anchor_of(json) == a->want;
}

/* Whether some finding of the type names the witness's own op (among its
 * first 16): the same op still fails, not another one that leaving ops
 * out made fail (a read whose write went). */
static int anchored(const shrink *k, const isolde_result *r)
{
    struct anchored a = {k->anchor, 0};
    if (k->anchor < 0) return 1;
    isolde_result_findings(r, k->type, 0, 16, anchored_finding, &a, NULL);
    return a.met;
}

/* Whether the check of the candidate finds the type, naming the
 * witness's own op when it has one, and no type the whole history had not
 * (its types into k->types_found). -1: out of memory. */
static int passes(shrink *k)
{
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    isolde_error e;
    size_t n = candidate_text(k);
    k->checks++;
    if (isolde_history_read_mem(k->name, k->buf, n, &k->ro, &h, &e) || isolde_check(h, k->co, &r, &e)) {
        isolde_history_free(h);
        return e.code == ISOLDE_ERR_NOMEM ? -1 : 0;
    }
    int ok = isolde_result_validity(r) == ISOLDE_INVALID && has_type(r, k->type) && anchored(k, r);
    types_text(r, k->types_found, sizeof k->types_found);
    for (size_t i = 0; ok && i < isolde_result_type_count(r); i++) {
        int known = 0;
        for (size_t j = 0; j < k->n_types && !known; j++) known = !strcmp(k->types[j], isolde_result_type(r, i));
        ok = known;
    }
    isolde_result_free(r);
    isolde_history_free(h);
    return ok;
}

/* What a candidate holds: the elements cur[0, n) but those in
 * [skip_from, skip_to), units or micro-ops. */
typedef void (*choose_fn)(shrink *k, const uint32_t *cur, size_t n, size_t skip_from, size_t skip_to);

static void choose_units(shrink *k, const uint32_t *cur, size_t n, size_t skip_from, size_t skip_to)
{
    memset(k->in, 0, k->n_units);
    for (size_t i = 0; i < n; i++) k->in[cur[i]] = i < skip_from || i >= skip_to;
}

/* (the micro-ops not in cur are out already) */
static void choose_mops(shrink *k, const uint32_t *cur, size_t n, size_t skip_from, size_t skip_to)
{
    for (size_t i = 0; i < n; i++) k->mop_in[cur[i]] = i < skip_from || i >= skip_to;
}

/* ---- delta debugging -------------------------------------------------- */

/* One element at a time, each tried once a sweep (a removal does not start
 * the sweep again), until a sweep removes none: 1-minimal. */
static int sweep(shrink *k, uint32_t *cur, size_t *n, choose_fn choose)
{
    for (int removed = 1; removed && !k->timed_out;) {
        removed = 0;
        for (size_t at = 0; at < *n;) {
            if (k->deadline && iso_now() > k->deadline) {
                k->timed_out = 1;
                break;
            }
            choose(k, cur, *n, at, at + 1);
            int p = passes(k);
            if (p < 0) return -1;
            if (!p) {
                at++;
                continue;
            }
            memmove(cur + at, cur + at + 1, (*n - at - 1) * sizeof *cur);
            (*n)--;
            removed = 1;
        }
    }
    choose(k, cur, *n, 0, 0);
    return 0;
}

/* cur[0, *n): removes chunks (2 of them, then more) while what is left
 * passes; ends 1-minimal (no element can go alone) unless time ran out,
 * with what is left chosen. */
static int ddmin(shrink *k, uint32_t *cur, size_t *n, choose_fn choose)
{
    size_t chunks = 2;
    while (*n >= 1 && !k->timed_out) {
        size_t size = (*n + chunks - 1) / chunks, removed = 0;
        if (size == 1) return sweep(k, cur, n, choose);
        for (size_t from = 0; from < *n && !removed; from += size) {
            if (k->deadline && iso_now() > k->deadline) {
                k->timed_out = 1;
                break;
            }
            size_t to = from + size < *n ? from + size : *n;
            choose(k, cur, *n, from, to);
            int p = passes(k);
            if (p < 0) return -1;
            if (!p) continue;
            memmove(cur + from, cur + to, (*n - to) * sizeof *cur);
            *n -= to - from;
            removed = 1;
        }
        if (removed) chunks = chunks > 2 ? chunks - 1 : 2;
        else if (size == 1) break;
        else chunks = chunks * 2 < *n ? chunks * 2 : *n;
    }
    choose(k, cur, *n, 0, 0);
    return 0;
}

/* The micro-ops still in, of the units in cur[0, n), into mops. */
static size_t mops_in(const shrink *k, const uint32_t *cur, size_t n, uint32_t *mops)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t f = k->mop_base[cur[i]]; f < k->mop_base[cur[i] + 1]; f++)
            if (k->mop_in[f]) mops[m++] = f;
    return m;
}

/* Units, then the micro-ops of the units left, again while either
 * shrinks. */
static int shrink_all(shrink *k, uint32_t *cur, size_t *n, uint32_t *mops, size_t *n_mops)
{
    size_t last_n = (size_t)-1, last_m = (size_t)-1;
    while (!k->timed_out && (*n != last_n || *n_mops != last_m)) {
        last_n = *n;
        last_m = *n_mops;
        if (ddmin(k, cur, n, choose_units)) return -1;
        *n_mops = mops_in(k, cur, *n, mops);
        if (ddmin(k, mops, n_mops, choose_mops)) return -1;
        choose_units(k, cur, *n, 0, 0);
    }
    return 0;
}

/* ---- the witness -------------------------------------------------------- */

struct witness {
    shrink *k;
    const isolde_history *h;
    uint8_t *mark; /* per unit */
    size_t marked;
};

static void mark_witness(void *arg, size_t i, const char *text, const char *json)
{
    struct witness *w = arg;
    (void)i;
    (void)text;
    w->k->anchor = anchor_of(json);
    for (const char *p = strstr(json, "\"index\":"); p; p = strstr(p + 1, "\"index\":")) {
        int64_t idx = strtoll(p + 8, NULL, 10);
        for (size_t o = 0; o < w->h->n_ops; o++)
            if (w->h->ops[o].index == idx && !w->mark[w->k->unit_of[o]]) {
                w->mark[w->k->unit_of[o]] = 1;
                w->marked++;
                break;
            }
    }
}

/* Every read micro-op (["r", ...] or [:r ...]) of the units mark leaves
 * out, out: the other transactions' reads pull in the writers of what
 * they read, and those writers' reads more; one check says whether the
 * anomaly needs none of them. */
static void drop_reads_beside(shrink *k, const uint8_t *mark)
{
    uint8_t *done = k->scratch;
    memset(done, 0, k->n_units);
    for (size_t i = 0; i < k->n_ops; i++) {
        uint32_t u = k->unit_of[i];
        if (mark[u] || done[u] || k->mop_base[u + 1] == k->mop_base[u]) continue;
        done[u] = 1;
        span m[MAX_MOPS];
        const char *line = k->text + k->line_at[k->op_line[i] - 1];
        int n = mops_of(line, k->line_at[k->op_line[i]] - k->line_at[k->op_line[i] - 1], m, MAX_MOPS);
        for (int j = 0; j < n; j++)
            if (!strncmp(line + m[j].from, "[\"r\"", 4) || !strncmp(line + m[j].from, "[:r ", 4))
                k->mop_in[k->mop_base[u] + (uint32_t)j] = 0;
    }
}

/* The units to start from: the witness's alone when they pass, else all.
 * *witness: how many units the witness has. */
static int start(shrink *k, const isolde_history *h, const isolde_result *r, size_t instance, uint32_t *cur,
                 size_t *n, size_t *witness, isolde_error *err)
{
    struct witness w = {k, h, k->in, 0};
    memset(k->in, 0, k->n_units);
    if (isolde_result_findings(r, k->type, instance, 1, mark_witness, &w, err)) return -1;
    *witness = w.marked;
    int p = w.marked ? passes(k) : 0; /* k->in is the witness's units */
    if (p < 0) return iso_fail(err, ISOLDE_ERR_NOMEM, k->name, 0, 0, "out of memory");
    size_t last = 0; /* just past the witness's last unit */
    for (size_t u = 0; u < k->n_units; u++) last = w.mark[u] ? u + 1 : last;
    *n = 0;
    for (size_t u = 0; u < k->n_units; u++)
        if (!p || w.mark[u]) cur[(*n)++] = (uint32_t)u;
    if (p) return 0;
    drop_reads_beside(k, w.mark);
    choose_units(k, cur, *n, 0, 0);
    if ((p = passes(k)) < 0) return iso_fail(err, ISOLDE_ERR_NOMEM, k->name, 0, 0, "out of memory");
    if (!p) memset(k->mop_in, 1, k->mop_base[k->n_units]); /* the reads are needed: all back */
    if (!last || last == k->n_units) return 0;
    choose_units(k, cur, *n, last, *n); /* what came after the witness: often none of it is needed */
    p = passes(k);
    if (p < 0) return iso_fail(err, ISOLDE_ERR_NOMEM, k->name, 0, 0, "out of memory");
    if (p) *n = last;
    return 0;
}

/* ---- the call ------------------------------------------------------------ */

void isolde_shrink_opts_init(isolde_shrink_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->time_limit_s = 60;
}

static void free_shrink(shrink *k)
{
    for (size_t i = 0; k->types && i < k->n_types; i++) iso_free(k->types[i]);
    iso_free(k->types);
    iso_free(k->line_at);
    iso_free(k->op_line);
    iso_free(k->unit_of);
    iso_free(k->buf);
    iso_free(k->in);
    iso_free(k->scratch);
    iso_free(k->mop_base);
    iso_free(k->mop_in);
    iso_free(k->cur);
    iso_free(k->mops);
}

/* The whole history's types, and the type to keep (the first, or o's). */
static void whole_types(shrink *k, const isolde_result *r, const char *want)
{
    k->n_types = isolde_result_type_count(r);
    k->types = iso_xcalloc(k->n_types + 1, sizeof *k->types);
    for (size_t i = 0; i < k->n_types; i++) k->types[i] = iso_xstrdup(isolde_result_type(r, i));
    for (size_t i = 0; i < k->n_types && !k->type; i++)
        if (!want || !strcmp(want, k->types[i])) k->type = k->types[i];
}

struct setup_call {
    shrink *k;
    const isolde_history *h;
    const isolde_result *r;
    const char *want;
};

/* Everything the search needs, allocated under a guard of its own on a
 * copy of *k (memory running out frees it all, and leaves *k as it was). */
static int setup(void *arg, isolde_error *err)
{
    struct setup_call *c = arg;
    shrink t = *c->k;
    whole_types(&t, c->r, c->want);
    lines_of(&t);
    if (units_of(&t, c->h, err)) {
        free_shrink(&t);
        return -1;
    }
    mops_per_unit(&t);
    t.buf = iso_xmalloc(t.len + t.n_ops + 1);
    t.in = iso_xmalloc(t.n_units + 1);
    t.scratch = iso_xmalloc(t.n_units + 1);
    t.cur = iso_xmalloc((t.n_units + 1) * sizeof *t.cur);
    t.mops = iso_xmalloc((t.mop_base[t.n_units] + 1) * sizeof *t.mops);
    *c->k = t;
    return 0;
}

static void write_out(shrink *k, const uint32_t *cur, size_t n, FILE *out)
{
    memset(k->in, 0, k->n_units);
    for (size_t i = 0; i < n; i++) k->in[cur[i]] = 1;
    fwrite(k->buf, 1, candidate_text(k), out);
}

isolde_status isolde_shrink(const char *name, const char *text, size_t len, const isolde_read_opts *ro,
                            const isolde_check_opts *co, const isolde_shrink_opts *so, FILE *out,
                            isolde_shrink_stats *st, isolde_error *err)
{
    shrink k = {.name = name, .text = text, .len = len, .co = co, .anchor = -1};
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    double t0 = iso_now();
    isolde_status rc = ISOLDE_OK;
    isolde_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    memset(st, 0, sizeof *st);
    isolde_read_opts_init(&k.ro);
    if (ro) k.ro.format = ro->format;
    if ((rc = isolde_history_read_mem(name, text, len, &k.ro, &h, err)) || (rc = isolde_check(h, co, &r, err)))
        goto done;
    k.ro.format = isolde_history_format(h);
    st->comment = comment_mark(k.ro.format);
    if (!st->comment) {
        iso_fail(err, ISOLDE_ERR_USAGE, name, 0, 0, "shrink reads EDN or JSON lines histories of one op per line, "
                 "not %s (isolde convert writes JSON lines)", isolde_format_name(k.ro.format));
        rc = ISOLDE_ERR_USAGE;
        goto done;
    }
    struct setup_call c = {&k, h, r, so ? so->anomaly : NULL};
    if ((rc = iso_call(setup, &c, err))) goto done;
    st->ops_before = k.n_ops;
    st->units_before = k.n_units;
    if (!k.type || isolde_result_validity(r) != ISOLDE_INVALID) goto done; /* nothing to shrink: st->found 0 */
    snprintf(st->anomaly, sizeof st->anomaly, "%s", k.type);
    st->found = 1;
    k.deadline = so && so->time_limit_s > 0 ? t0 + so->time_limit_s : 0;
    size_t n = 0, n_mops = (size_t)-1;
    if (start(&k, h, r, so ? so->instance : 0, k.cur, &n, &st->witness_units, err) ||
        shrink_all(&k, k.cur, &n, k.mops, &n_mops) < 0) {
        rc = err->code ? err->code : ISOLDE_ERR_NOMEM;
        goto done;
    }
    st->units_after = n;
    st->minimal = !k.timed_out;
    int p = passes(&k); /* what is written passes: checked once more, for its types */
    if (p != 1) {
        rc = p < 0 ? ISOLDE_ERR_NOMEM : ISOLDE_ERR_INTERNAL;
        iso_fail(err, rc, name, 0, 0, p < 0 ? "out of memory" : "the shrunk history does not show %s", k.type);
        goto done;
    }
    snprintf(st->types, sizeof st->types, "%s", k.types_found);
    write_out(&k, k.cur, n, out);
    for (size_t i = 0; i < k.n_ops; i++) st->ops_after += k.in[k.unit_of[i]];
    for (size_t i = 0; i < n; i++)
        for (uint32_t f = k.mop_base[k.cur[i]]; f < k.mop_base[k.cur[i] + 1]; f++) st->mops_dropped += !k.mop_in[f];
done:
    st->checks = k.checks;
    st->seconds = iso_now() - t0;
    free_shrink(&k);
    isolde_result_free(r);
    isolde_history_free(h);
    return rc;
}
