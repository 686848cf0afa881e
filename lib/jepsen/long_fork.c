/*
 * jepsen/long_fork.c -- Jepsen's long-fork checker (jepsen.tests.long-fork):
 * write transactions insert one key each ([[:w k v]], never a key twice),
 * read transactions read a group of keys ([[:r k v] ...]). Reads of the
 * same key set must be totally ordered by what they saw (a read that saw
 * a key's insert dominates one that did not); two reads where each saw an
 * insert the other missed are a long fork, which parallel snapshot
 * isolation allows and snapshot isolation forbids.
 *
 * Jepsen compares every pair of reads of a group. Here a group's reads
 * are sorted by how many keys they saw, and a set of sets is a chain iff
 * each is a subset of the next: forks are found in O(r log r + size), and
 * every adjacent pair that is not a subset is reported (a true fork). Two
 * reads of a group that saw different values of one key, a read of the
 * wrong number of keys (--group-size) or a key written twice make the
 * history illegal for this checker: unknown, as Jepsen's exception is.
 *
 * Invariant: sig[off[r] .. off[r] + len[r]) holds read r's key ids sorted
 * and distinct, val[] the value it saw of each.
 */
#include "jepsen/jepsen.h"

#include <stdlib.h>
#include <string.h>

struct lf {
    jp_result *r;
    iso_keys keys;
    uint32_t *read_op;         /* per read: its position */
    size_t *off, *len, *seen;  /* per read: where its keys are, how many, how many it saw */
    uint32_t *group;           /* per read: its group */
    size_t n_reads, cap_reads[4], early, late;
    uint32_t *sig;
    iso_val *val;
    size_t n_sig, cap_sig, cap_val;
    char error[256];
};

static int is_mop(const isolde_history *h, iso_val m, const char *f)
{
    return iso_is_seq(m) && iso_seq_kind(&h->store, m) <= ISO_SEQ_LIST && iso_seq_len(&h->store, m) >= 2 &&
           iso_name_is(&h->store, iso_seq_item(&h->store, m, 0), f);
}

/* A transaction of micro-ops all named f (a vector or list): its length, else -1. */
static long txn_of(const isolde_history *h, iso_val v, const char *f)
{
    if (!iso_is_seq(v) || iso_seq_kind(&h->store, v) > ISO_SEQ_LIST) return -1;
    size_t n = iso_seq_len(&h->store, v);
    iso_val buf[3];
    const iso_val *m = iso_seq_items(&h->store, v, buf);
    for (size_t i = 0; i < n; i++)
        if (!is_mop(h, m[i], f)) return -1;
    return (long)n;
}

static void say(struct lf *l, const iso_op *op, const char *what)
{
    if (l->error[0]) return;
    snprintf(l->error, sizeof l->error, "%s (%s %lld)", what, op->line ? "line" : "index",
             op->line ? (long long)op->line : (long long)op->index);
}

static void multiple_writes(struct lf *l)
{
    const isolde_history *h = l->r->h;
    iso_keys written;
    iso_keys_init(&written, &h->store);
    for (size_t i = 0; i < h->n_ops && !l->error[0]; i++) {
        const iso_op *op = &h->ops[i];
        if (op->type != ISO_OP_INVOKE || txn_of(h, op->value, "w") != 1) continue;
        size_t before = written.n;
        iso_keys_intern(&written, iso_seq_item(&h->store, iso_seq_item(&h->store, op->value, 0), 1));
        if (written.n == before) say(l, op, "multiple-writes: a key is written twice");
    }
    iso_keys_free(&written);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Read r's keys, sorted and distinct (a key read twice: the last value). */
static void add_read(struct lf *l, uint32_t pos)
{
    const isolde_history *h = l->r->h;
    iso_val v = h->ops[pos].value;
    size_t n = iso_seq_len(&h->store, v), r = l->n_reads++;
    iso_val buf[3];
    const iso_val *m = iso_seq_items(&h->store, v, buf);
    ISO_GROW(l->read_op, l->cap_reads[0], r + 1);
    ISO_GROW(l->off, l->cap_reads[1], r + 1);
    ISO_GROW(l->len, l->cap_reads[2], r + 1);
    ISO_GROW(l->seen, l->cap_reads[3], r + 1);
    ISO_GROW(l->sig, l->cap_sig, l->n_sig + n + 1);
    ISO_GROW(l->val, l->cap_val, l->n_sig + n + 1);
    uint32_t *s = l->sig + l->n_sig;
    uint64_t *pairs = iso_xmalloc((n ? n : 1) * sizeof *pairs); /* (key id, place) */
    for (size_t i = 0; i < n; i++)
        pairs[i] = (uint64_t)iso_keys_intern(&l->keys, iso_seq_item(&h->store, m[i], 1)) << 32 | i;
    qsort(pairs, n, sizeof *pairs, by_u64); /* by key, then place: the last of a key wins */
    size_t k = 0, seen = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t key = (uint32_t)(pairs[i] >> 32);
        iso_val x = iso_seq_len(&h->store, m[pairs[i] & 0xffffffffu]) > 2
                        ? iso_seq_item(&h->store, m[pairs[i] & 0xffffffffu], 2) : ISO_NIL;
        if (k && s[k - 1] == key) k--;
        s[k] = key;
        l->val[l->n_sig + k++] = x;
    }
    for (size_t i = 0; i < k; i++) seen += !iso_is_nil(l->val[l->n_sig + i]);
    iso_free(pairs);
    l->read_op[r] = pos;
    l->off[r] = l->n_sig;
    l->len[r] = k;
    l->seen[r] = seen;
    l->n_sig += k;
    l->early += seen == 0;
    l->late += seen == k;
}

/* Dense group ids by key set: an open-addressing table of each group's first read. */
static size_t group_reads(struct lf *l)
{
    size_t slots = 16, groups = 0;
    while (slots < 2 * l->n_reads) slots *= 2;
    uint32_t *t = iso_xmalloc(slots * sizeof *t);
    memset(t, 0xff, slots * sizeof *t);
    l->group = iso_xmalloc((l->n_reads ? l->n_reads : 1) * sizeof *l->group);
    for (size_t r = 0; r < l->n_reads; r++) {
        uint64_t hash = 1469598103934665603ull;
        for (size_t i = 0; i < l->len[r]; i++) hash = (hash ^ l->sig[l->off[r] + i]) * 1099511628211ull;
        size_t at = (size_t)iso_mix64(hash) & (slots - 1);
        for (;; at = (at + 1) & (slots - 1)) {
            uint32_t q = t[at];
            if (q == ISO_NONE) {
                t[at] = (uint32_t)r;
                l->group[r] = (uint32_t)groups++;
                break;
            }
            if (l->len[q] == l->len[r] && !memcmp(l->sig + l->off[q], l->sig + l->off[r], l->len[r] * sizeof *l->sig)) {
                l->group[r] = l->group[q];
                break;
            }
        }
    }
    iso_free(t);
    return groups;
}

static _Thread_local const size_t *sort_seen;
static int by_seen(const void *a, const void *b)
{
    size_t x = sort_seen[*(const uint32_t *)a], y = sort_seen[*(const uint32_t *)b];
    return x < y ? -1 : x > y ? 1 : *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Every key that a saw, b saw too (same key set). */
static int subset(const struct lf *l, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i < l->len[a]; i++)
        if (!iso_is_nil(l->val[l->off[a] + i]) && iso_is_nil(l->val[l->off[b] + i])) return 0;
    return 1;
}

/* One group's reads (rs, in history order): legal values, then the chain. */
static void check_group(struct lf *l, uint32_t *rs, size_t n, iso_val *first, long size)
{
    const isolde_history *h = l->r->h;
    size_t len = l->len[rs[0]];
    if (size > 0 && (long)len != size) say(l, &h->ops[l->read_op[rs[0]]], "a read of the wrong number of keys (--group-size)");
    for (size_t i = 0; i < len; i++) first[i] = ISO_NIL;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < len; i++) {
            iso_val v = l->val[l->off[rs[k]] + i];
            if (iso_is_nil(v)) continue;
            if (iso_is_nil(first[i])) first[i] = v;
            else if (!iso_val_eq(&h->store, first[i], v))
                say(l, &h->ops[l->read_op[rs[k]]], "two reads saw different values of one key");
        }
    sort_seen = l->seen;
    qsort(rs, n, sizeof *rs, by_seen);
    for (size_t k = 1; k < n; k++)
        if (!subset(l, rs[k - 1], rs[k])) jp_add(l->r, 0, (jp_item){l->read_op[rs[k - 1]], l->read_op[rs[k]], 0, 0, 0});
}

/* 1 when some group has two reads to compare. */
static int check_groups(struct lf *l, long size)
{
    size_t g = group_reads(l), maxlen = 1;
    size_t *start = iso_xcalloc(g + 1, sizeof *start);
    uint32_t *rs = iso_xmalloc((l->n_reads ? l->n_reads : 1) * sizeof *rs);
    for (size_t r = 0; r < l->n_reads; r++) {
        start[l->group[r] + 1]++;
        if (l->len[r] > maxlen) maxlen = l->len[r];
    }
    for (size_t i = 0; i < g; i++) start[i + 1] += start[i];
    size_t *fill = iso_xmalloc((g ? g : 1) * sizeof *fill);
    memcpy(fill, start, g * sizeof *fill);
    for (size_t r = 0; r < l->n_reads; r++) rs[fill[l->group[r]]++] = (uint32_t)r;
    iso_val *first = iso_xmalloc(maxlen * sizeof *first);
    int pairs = 0;
    for (size_t i = 0; i < g; i++) {
        check_group(l, rs + start[i], start[i + 1] - start[i], first, size);
        pairs |= start[i + 1] - start[i] > 1;
    }
    iso_free(first);
    iso_free(fill);
    iso_free(start);
    iso_free(rs);
    return pairs;
}

/* The keys one read saw that the other did not: the first of each. */
static void one_sided(const jp_result *r, uint32_t a, uint32_t b, iso_buf *out)
{
    const iso_store *s = &r->h->store;
    iso_val va = r->h->ops[a].value, vb = r->h->ops[b].value;
    size_t na = iso_seq_len(s, va), nb = iso_seq_len(s, vb);
    for (size_t i = 0; i < na; i++) {
        iso_val mb[3], qb[3];
        const iso_val *m = iso_seq_items(s, iso_seq_item(s, va, i), mb);
        if (iso_seq_len(s, iso_seq_item(s, va, i)) < 3 || iso_is_nil(m[2])) continue;
        for (size_t j = 0; j < nb; j++) {
            const iso_val *q = iso_seq_items(s, iso_seq_item(s, vb, j), qb);
            if (iso_val_eq(s, q[1], m[1]) && (iso_seq_len(s, iso_seq_item(s, vb, j)) < 3 || iso_is_nil(q[2]))) {
                iso_buf_puts(out, "key ");
                iso_val_edn(s, m[1], out);
                iso_buf_puts(out, " = ");
                iso_val_edn(s, m[2], out);
                return;
            }
        }
    }
}

static void render_fork(const jp_result *r, const jp_item *it, iso_buf *out)
{
    for (int k = 0; k < 2; k++) {
        uint32_t a = k ? it->op2 : it->op, b = k ? it->op : it->op2;
        iso_buf_printf(out, "  %s ", k ? "and" : "the read");
        jp_op_edn(r, a, out);
        iso_buf_puts(out, " (");
        jp_where(r, a, out);
        iso_buf_puts(out, ") saw ");
        one_sided(r, a, b, out);
        iso_buf_puts(out, k ? ", which the first did not:\n" : ", which the second did not;\n");
    }
    iso_buf_puts(out, "  each saw an insert the other missed, so no order of the inserts explains both\n");
}

static void forks_json(struct lf *l)
{
    jp_result *r = l->r;
    iso_buf *j = &r->json;
    iso_buf_printf(j, "{\"valid?\":%s,\"model\":\"long-fork\",\"reads-count\":%zu,\"early-read-count\":%zu,"
                      "\"late-read-count\":%zu", jp_json_validity(r->validity), l->n_reads, l->early, l->late);
    if (l->error[0]) {
        iso_buf_puts(j, ",\"error\":");
        iso_json_string(j, l->error, strlen(l->error));
    } else if (r->sec[0].n) {
        iso_buf_puts(j, ",\"forks\":[");
        for (size_t i = 0; i < r->sec[0].n; i++) {
            iso_buf_puts(j, i ? ",[" : "[");
            jp_op_json(r, r->sec[0].items[i].op, j);
            iso_buf_puts(j, ",");
            jp_op_json(r, r->sec[0].items[i].op2, j);
            iso_buf_puts(j, "]");
        }
        iso_buf_puts(j, "]");
    }
    iso_buf_puts(j, "}");
}

int iso_jepsen_long_fork(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                         isolde_error *err)
{
    (void)err;
    struct lf l = {.r = jp_new("long-fork", h)};
    jp_section_init(l.r, 0, "long-fork", render_fork, NULL);
    iso_keys_init(&l.keys, &h->store);
    multiple_writes(&l);
    for (size_t i = 0; i < h->n_ops; i++)
        if (h->ops[i].type == ISO_OP_OK && txn_of(h, h->ops[i].value, "r") >= 0) add_read(&l, (uint32_t)i);
    int pairs = !l.error[0] && check_groups(&l, co->group_size);
    if (l.error[0]) l.r->sec[0].n = 0;
    l.r->validity = l.error[0] || !pairs ? ISOLDE_UNKNOWN : l.r->sec[0].n ? ISOLDE_INVALID : ISOLDE_VALID;
    iso_buf_printf(&l.r->summary, "%zu ok read%s (%zu saw no insert, %zu every one)\n", l.n_reads,
                   l.n_reads == 1 ? "" : "s", l.early, l.late);
    if (l.error[0]) iso_buf_printf(&l.r->summary, "unknown: the history is illegal for long-fork: %s\n", l.error);
    else if (!pairs) iso_buf_puts(&l.r->summary, "unknown: no two reads of one key group to compare\n");
    forks_json(&l);
    iso_keys_free(&l.keys);
    iso_free(l.read_op);
    iso_free(l.off);
    iso_free(l.len);
    iso_free(l.seen);
    iso_free(l.group);
    iso_free(l.sig);
    iso_free(l.val);
    *out = jp_finish(l.r);
    return 0;
}
