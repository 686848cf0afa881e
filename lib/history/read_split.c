/*
 * history/read_split.c -- one-op-per-line histories (JSON lines, Jepsen's EDN) read
 * on two threads.
 *
 * The input is cut at a record boundary near the middle: a line starting
 * with '{' right after a line ending in '}'. In valid JSON lines that is
 * always between two top-level values (JSON strings hold no raw newline,
 * and two values inside a composite need a ',' between them). EDN strings
 * may hold newlines and EDN items need no separator, so there the cut may
 * fall inside a form -- but then the first half ends inside it, fails, and
 * the input is read again on one thread. Each half is
 * parsed into its own history; the second half's values are written
 * straight into the first history's word array from offset base on, so
 * merging only renumbers atoms (in place, and only if the halves interned
 * them in different orders).
 *
 * No realloc can move that array while both run: a JSON text of b bytes
 * never needs more than b words (each composite spends 2 bytes on brackets
 * for its header and its place in its parent; each scalar at least 1 byte;
 * each further item a ',' byte), so the first half fits below base and the
 * second in the rest. If either half fails, or the halves disagree on
 * the :index rule (history.c), the whole input is read again on one thread, so errors are
 * exactly those of a sequential read.
 */
#include "history/split.h"

#include <stdlib.h>
#include <string.h>

struct half {
    iso_lines_fn read_lines;
    isolde_history *h;
    const char *buf;
    size_t len, lines;
    isolde_error err;
    int r;
};

struct halves {
    struct half h[2];
};

static void read_first(void *arg)
{
    struct half *x = &((struct halves *)arg)->h[0];
    x->r = x->read_lines(x->h, x->buf, x->len, &x->lines, &x->err);
}

static void read_second(void *arg)
{
    struct half *x = &((struct halves *)arg)->h[1];
    x->r = x->read_lines(x->h, x->buf, x->len, &x->lines, &x->err);
}

/* The first record boundary at or after mid, or 0. */
static size_t boundary(const char *p, size_t len, size_t mid)
{
    for (size_t i = mid; i + 1 < len; i++) {
        const char *nl = memchr(p + i, '\n', len - i - 1);
        if (!nl) return 0;
        i = (size_t)(nl - p);
        size_t j = i > 0 && p[i - 1] == '\r' ? i - 1 : i;
        if (p[i + 1] == '{' && j > 0 && p[j - 1] == '}') return i + 1;
    }
    return 0;
}

static iso_val remap(iso_val v, const uint32_t *atom)
{
    unsigned t = iso_tag(v);
    return t >= ISO_TAG_STR && t <= ISO_TAG_FORM ? iso_mk(t, atom[iso_payload(v)]) : v;
}

/* Append h2's ops to h's, renumbered. They are moved from the end in
 * chunks, shrinking h2's array as they go, so that both arrays are not
 * fully resident at once. */
static void move_ops(isolde_history *h, isolde_history *h2, const uint32_t *atom, size_t lines)
{
    enum { CHUNK = 1 << 16 };
    size_t n1 = h->n_ops, total = n1 + h2->n_ops, e1 = h->n_extras;
    for (size_t i = 0; i < h2->n_extras; i++) /* h2's :f / :error pairs follow h's */
        ISO_PUSH(h->extras, h->n_extras, h->cap_extras,
                 ((iso_op_extra){remap(h2->extras[i].f, atom), remap(h2->extras[i].error, atom)}));
    ISO_GROW(h->ops, h->cap_ops, total);
    while (h2->n_ops) {
        size_t lo = h2->n_ops > CHUNK ? h2->n_ops - CHUNK : 0;
        for (size_t j = lo; j < h2->n_ops; j++) {
            iso_op op = h2->ops[j];
            op.process = remap(op.process, atom);
            op.value = remap(op.value, atom);
            op.extra += (uint32_t)e1;
            op.line += (uint32_t)lines;
            if (h->dense_index) op.index = (int64_t)(n1 + j);
            h->ops[n1 + j] = op;
        }
        h2->n_ops = lo;
        if (lo) h2->ops = iso_xrealloc(h2->ops, lo * sizeof *h2->ops);
        h2->cap_ops = lo;
    }
    h->n_ops = total;
}

/* Renumber the second half's atoms (its words from base on) into h's;
 * nothing to do when both halves interned the same atoms in one order. */
static void merge(isolde_history *h, isolde_history *h2, size_t base, size_t lines)
{
    iso_store *s2 = &h2->store;
    uint32_t *atom = iso_xmalloc((s2->n_atoms + 1) * sizeof *atom);
    int same = 1;
    for (size_t id = 0; id < s2->n_atoms; id++) {
        const struct iso_atom *a = &s2->atoms[id];
        atom[id] = (uint32_t)iso_payload(iso_atom(&h->store, a->tag, s2->text + a->off, a->len));
        same &= atom[id] == id;
    }
    iso_val *w = s2->words;
    for (size_t i = base; !same && i < s2->n_words; i += (w[i] & 0xffffffffu) + 1)
        for (size_t k = 1; k <= (w[i] & 0xffffffffu); k++) w[i + k] = remap(w[i + k], atom);
    h->store.n_words = s2->n_words;
    move_ops(h, h2, atom, lines);
    iso_history_warn_merge(h, h2, lines);
    iso_free(atom);
}

/* Both halves read: would one sequential read agree on the :index rule?
 * Not when they numbered ops differently, nor when the second half's
 * first :index is not above the first half's last. */
static int halves_agree(const isolde_history *h, const isolde_history *h2)
{
    if (h->n_ops == 0 || h2->n_ops == 0) return 1;
    if (h->dense_index || h2->dense_index) return h->dense_index && h2->dense_index;
    return h2->ops[0].index > h->ops[h->n_ops - 1].index;
}

/* Read the halves of buf, cut at split, on two threads (0), or not at all
 * (-1: the word array cannot be reserved, or a half failed). */
static int parallel(isolde_history *h, const char *buf, size_t len, size_t split,
                    iso_lines_fn read_lines, isolde_error *err)
{
    size_t base = split + 64;
    if (iso_try_grow((void **)&h->store.words, &h->store.cap_words, len + 128, sizeof *h->store.words))
        return -1;
    size_t cap = h->store.cap_words;
    isolde_history *h2 = iso_history_new(h->name, h->format);
    h2->store.words = h->store.words; /* the second half appends from base */
    h2->store.n_words = base;
    h2->store.cap_words = cap;
    h2->drop_input = h->drop_input;
    h2->line_base = h->line_base;
    h2->index_fixed = h->index_fixed;
    h2->dense_index = h->dense_index;
    h2->index_base = SIZE_MAX; /* a given :index is checked by the sequential read */
    h->store.cap_words = base; /* never reached: see the bound above */
    struct halves x = {{{read_lines, h, buf, split, 0, {0}, 0},
                        {read_lines, h2, buf + split, len - split, 0, {0}, 0}}};
    iso_both(read_first, read_second, &x, 2);
    int ok = x.h[0].r == 0 && x.h[1].r == 0 && halves_agree(h, h2);
    if (ok) {
        if (h->n_ops == 0) h->dense_index = h2->dense_index;
        merge(h, h2, base, x.h[0].lines);
    }
    h->store.cap_words = cap;
    h2->store.words = NULL; /* h owns the array */
    isolde_history_free(h2);
    (void)err; /* a half's error is dropped: the sequential read finds it again */
    return ok ? 0 : -1;
}

int iso_read_split(isolde_history *h, const char *buf, size_t len, size_t min_len,
                   iso_lines_fn read_lines, isolde_error *err)
{
    size_t lines, split = len >= min_len && h->n_ops == 0 && h->store.n_words == 0
                              ? boundary(buf, len, len / 2) : 0;
    if (split && parallel(h, buf, len, split, read_lines, err) == 0) return 0;
    if (split) { /* read again on one thread, for the exact first error */
        h->n_ops = 0;
        h->store.n_words = 0;
        if (!h->index_fixed) h->dense_index = 0;
    }
    return read_lines(h, buf, len, &lines, err);
}
