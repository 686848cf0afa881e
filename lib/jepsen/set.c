/*
 * jepsen/set.c -- Jepsen's set checker (jepsen.checker/set): :add ops of
 * single elements, then a final ok :read of the whole set (the last in
 * history order). Every acknowledged add must be in it (else lost), and
 * nothing in it may lack an attempted add (else unexpected); an element
 * whose add was indeterminate and that was read is recovered; an element
 * the final read holds more than once is duplicated (Jepsen makes the read
 * a set first and never says). No final read: unknown. Linear, but for
 * sorting the element lists (n log n).
 *
 * Invariant: every element has one dense id; flags[id] says which of
 * attempted, acknowledged and read it is.
 */
#include "jepsen/jepsen.h"

#include <string.h>

enum { ATTEMPTED = 1, ACKED = 2, READ = 4, SHOWN = 8 };
enum { LOST, UNEXPECTED, DUPLICATED };

struct set {
    jp_result *r;
    iso_keys elems;
    uint8_t *flags;
    uint32_t *add;  /* per element: its ok add (else its add invocation), ISO_NONE */
    uint32_t *read_at; /* per element: its place in the final read */
    size_t cap_flags, cap_add, cap_read;
    uint32_t final;
};

static uint32_t elem(struct set *s, iso_val v)
{
    uint32_t id = iso_keys_intern(&s->elems, v);
    if (id >= s->cap_flags) {
        size_t old = s->cap_flags;
        ISO_GROW(s->flags, s->cap_flags, (size_t)id + 1);
        memset(s->flags + old, 0, s->cap_flags - old);
    }
    if (id >= s->cap_add) {
        size_t old = s->cap_add;
        ISO_GROW(s->add, s->cap_add, (size_t)id + 1);
        memset(s->add + old, 0xff, (s->cap_add - old) * sizeof *s->add);
    }
    return id;
}

/* The elements of a read: a vector, list or set (nil: none). */
static const iso_val *read_items(const isolde_history *h, const iso_op *op, size_t *n, iso_val buf[3])
{
    *n = 0;
    if (!iso_is_seq(op->value) || iso_seq_kind(&h->store, op->value) == ISO_SEQ_MAP) return NULL;
    *n = iso_seq_len(&h->store, op->value);
    return iso_seq_items(&h->store, op->value, buf);
}

static int scan(struct set *s, isolde_error *err)
{
    const isolde_history *h = s->r->h;
    iso_name_atoms fadd, fread;
    iso_name_atoms_find(&h->store, "add", &fadd);
    iso_name_atoms_find(&h->store, "read", &fread);
    s->final = ISO_NONE;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (jp_f_is(h, op, &fadd) && (op->type == ISO_OP_INVOKE || op->type == ISO_OP_OK)) {
            uint32_t id = elem(s, op->value);
            s->flags[id] |= op->type == ISO_OP_INVOKE ? ATTEMPTED : ACKED;
            if (op->type == ISO_OP_OK || s->add[id] == ISO_NONE) s->add[id] = (uint32_t)i;
        } else if (op->type == ISO_OP_OK && jp_f_is(h, op, &fread)) {
            if (!iso_is_nil(op->value) && !read_items(h, op, &(size_t){0}, (iso_val[3]){0}))
                return jp_bad_op(s->r, op, "a :read's value is not a collection:", err);
            s->final = (uint32_t)i;
        }
    }
    return 0;
}

static void mark_final(struct set *s)
{
    size_t n;
    iso_val buf[3];
    const iso_val *v = read_items(s->r->h, &s->r->h->ops[s->final], &n, buf);
    s->read_at = iso_xmalloc((n ? n : 1) * sizeof *s->read_at);
    for (size_t j = 0; j < n; j++) {
        uint32_t id = elem(s, v[j]);
        s->flags[id] |= READ;
        s->read_at[j] = id;
    }
    s->cap_read = n;
}

/* The elements the final read holds more than once, in value order: how
 * many times, and the place of one of them. */
static void duplicates(struct set *s)
{
    size_t n = s->elems.n, m = 0;
    uint32_t *times = iso_xcalloc(n ? n : 1, sizeof *times), *at = iso_xmalloc((n ? n : 1) * sizeof *at);
    uint32_t *ids = iso_xmalloc((n ? n : 1) * sizeof *ids);
    for (size_t j = 0; j < s->cap_read; j++) {
        uint32_t id = s->read_at[j];
        if (++times[id] == 2) ids[m++] = id;
        at[id] = (uint32_t)j;
    }
    jp_sort_ids(&s->r->h->store, s->elems.vals, ids, m);
    for (size_t i = 0; i < m; i++) jp_add(s->r, DUPLICATED, (jp_item){s->final, ISO_NONE, times[ids[i]], at[ids[i]], 0});
    iso_free(times);
    iso_free(at);
    iso_free(ids);
}

/* Jepsen's integer-interval-set-str: #{1..3 5}; other values one by one. */
static void interval_str(const struct set *s, uint32_t *ids, size_t n, iso_buf *out)
{
    const iso_store *st = &s->r->h->store;
    jp_sort_ids(st, s->elems.vals, ids, n);
    iso_buf_puts(out, "#{");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int64_t a, b;
        while (j + 1 < n && jp_int(s->r->h, s->elems.vals[ids[j]], &a) &&
               jp_int(s->r->h, s->elems.vals[ids[j + 1]], &b) && a < INT64_MAX && b == a + 1)
            j++;
        if (i) iso_buf_puts(out, " ");
        iso_val_edn(st, s->elems.vals[ids[i]], out);
        if (j > i) {
            iso_buf_puts(out, "..");
            iso_val_edn(st, s->elems.vals[ids[j]], out);
        }
        i = j + 1;
    }
    iso_buf_puts(out, "}");
}

static void render_lost(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  the add ");
    jp_op_edn(r, it->op, out);
    iso_buf_puts(out, " (");
    jp_where(r, it->op, out);
    iso_buf_puts(out, ") was acknowledged,\n  but the final read (");
    jp_where(r, it->op2, out);
    iso_buf_puts(out, ") does not hold its element\n");
}

static void render_unexpected(const jp_result *r, const jp_item *it, iso_buf *out)
{
    size_t n;
    iso_val buf[3];
    const iso_val *v = read_items(r->h, &r->h->ops[it->op], &n, buf);
    iso_buf_puts(out, "  the final read ");
    jp_op_edn(r, it->op, out);
    iso_buf_puts(out, " (");
    jp_where(r, it->op, out);
    iso_buf_puts(out, ")\n  holds ");
    iso_val_edn(&r->h->store, v[it->a], out);
    iso_buf_puts(out, ", which no :add attempted\n");
}

static void results(struct set *s)
{
    jp_result *r = s->r;
    size_t n = s->elems.n, counts[6] = {0}; /* attempts acks ok lost recovered unexpected */
    uint32_t *ids[4];
    for (int k = 0; k < 4; k++) ids[k] = iso_xmalloc((n ? n : 1) * sizeof *ids[k]);
    for (uint32_t id = 0; id < n; id++) {
        uint8_t f = s->flags[id];
        counts[0] += !!(f & ATTEMPTED);
        counts[1] += !!(f & ACKED);
        if ((f & READ) && (f & ATTEMPTED)) ids[0][counts[2]++] = id;
        if ((f & ACKED) && !(f & READ)) {
            ids[1][counts[3]++] = id;
            jp_add(r, LOST, (jp_item){s->add[id], s->final, 0, 0, 0});
        }
        if ((f & READ) && (f & ATTEMPTED) && !(f & ACKED)) ids[2][counts[4]++] = id;
        if ((f & READ) && !(f & ATTEMPTED)) ids[3][counts[5]++] = id;
    }
    for (size_t j = 0; j < s->cap_read; j++) /* in the read's order, once each */
        if (!(s->flags[s->read_at[j]] & (ATTEMPTED | SHOWN))) {
            jp_add(r, UNEXPECTED, (jp_item){s->final, ISO_NONE, (int64_t)j, 0, 0});
            s->flags[s->read_at[j]] |= SHOWN;
        }
    duplicates(s);
    r->validity = counts[3] || counts[5] || r->sec[DUPLICATED].n ? ISOLDE_INVALID : ISOLDE_VALID;
    iso_buf_printf(&r->json, "{\"valid?\":%s,\"model\":\"set\",\"attempt-count\":%zu,\"acknowledged-count\":%zu,"
                             "\"ok-count\":%zu,\"lost-count\":%zu,\"recovered-count\":%zu,\"unexpected-count\":%zu",
                   jp_json_validity(r->validity), counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
    static const char *const keys[] = {"ok", "lost", "recovered", "unexpected"};
    for (int k = 0; k < 4; k++) {
        iso_buf b = {0};
        interval_str(s, ids[k], counts[2 + k], &b);
        iso_buf_printf(&r->json, ",\"%s\":", keys[k]);
        iso_json_string(&r->json, b.p ? b.p : "", b.n);
        if (k) iso_buf_printf(&r->summary, "%s: %s\n", keys[k], iso_buf_cstr(&b));
        iso_buf_free(&b);
        iso_free(ids[k]);
    }
    jp_dups_json(r, &r->sec[DUPLICATED], &r->json);
    iso_buf_puts(&r->json, "}");
    iso_buf_printf(&r->summary, "%zu add%s attempted, %zu acknowledged; the final read (", counts[0],
                   counts[0] == 1 ? "" : "s", counts[1]);
    jp_where(r, s->final, &r->summary);
    iso_buf_printf(&r->summary, ") holds %zu of them\n", counts[2]);
}

int iso_jepsen_set(const isolde_history *h, const iso_checker_opts *co, isolde_result **out, isolde_error *err)
{
    (void)co;
    struct set s = {.r = jp_new("set", h)};
    iso_keys_init(&s.elems, &h->store);
    jp_section_init(s.r, LOST, "lost", render_lost, NULL);
    jp_section_init(s.r, UNEXPECTED, "unexpected", render_unexpected, NULL);
    jp_section_init(s.r, DUPLICATED, "duplicated", jp_render_dup, NULL);
    int rc = scan(&s, err);
    if (!rc && s.final == ISO_NONE) {
        s.r->validity = ISOLDE_UNKNOWN;
        iso_buf_printf(&s.r->json, "{\"valid?\":\"unknown\",\"model\":\"set\",\"error\":\"Set was never read\"}");
        iso_buf_puts(&s.r->summary, "unknown: the set was never read (no ok :read)\n");
    } else if (!rc) {
        mark_final(&s);
        results(&s);
    }
    iso_keys_free(&s.elems);
    iso_free(s.flags);
    iso_free(s.add);
    iso_free(s.read_at);
    if (rc) return jp_free(s.r), -1;
    *out = jp_finish(s.r);
    return 0;
}
