/*
 * jepsen/set_full.c -- Jepsen's set-full checker (jepsen.checker/set-full):
 * :add ops of single elements and ok :reads of the whole set, client ops
 * only. Per element (from its add's invocation on): when it was known
 * (its add acknowledged or a read saw it, whichever came first), the
 * latest-invoked read that saw it (last present) and the latest-invoked
 * read, completed after the add's invocation, that did not (last absent).
 * Stable: last present after last absent; lost: known, and last absent
 * after both last present and the time it was known; else never-read.
 * Duplicated: any element a read held more than once, whenever that read
 * came and whether or not the element was ever added.
 *
 * Jepsen updates every element at every read (reads x elements). Here a
 * read touches only the elements it holds: the reads an element missed
 * between two reads that held it are a range of reads in completion
 * order, and a max segment tree over the reads' invocation indices gives
 * the latest of them in O(log reads). O((ops + read sizes) log reads).
 *
 * Invariant: for a tracked element, every read before prev (in completion
 * order, from its add's invocation on) has been folded into last_absent.
 */
#include "jepsen/jepsen.h"

#include <stdlib.h>
#include <string.h>

struct elem {
    uint32_t add;      /* position of the add's invocation */
    uint32_t known;    /* position of the op it was known by, ISO_NONE */
    uint32_t present;  /* position of the last present read's invocation, ISO_NONE */
    uint32_t absent;   /* the same, absent */
    int64_t prev;      /* the last read (completion order) that held it, or its first read - 1 */
    /* Duplicates, whenever a read held it, its add invoked or not (these
     * outlive a new add's invocation, which resets the fields above). */
    uint32_t stamp;    /* the read it was last seen in + 1 */
    uint32_t mult;     /* how often that read held it */
    uint32_t dup;      /* the most any read held it (> 1: duplicated), where, and at which place */
    uint32_t dup_read, dup_at;
};

struct full {
    jp_result *r;
    iso_keys ids;
    struct elem *e;
    size_t n_e, cap_e;
    uint32_t *tree;    /* max segment tree of read invocations (positions), by :index */
    size_t leaves, reads;
    uint32_t *partner;
    int linearizable;
};

static int64_t idx(const struct full *f, uint32_t pos) { return pos == ISO_NONE ? -1 : f->r->h->ops[pos].index; }

static uint32_t later(const struct full *f, uint32_t a, uint32_t b)
{
    return a == ISO_NONE ? b : b == ISO_NONE ? a : idx(f, b) > idx(f, a) ? b : a;
}

static void tree_set(struct full *f, size_t j, uint32_t pos)
{
    size_t i = j + f->leaves;
    f->tree[i] = pos;
    for (i /= 2; i; i /= 2) f->tree[i] = later(f, f->tree[2 * i], f->tree[2 * i + 1]);
}

/* The latest-invoked read among reads [lo, hi). */
static uint32_t tree_max(const struct full *f, int64_t lo, int64_t hi)
{
    uint32_t best = ISO_NONE;
    if (lo < 0) lo = 0;
    for (size_t l = (size_t)lo + f->leaves, r = (size_t)(hi < lo ? lo : hi) + f->leaves; l < r; l /= 2, r /= 2) {
        if (l & 1) best = later(f, best, f->tree[l++]);
        if (r & 1) best = later(f, best, f->tree[--r]);
    }
    return best;
}

/* The element v's state: new ones are not tracked until their add is invoked. */
static struct elem *elem_of(struct full *f, iso_val v)
{
    uint32_t id = iso_keys_intern(&f->ids, v);
    if (id >= f->n_e) {
        ISO_GROW(f->e, f->cap_e, (size_t)id + 1);
        f->e[id] = (struct elem){.add = ISO_NONE, .dup_read = ISO_NONE};
        f->n_e = (size_t)id + 1;
    }
    return &f->e[id];
}

static void on_add(struct full *f, size_t i)
{
    const iso_op *op = &f->r->h->ops[i];
    struct elem *e = elem_of(f, op->value);
    if (op->type == ISO_OP_INVOKE) {
        e->add = (uint32_t)i;
        e->known = e->present = e->absent = ISO_NONE;
        e->prev = (int64_t)f->reads - 1;
    } else if (op->type == ISO_OP_OK && e->add != ISO_NONE && e->known == ISO_NONE) {
        e->known = (uint32_t)i;
    }
}

/* Counts e in the read at i (its k-th item): 1 when that read held it before. */
static int held_again(struct full *f, struct elem *e, size_t i, size_t k)
{
    uint32_t stamp = (uint32_t)f->reads + 1;
    if (e->stamp != stamp) {
        e->stamp = stamp;
        e->mult = 1;
        return 0;
    }
    if (++e->mult > e->dup) {
        e->dup = e->mult;
        e->dup_read = (uint32_t)i;
        e->dup_at = (uint32_t)k;
    }
    return 1;
}

static void present(struct full *f, struct elem *e, size_t i, uint32_t inv)
{
    size_t j = f->reads;
    e->absent = later(f, e->absent, tree_max(f, e->prev + 1, (int64_t)j));
    e->prev = (int64_t)j;
    if (e->known == ISO_NONE) e->known = (uint32_t)i;
    e->present = later(f, e->present, inv);
}

static int on_read(struct full *f, size_t i, isolde_error *err)
{
    const isolde_history *h = f->r->h;
    const iso_op *op = &h->ops[i];
    iso_val v = op->value;
    if (!iso_is_nil(v) && (!iso_is_seq(v) || iso_seq_kind(&h->store, v) == ISO_SEQ_MAP))
        return jp_bad_op(f->r, op, "a :read's value is not a collection:", err);
    uint32_t inv = f->partner[i] != ISO_NONE ? f->partner[i] : (uint32_t)i;
    size_t n = iso_is_nil(v) ? 0 : iso_seq_len(&h->store, v);
    iso_val buf[3];
    const iso_val *items = n ? iso_seq_items(&h->store, v, buf) : NULL;
    for (size_t k = 0; k < n; k++) {
        struct elem *e = elem_of(f, items[k]);
        if (!held_again(f, e, i, k) && e->add != ISO_NONE) present(f, e, i, inv);
    }
    tree_set(f, f->reads++, inv);
    return 0;
}

static int scan(struct full *f, isolde_error *err)
{
    const isolde_history *h = f->r->h;
    iso_name_atoms fadd, fread;
    iso_name_atoms_find(&h->store, "add", &fadd);
    iso_name_atoms_find(&h->store, "read", &fread);
    size_t reads = 0;
    for (size_t i = 0; i < h->n_ops; i++)
        reads += iso_op_is_client(&h->ops[i]) && h->ops[i].type == ISO_OP_OK && jp_f_is(h, &h->ops[i], &fread);
    for (f->leaves = 1; f->leaves < reads; f->leaves *= 2) {}
    f->tree = iso_xmalloc(2 * f->leaves * sizeof *f->tree);
    memset(f->tree, 0xff, 2 * f->leaves * sizeof *f->tree);
    f->partner = jp_pair(h, 1);
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op)) continue;
        if (jp_f_is(h, op, &fadd)) on_add(f, i);
        else if (op->type == ISO_OP_OK && jp_f_is(h, op, &fread) && on_read(f, i, err)) return -1;
    }
    for (size_t id = 0; id < f->n_e; id++)
        if (f->e[id].add != ISO_NONE)
            f->e[id].absent = later(f, f->e[id].absent, tree_max(f, f->e[id].prev + 1, (int64_t)f->reads));
    return 0;
}

/* ---- results ---- */

enum { LOST, DUPLICATED, STALE };
enum outcome { O_STABLE, O_LOST, O_NEVER };

struct fate {
    uint32_t id;
    enum outcome o;
    int64_t latency; /* stable or lost latency, ms; -1: none */
};

static int64_t ms_after(const struct full *f, uint32_t pos, uint32_t known)
{
    int64_t t = 0, d;
    if (pos != ISO_NONE && __builtin_add_overflow(f->r->h->ops[pos].time, 1, &t)) t = INT64_MAX;
    if (__builtin_sub_overflow(t, f->r->h->ops[known].time, &d)) d = t > 0 ? INT64_MAX : 0;
    return d > 0 ? d / 1000000 : 0;
}

static struct fate fate_of(const struct full *f, uint32_t id)
{
    const struct elem *e = &f->e[id];
    struct fate x = {id, O_NEVER, -1};
    if (e->present != ISO_NONE && idx(f, e->absent) < idx(f, e->present)) {
        x.o = O_STABLE;
        x.latency = ms_after(f, e->absent, e->known);
    } else if (e->known != ISO_NONE && e->absent != ISO_NONE && idx(f, e->present) < idx(f, e->absent) &&
               idx(f, e->known) < idx(f, e->absent)) {
        x.o = O_LOST;
        x.latency = ms_after(f, e->present, e->known);
    }
    return x;
}

static int by_latency_desc(const void *a, const void *b)
{
    int64_t x = ((const struct fate *)a)->latency, y = ((const struct fate *)b)->latency;
    return x < y ? 1 : x > y ? -1 : 0;
}
static int by_int(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void elem_json(const struct full *f, uint32_t id, iso_buf *j)
{
    iso_val_json(&f->r->h->store, f->ids.vals[id], j);
}

/* "key":[elements] of the fates with outcome o (stale: stable, latency > 0). */
static size_t list_json(const struct full *f, const struct fate *x, size_t n, const char *key, int o, iso_buf *j)
{
    size_t c = 0;
    iso_buf_printf(j, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++)
        if (o >= 0 ? (int)x[i].o == o : x[i].o == O_STABLE && x[i].latency > 0) {
            if (c++) iso_buf_puts(j, ",");
            elem_json(f, x[i].id, j);
        }
    iso_buf_puts(j, "]");
    return c;
}

/* Jepsen's frequency-distribution at 0, 0.5, 0.95, 0.99, 1. */
static void latencies_json(const struct fate *x, size_t n, enum outcome o, const char *key, iso_buf *j)
{
    int64_t *v = iso_xmalloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i].o == o) v[m++] = x[i].latency;
    if (m) {
        qsort(v, m, sizeof *v, by_int);
        static const double points[] = {0, 0.5, 0.95, 0.99, 1};
        static const char *const names[] = {"0", "0.5", "0.95", "0.99", "1"};
        iso_buf_printf(j, ",\"%s\":{", key);
        for (int p = 0; p < 5; p++) {
            size_t k = (size_t)((double)m * points[p]);
            iso_buf_printf(j, "%s\"%s\":%lld", p ? "," : "", names[p], (long long)v[k < m ? k : m - 1]);
        }
        iso_buf_puts(j, "}");
    }
    iso_free(v);
}

static void worst_stale_json(const struct full *f, struct fate *x, size_t n, iso_buf *j)
{
    struct fate *s = iso_xmalloc((n ? n : 1) * sizeof *s);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i].o == O_STABLE && x[i].latency > 0) s[m++] = x[i];
    qsort(s, m, sizeof *s, by_latency_desc);
    iso_buf_puts(j, ",\"worst-stale\":[");
    for (size_t i = 0; i < m && i < 8; i++) {
        const struct elem *e = &f->e[s[i].id];
        iso_buf_puts(j, i ? ",{\"element\":" : "{\"element\":");
        elem_json(f, s[i].id, j);
        iso_buf_printf(j, ",\"outcome\":\"stable\",\"stable-latency\":%lld,\"lost-latency\":null,\"known\":",
                       (long long)s[i].latency);
        jp_op_json(f->r, e->known, j);
        iso_buf_puts(j, ",\"last-absent\":");
        if (e->absent == ISO_NONE) iso_buf_puts(j, "null");
        else jp_op_json(f->r, e->absent, j);
        iso_buf_puts(j, "}");
    }
    iso_buf_puts(j, "]");
    iso_free(s);
}

static void items(struct full *f, const struct fate *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct elem *e = &f->e[x[i].id];
        jp_item it = {e->add, e->absent, e->known, e->present == ISO_NONE ? -1 : (int64_t)e->present,
                      x[i].latency};
        if (x[i].o == O_LOST) jp_add(f->r, LOST, it);
        if (f->linearizable && x[i].o == O_STABLE && x[i].latency > 0) jp_add(f->r, STALE, it);
    }
}

/* Every element some read held more than once, added or not, in value
 * order; ids: room for them all. */
static void dups(struct full *f, uint32_t *ids)
{
    size_t n = 0;
    for (uint32_t id = 0; id < f->n_e; id++)
        if (f->e[id].dup > 1) ids[n++] = id;
    jp_sort_ids(&f->r->h->store, f->ids.vals, ids, n);
    for (size_t i = 0; i < n; i++) {
        const struct elem *e = &f->e[ids[i]];
        jp_add(f->r, DUPLICATED, (jp_item){e->dup_read, ISO_NONE, e->dup, e->dup_at, 0});
    }
}

static void full_json(struct full *f, struct fate *x, size_t n)
{
    size_t c[3] = {0}, stale = 0;
    for (size_t i = 0; i < n; i++) {
        c[x[i].o]++;
        stale += x[i].o == O_STABLE && x[i].latency > 0;
    }
    jp_result *r = f->r;
    r->validity = c[O_LOST] ? ISOLDE_INVALID : !c[O_STABLE] ? ISOLDE_UNKNOWN
                : f->linearizable && stale ? ISOLDE_INVALID : ISOLDE_VALID;
    if (r->sec[DUPLICATED].n) r->validity = ISOLDE_INVALID;
    iso_buf *j = &r->json;
    iso_buf_printf(j, "{\"valid?\":%s,\"model\":\"set-full\",\"attempt-count\":%zu,\"stable-count\":%zu,"
                      "\"lost-count\":%zu", jp_json_validity(r->validity), n, c[O_STABLE], c[O_LOST]);
    list_json(f, x, n, "lost", O_LOST, j);
    iso_buf_printf(j, ",\"never-read-count\":%zu", c[O_NEVER]);
    list_json(f, x, n, "never-read", O_NEVER, j);
    iso_buf_printf(j, ",\"stale-count\":%zu", stale);
    list_json(f, x, n, "stale", -1, j);
    worst_stale_json(f, x, n, j);
    latencies_json(x, n, O_STABLE, "stable-latencies", j);
    latencies_json(x, n, O_LOST, "lost-latencies", j);
    jp_dups_json(r, &r->sec[DUPLICATED], j);
    iso_buf_puts(j, "}");
    iso_buf_printf(&r->summary, "%zu element%s added: %zu stable (%zu of them stale), %zu lost, %zu never read; "
                                "%zu ok read%s\n", n, n == 1 ? "" : "s", c[O_STABLE], stale, c[O_LOST], c[O_NEVER],
                   f->reads, f->reads == 1 ? "" : "s");
    if (!c[O_LOST] && !c[O_STABLE]) iso_buf_puts(&r->summary, "unknown: no element was read stably or lost\n");
}

static void render_lost(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  element ");
    iso_val_edn(&r->h->store, r->h->ops[it->op].value, out);
    iso_buf_puts(out, ", added by the add invoked at ");
    jp_where(r, it->op, out);
    iso_buf_puts(out, ", was known from ");
    jp_op_edn(r, (uint32_t)it->a, out);
    iso_buf_puts(out, " (");
    jp_where(r, (uint32_t)it->a, out);
    iso_buf_puts(out, ");\n  the read invoked at ");
    jp_where(r, it->op2, out);
    iso_buf_puts(out, " began after that and did not see it, and ");
    if (it->b < 0) iso_buf_puts(out, "no read ever saw it\n");
    else {
        iso_buf_puts(out, "the last read that saw it was invoked earlier, at ");
        jp_where(r, (uint32_t)it->b, out);
        iso_buf_puts(out, "\n");
    }
}

static void render_stale(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  element ");
    iso_val_edn(&r->h->store, r->h->ops[it->op].value, out);
    iso_buf_puts(out, " was known from ");
    jp_where(r, (uint32_t)it->a, out);
    iso_buf_puts(out, ", but the read invoked at ");
    jp_where(r, it->op2, out);
    iso_buf_printf(out, " did not see it; it was stable %lld ms after it was known\n", (long long)it->c);
}

static void full_results(struct full *f)
{
    jp_section_init(f->r, LOST, "lost", render_lost, NULL);
    jp_section_init(f->r, DUPLICATED, "duplicated", jp_render_dup, NULL);
    jp_section_init(f->r, STALE, "stale", render_stale, NULL);
    size_t n = 0;
    uint32_t *ids = iso_xmalloc((f->n_e ? f->n_e : 1) * sizeof *ids);
    for (uint32_t id = 0; id < f->n_e; id++)
        if (f->e[id].add != ISO_NONE) ids[n++] = id;
    jp_sort_ids(&f->r->h->store, f->ids.vals, ids, n);
    struct fate *x = iso_xmalloc((n ? n : 1) * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = fate_of(f, ids[i]);
    items(f, x, n);
    dups(f, ids);
    full_json(f, x, n);
    iso_free(x);
    iso_free(ids);
}

int iso_jepsen_set_full(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                        isolde_error *err)
{
    struct full f = {.r = jp_new("set-full", h), .linearizable = co->linearizable};
    iso_keys_init(&f.ids, &h->store);
    int rc = scan(&f, err);
    if (!rc) full_results(&f);
    iso_keys_free(&f.ids);
    iso_free(f.e);
    iso_free(f.tree);
    iso_free(f.partner);
    if (rc) return jp_free(f.r), -1;
    *out = jp_finish(f.r);
    return 0;
}
