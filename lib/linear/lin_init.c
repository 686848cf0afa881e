/*
 * linear/lin_init.c -- the initial states of a check's partitions, from
 * --initial-value (the checker option initial-value) as Knossos's model
 * constructors take them: (cas-register 0), (multi-register {:x 0 :y 0}).
 *
 * The value is written as values are in the history (JSON for the JSON
 * formats, else EDN) and read into the input's own store. It names a value
 * id: the history's own when the history has an equal value (so a read of
 * it matches), else a new id after the history's (in->n_hist_values on).
 * For kv, multi-register and porcupine-kv a map gives each key its own;
 * keys the map lacks start at the default (nil; "" for porcupine-kv), and
 * keys the history lacks are ignored. Without the option, in->init stays
 * NULL and lin_state_init gives the models' defaults.
 */
#include <string.h>
#include "history/read_edn.h"
#include "history/read_json.h"
#include "linear/lin.h"

static int json_family(isolde_format f)
{
    return f == ISOLDE_FORMAT_JSON || f == ISOLDE_FORMAT_JSONL || f == ISOLDE_FORMAT_ISOCHECK ||
           f == ISOLDE_FORMAT_ONELITE;
}

#define OPT "--initial-value"

static int parse_value(struct lin_input *in, const isolde_history *h, const char *text,
                       iso_val *v, isolde_error *err)
{
    size_t len = strlen(text);
    if (json_family(h->format)) return iso_json_document(&in->own, OPT, text, len, v, err);
    iso_rd rd;
    iso_rd_init_store(&rd, &in->own, OPT, text, len, err);
    iso_edn_skip(&rd);
    int r = iso_edn_form(&rd, v);
    if (r == 0 || r == 2) r = iso_rd_unexpected(&rd, "a value");
    if (r == 1) {
        iso_edn_skip(&rd);
        r = iso_rd_eof(&rd) ? 0 : iso_rd_unexpected(&rd, "the end of the value");
    }
    iso_rd_release(&rd);
    return r;
}

/* a of store sa equals b of store sb. */
static int same_value(const iso_store *sa, iso_val a, const iso_store *sb, iso_val b)
{
    unsigned t = iso_tag(a);
    int seq = iso_is_seq(a); /* (stored or packed: alike) */
    if (seq != iso_is_seq(b) || (!seq && t != iso_tag(b))) return 0;
    if (t == ISO_TAG_INT || t == ISO_TAG_NIL || t == ISO_TAG_BOOL) return a == b;
    if (!seq) {
        size_t la, lb;
        const char *pa = iso_atom_text(sa, a, &la), *pb = iso_atom_text(sb, b, &lb);
        return la == lb && memcmp(pa, pb, la) == 0;
    }
    iso_buf x = {0}, y = {0};
    iso_val_edn(sa, a, &x);
    iso_val_edn(sb, b, &y);
    int same = x.n == y.n && memcmp(iso_buf_cstr(&x), iso_buf_cstr(&y), x.n) == 0;
    iso_buf_free(&x);
    iso_buf_free(&y);
    return same;
}

/* The id in tab (values of h's store) of v (of store src), or ISO_NONE:
 * integers by word, names through h's atom table, the rest by a scan. */
static uint32_t find_in(const isolde_history *h, const iso_keys *tab, const iso_store *src,
                        iso_val v)
{
    unsigned t = iso_tag(v);
    if (t == ISO_TAG_INT || t == ISO_TAG_NIL || t == ISO_TAG_BOOL) return iso_keys_find(tab, v);
    size_t len = 0;
    const char *p = iso_is_seq(v) ? NULL : iso_atom_text(src, v, &len);
    if ((t == ISO_TAG_KW || t == ISO_TAG_STR || t == ISO_TAG_SYM) && strlen(p) == len) {
        iso_name_atoms a;
        iso_name_atoms_find(&h->store, p, &a);
        iso_val hv = a.v[t == ISO_TAG_KW ? 0 : t == ISO_TAG_STR ? 1 : 2];
        return hv == ISO_NO_VAL ? ISO_NONE : iso_keys_find(tab, hv);
    }
    for (size_t i = 0; i < tab->n; i++)
        if (same_value(&h->store, tab->vals[i], src, v)) return (uint32_t)i;
    return ISO_NONE;
}

struct init {
    struct lin_input *in;
    const isolde_history *h;
    const iso_keys *values, *keys;
    iso_val *own;              /* values the history lacks, ids n_hist_values on */
    size_t n_own, cap_own;
    uint32_t *slot;            /* per partition (multi-register: per key): a value id */
    uint32_t n_slots;
};

/* The value id of v (of the input's own store). */
static uint32_t import(struct init *it, iso_val v)
{
    uint32_t id = find_in(it->h, it->values, &it->in->own, v);
    if (id != ISO_NONE) return id;
    for (size_t i = 0; i < it->n_own; i++)
        if (iso_val_eq(&it->in->own, it->own[i], v)) return it->in->n_hist_values + (uint32_t)i;
    ISO_PUSH(it->own, it->n_own, it->cap_own, v);
    return it->in->n_hist_values + (uint32_t)(it->n_own - 1);
}

/* Every slot's value from v: per key when v is a map and keys matter. */
static void fill_slots(struct init *it, iso_val v, uint32_t dflt)
{
    const iso_store *s = &it->in->own;
    int per_key = it->keys && iso_is_seq(v) && iso_seq_kind(s, v) == ISO_SEQ_MAP;
    uint32_t all = per_key ? dflt : import(it, v);
    for (uint32_t i = 0; i < it->n_slots; i++) it->slot[i] = all;
    if (!per_key) return;
    const iso_val *kv = iso_seq_words(s, v); /* a map: stored */
    for (size_t i = 0; i + 1 < iso_seq_len(s, v); i += 2) {
        uint32_t k = find_in(it->h, it->keys, s, kv[i]);
        if (k != ISO_NONE && k < it->n_slots) it->slot[k] = import(it, kv[i + 1]);
    }
}

/* The value a value id names, of whichever store holds it. */
static iso_val value_of(const struct init *it, uint32_t id, const iso_store **s)
{
    *s = id < it->in->n_hist_values ? &it->h->store : &it->in->own;
    return id < it->in->n_hist_values ? it->values->vals[id] : it->own[id - it->in->n_hist_values];
}

/* Porcupine-kv states: [bytes, text record] ([0] for ""); 0 or -1. */
static int text_states(struct init *it, isolde_error *err)
{
    struct lin_input *in = it->in;
    uint32_t last_id = ISO_NONE, last_rec = 0;
    for (uint32_t p = 0; p < in->n_parts; p++) {
        const iso_store *s = &in->own;
        size_t len = 0;
        iso_val v = it->slot[p] == ISO_NONE ? ISO_NIL : value_of(it, it->slot[p], &s);
        const char *text = iso_tag(v) == ISO_TAG_STR ? iso_atom_text(s, v, &len) : NULL;
        if (!text && it->slot[p] != ISO_NONE)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                            OPT " for porcupine-kv must be a string, or a map of them");
        if (it->slot[p] != last_id && len) {
            last_rec = lin_text_record(in, text, len);
            last_id = it->slot[p];
        }
        in->text_bytes += len;
        in->init_off[p + 1] = in->init_off[p] + (len ? 2 : 1);
        in->init[in->init_off[p]] = (uint32_t)len;
        if (len) in->init[in->init_off[p] + 1] = last_rec;
    }
    return 0;
}

/* Lay the slots out as initial states. */
static int states(struct init *it, isolde_error *err)
{
    struct lin_input *in = it->in;
    int multi = in->model->workload == ISOLDE_WORKLOAD_MULTI_REGISTER;
    in->init_off = iso_xcalloc((size_t)in->n_parts + 1, sizeof *in->init_off);
    in->init = iso_xcalloc(2 * (size_t)in->n_parts + it->n_slots + 1, sizeof *in->init);
    if (in->model->workload == ISOLDE_WORKLOAD_PORCUPINE_KV) return text_states(it, err);
    for (uint32_t p = 0; p < in->n_parts; p++) {
        uint32_t n = multi ? it->n_slots : 1;
        in->init_off[p + 1] = in->init_off[p] + n;
        memcpy(in->init + in->init_off[p], it->slot + (multi ? 0 : p), (size_t)n * sizeof *in->init);
    }
    return 0;
}

static int register_model(isolde_workload w)
{
    return w == ISOLDE_WORKLOAD_REGISTER || w == ISOLDE_WORKLOAD_CAS_REGISTER ||
           w == ISOLDE_WORKLOAD_KV || w == ISOLDE_WORKLOAD_MULTI_REGISTER ||
           w == ISOLDE_WORKLOAD_PORCUPINE_KV;
}

static int from_option(struct init *it, const char *text, isolde_error *err)
{
    struct lin_input *in = it->in;
    isolde_workload w = in->model->workload;
    iso_val v;
    if (!register_model(w))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, OPT " is for the register models "
                        "(register, cas-register, kv, multi-register, porcupine-kv), not %s",
                        in->model->name);
    if (parse_value(in, it->h, text, &v, err) != 0) return -1;
    int multi = w == ISOLDE_WORKLOAD_MULTI_REGISTER;
    it->n_slots = multi ? (uint32_t)it->keys->n : in->n_parts;
    if (w != ISOLDE_WORKLOAD_KV && w != ISOLDE_WORKLOAD_PORCUPINE_KV && !multi) it->keys = NULL;
    it->slot = iso_xcalloc((size_t)it->n_slots + 1, sizeof *it->slot);
    fill_slots(it, v, w == ISOLDE_WORKLOAD_PORCUPINE_KV ? ISO_NONE : LIN_NIL);
    return states(it, err);
}

int lin_init_build(struct lin_input *in, const isolde_history *h, const char *initial, iso_keys *values,
                   const iso_keys *keys, isolde_error *err)
{
    struct init it = {.in = in, .h = h, .values = values, .keys = keys};
    in->n_values = in->n_hist_values = (uint32_t)values->n;
    int rc = initial ? from_option(&it, initial, err) : 0;
    /* the history's values, then the ones only the option has */
    in->values = values->vals;
    values->vals = NULL;
    in->values = iso_xrealloc(in->values, (in->n_values + it.n_own + 1) * sizeof *in->values);
    if (it.n_own) memcpy(in->values + in->n_values, it.own, it.n_own * sizeof *it.own);
    in->n_values += (uint32_t)it.n_own;
    iso_free(it.own);
    iso_free(it.slot);
    if (rc == 0 && in->text_bytes > UINT32_MAX)
        rc = iso_fail(err, ISOLDE_ERR_LIMIT, h->name, 0, 0,
                      "porcupine-kv strings longer than 4 GiB in all are not supported");
    return rc;
}
