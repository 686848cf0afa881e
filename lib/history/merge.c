/*
 * history/merge.c -- one history read separately (an append, a part of a
 * two-thread read) copied to the end of another: its atoms interned into
 * the first's store, its composites after the first's with their offsets
 * shifted, its processes interned into the first's, its ops and :f /
 * :error pairs after the first's. A packed
 * micro-op keeps its name (the fixed atoms every history starts with) and
 * its read list moves with the words; one whose list moved past what a
 * packed micro-op holds is stored as a vector of three instead.
 *
 * Invariant: the copy leaves h2 as it was, so a reader can reuse h2's
 * memory for its next part (whose pages are then resident already), and h
 * grows geometrically to what the parts hold, never to a bound guessed
 * from the input's size.
 */
#include "history/history.h"

struct shift {
    const uint32_t *atom; /* h2's atom id -> h's; NULL when they are the same */
    size_t words;         /* h's words before h2's */
    iso_store *to;        /* h's store */
    const iso_store *from;
};

/* An atom or stored composite of h2 as a value of h. */
static iso_val moved_item(iso_val v, const struct shift *s)
{
    unsigned t = iso_tag(v);
    if (t == ISO_TAG_SEQ) return iso_mk(ISO_TAG_SEQ, iso_payload(v) + s->words);
    return s->atom && t >= ISO_TAG_STR && t <= ISO_TAG_FORM ? iso_mk(t, s->atom[iso_payload(v)]) : v;
}

/* A packed micro-op of h2 as a value of h: its name is one of the atoms
 * both histories start with (the same ids), so only a list's offset moves;
 * one past what h's packed micro-ops hold is stored as a vector. */
static iso_val moved_mop(iso_val v, const struct shift *s)
{
    if (!iso_mop_has_list(v)) return v;
    iso_val it[3], m;
    iso_mop_unpack(s->from, v, it);
    it[2] = moved_item(it[2], s);
    return iso_mop_pack(s->to, it, &m) ? m : iso_seq(s->to, ISO_SEQ_VEC, it, 3);
}

/* v of h2 as a value of h. */
static inline iso_val moved(iso_val v, const struct shift *s)
{
    return iso_tag(v) == ISO_TAG_MOP ? moved_mop(v, s) : moved_item(v, s);
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

/* h2's composites after h's: a header word as it is, its items moved
 * (a micro-op stored instead of packed goes after them all). */
static void copy_words(iso_store *s, const iso_store *s2, const struct shift *sh)
{
    size_t n2 = s2->n_words, next = 0, base = s->n_words; /* the next header */
    if (!n2) return; /* (s->words may be NULL: no NULL + 0) */
    ISO_GROW(s->words, s->cap_words, base + n2);
    s->n_words += n2;
    const iso_val *w = s2->words;
    for (size_t i = 0; i < n2; i++) {
        if (i != next) {
            iso_val v = moved(w[i], sh); /* (may grow s->words) */
            s->words[base + i] = v;
            continue;
        }
        s->words[base + i] = w[i];
        next = i + (w[i] & 0xffffffffu) + 1;
    }
}

/* h2's process ids -> h's, its values interned into h (after its words):
 * the new ones into a copy of h's table that takes its place (kept with
 * h's memory) once it is whole, so that memory running out leaves h's
 * table as it was, not pointing at blocks the unwinding freed. */
static uint32_t *processes(isolde_history *h, const isolde_history *h2, const struct shift *sh)
{
    uint32_t *id = iso_xmalloc((h2->procs.n + 1) * sizeof *id);
    size_t i = 0;
    for (; i < h2->procs.n && (id[i] = iso_keys_find(&h->procs, moved(h2->procs.vals[i], sh))) != ISO_NONE; i++) {}
    if (i == h2->procs.n) return id;
    iso_keys procs;
    iso_keys_copy(&h->procs, &procs);
    for (; i < h2->procs.n; i++) id[i] = iso_keys_intern(&procs, moved(h2->procs.vals[i], sh));
    iso_keys_free(&h->procs);
    iso_keys_adopt(&procs, h);
    h->procs = procs;
    return id;
}

/* h2's :f / :error pairs after h's, then its ops, renumbered when the
 * history's indices are dense, their lines after h's first `lines`. */
static void copy_ops(isolde_history *h, const isolde_history *h2, const struct shift *sh, size_t lines)
{
    size_t e1 = h->n_extras, n1 = h->n_ops, n2 = h2->n_ops;
    ISO_GROW(h->extras, h->cap_extras, e1 + h2->n_extras);
    for (size_t i = 0; i < h2->n_extras; i++)
        h->extras[e1 + i] = (iso_op_extra){moved(h2->extras[i].f, sh), moved(h2->extras[i].error, sh)};
    h->n_extras = e1 + h2->n_extras;
    uint32_t *process = processes(h, h2, sh);
    ISO_GROW(h->ops, h->cap_ops, n1 + n2);
    for (size_t j = 0; j < n2; j++) {
        iso_op op = h2->ops[j];
        op.process = process[op.process];
        op.value = moved(op.value, sh);
        op.extra += (uint32_t)e1; /* extras <= ops <= ISO_MAX_OPS: it fits */
        op.line = iso_line_after(op.line, lines);
        if (h->dense_index) op.index = (int64_t)(n1 + j); /* readers that number ops themselves */
        h->ops[n1 + j] = op;
    }
    h->n_ops = n1 + n2;
    iso_free(process);
}

int iso_history_merge(isolde_history *h, const isolde_history *h2, size_t lines)
{
    if (h->n_ops + h2->n_ops > ISO_MAX_OPS) return -1;
    uint32_t *atom = intern(h, h2);
    struct shift sh = {atom, h->store.n_words, &h->store, &h2->store};
    copy_words(&h->store, &h2->store, &sh);
    if (h2->n_ops && !h->n_ops) h->dense_index = h2->dense_index;
    copy_ops(h, h2, &sh, lines);
    iso_free(atom);
    return 0;
}
