/*
 * history/merge.c -- one history read separately (an append, the second
 * half of a two-thread read) moved to the end of another: its atoms
 * interned into the first's store, its composites copied after the
 * first's with their offsets shifted, its ops and :f / :error pairs after
 * the first's, its warnings counted in.
 *
 * Invariant: the copy never holds both whole: h2's words and ops are
 * given back (iso_drop_pages) a chunk at a time as they are copied, so a
 * merge costs memory for one chunk beyond the merged history, and h grows
 * to what the two hold (never to a bound guessed from the input's size).
 */
#include "history/history.h"

#define CHUNK ((size_t)1 << 17) /* items copied between two give-backs */

struct shift {
    const uint32_t *atom; /* h2's atom id -> h's; NULL when they are the same */
    size_t words;         /* h's words before h2's */
};

/* v of h2 as a value of h. */
static iso_val moved(iso_val v, const struct shift *s)
{
    unsigned t = iso_tag(v);
    if (t == ISO_TAG_SEQ) return iso_mk(ISO_TAG_SEQ, iso_payload(v) + s->words);
    return s->atom && t >= ISO_TAG_STR && t <= ISO_TAG_FORM ? iso_mk(t, s->atom[iso_payload(v)]) : v;
}

/* h2's atoms interned into h: the renumbering, or NULL when h2's ids are
 * h's already (both interned the same atoms in one order). */
static uint32_t *intern(isolde_history *h, const isolde_history *h2)
{
    const iso_store *s2 = &h2->store;
    uint32_t *atom = iso_xmalloc((s2->n_atoms + 1) * sizeof *atom);
    int same = 1;
    for (size_t id = 0; id < s2->n_atoms; id++) {
        const struct iso_atom *a = &s2->atoms[id];
        atom[id] = (uint32_t)iso_payload(iso_atom(&h->store, a->tag, s2->text + a->off, a->len));
        same &= atom[id] == id;
    }
    if (!same) return atom;
    iso_free(atom);
    return NULL;
}

/* h2's composites after h's: a header word as it is, its items moved. */
static void move_words(iso_store *s, iso_store *s2, const struct shift *sh)
{
    size_t n2 = s2->n_words, next = 0; /* the next header */
    iso_grow_exact((void **)&s->words, &s->cap_words, s->n_words + n2, sizeof *s->words);
    iso_val *to = s->words + s->n_words;
    const iso_val *w = s2->words;
    for (size_t lo = 0; lo < n2; lo += CHUNK) {
        size_t hi = n2 - lo > CHUNK ? lo + CHUNK : n2;
        for (size_t i = lo; i < hi; i++) {
            if (i != next) {
                to[i] = moved(w[i], sh);
                continue;
            }
            to[i] = w[i];
            next = i + (w[i] & 0xffffffffu) + 1;
        }
        iso_drop_pages(s2->words + lo, (hi - lo) * sizeof *w);
    }
    s->n_words += n2;
}

/* h2's :f / :error pairs after h's, then its ops, renumbered when the
 * history's indices are dense, their lines after h's first `lines`. */
static void move_ops(isolde_history *h, isolde_history *h2, const struct shift *sh, size_t lines)
{
    size_t e1 = h->n_extras, n1 = h->n_ops, n2 = h2->n_ops;
    iso_grow_exact((void **)&h->extras, &h->cap_extras, e1 + h2->n_extras, sizeof *h->extras);
    for (size_t i = 0; i < h2->n_extras; i++)
        h->extras[e1 + i] = (iso_op_extra){moved(h2->extras[i].f, sh), moved(h2->extras[i].error, sh)};
    h->n_extras = e1 + h2->n_extras;
    iso_grow_exact((void **)&h->ops, &h->cap_ops, n1 + n2, sizeof *h->ops);
    for (size_t lo = 0; lo < n2; lo += CHUNK) {
        size_t hi = n2 - lo > CHUNK ? lo + CHUNK : n2;
        for (size_t j = lo; j < hi; j++) {
            iso_op op = h2->ops[j];
            op.process = moved(op.process, sh);
            op.value = moved(op.value, sh);
            op.extra += (uint32_t)e1;
            op.line = iso_line_after(op.line, lines);
            if (h->dense_index) op.index = (int64_t)(n1 + j); /* readers that number ops themselves */
            h->ops[n1 + j] = op;
        }
        iso_drop_pages(h2->ops + lo, (hi - lo) * sizeof *h2->ops);
    }
    h->n_ops = n1 + n2;
}

void iso_history_merge(isolde_history *h, isolde_history *h2, size_t lines)
{
    uint32_t *atom = intern(h, h2);
    struct shift sh = {atom, h->store.n_words};
    move_words(&h->store, &h2->store, &sh);
    if (h2->n_ops && !h->n_ops) h->dense_index = h2->dense_index;
    move_ops(h, h2, &sh, lines);
    iso_history_warn_merge(h, h2, lines);
    h2->store.n_words = h2->n_ops = h2->n_extras = 0; /* its pages are gone */
    iso_free(atom);
}
