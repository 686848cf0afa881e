/*
 * elle/list_append/list_append_int.h -- the list-append workload: its
 * checker's ops (iso_list_append_ops) and the state its files share:
 * list_append.c (indexes, version orders, edges, explanations), appends.c
 * (the index of appends) and anomalies.c (anomalies found without cycles).
 *
 * Elle's list-append, exactly (elle.md 2-3; Elle's list_append.clj):
 * history+ = ok and info completions. Each key's version order is the
 * longest read of it (distinct elements), every read must be a prefix of
 * it, and a key with exactly one append in history+ has order [x]. A read
 * is a reader of the version its last element (or the initial state)
 * names; an append follows the element before it in the order, or, if
 * never read, the last observed element.
 */
#ifndef ISO_LIST_APPEND_INT_H
#define ISO_LIST_APPEND_INT_H

#include "elle/list_append/list_append.h"
#include "elle/elle.h"
#include "core/keys.h"
#include "elle/render.h"

enum la_mop { LA_APPEND = 1, LA_READ = 2 };

/* One appended (key, value): who wrote it and where it sits, in 16 bytes
 * (a 22M-transaction history has 27M of them). The value is an integer
 * 0 .. LA_SMALL-1 itself, or else one of la_state.vals (la_value). */
typedef struct la_append {
    uint32_t key;
    uint32_t txn;     /* writer transaction */
    uint32_t pos;     /* index in the key's version order, ISO_NONE if unread */
    uint32_t type : 2;         /* writer's ISO_OP_* (INFO also for never completed) */
    uint32_t intermediate : 1; /* writer appended to this key again later */
    uint32_t in_vals : 1;      /* value is vals[value], else the integer value */
    uint32_t value : 28;
} la_append;
#define LA_SMALL ((int64_t)1 << 28)

/* Per key: the version order and the readers of each version. The state
 * holds values (offsets into the store), never pointers into it: the
 * store may move when the history grows after the check. */
typedef struct la_key {
    iso_val order_v;      /* the longest read (a list in the store), or nil */
    iso_val *copy;        /* the version order deduplicated, when it had to be */
    uint32_t len;
    uint8_t incompatible; /* two reads are not prefix-compatible */
    uint8_t single_only;  /* order came from the key's only append */
    uint8_t has_fail;     /* a failed transaction appended to this key */
    uint8_t runs_checked; /* the order's runs of one writer were checked (anomalies.c) */
    uint32_t clean;       /* order[0..clean) were appended by ok/info txns */
    /* Elle's dirty-update orders over all client ops, failed ones too: */
    iso_val full_v;       /* longest read by any completed txn, or nil */
    uint32_t full_len;
    uint32_t appends_ops; /* append micro-ops in invocations and completions */
    uint32_t last_ap;     /* the key's last append (index into ap) */
    uint32_t appends_plus;/* appends in ok/info txns */
    iso_val single;       /* the value when appends_plus == 1 */
    uint32_t slot0;       /* readers of version i (0 = initial) live in */
                          /* readers[rd_off[slot0 + i] .. rd_off[slot0+i+1]) */
    uint32_t dense_off, dense_len; /* dense[dense_off + v - dense_min]: */
    int64_t dense_min;    /* the append of integer v (dense_len 0: hashed) */
} la_key;

/* A committed txn's first read of a key it then appends to (lost-update). */
typedef struct la_lu {
    uint32_t key, txn;
    iso_val value;
    uint64_t hash;
} la_lu;

/* Findings kept for rendering when a report shows them (anomalies.c):
 * an element a read should not have seen (G1a, garbage-read, G1b: the
 * reader, the element's writer or ISO_NONE, the read micro-op and the
 * element's index in the read; incompatible-order: the element out of its
 * writer's order), and a lost-update group (key, value read, its
 * transactions in la_state.pend_txns). */
typedef struct la_rdf { uint32_t reader, writer; size_t at; iso_val mop; } la_rdf;
typedef struct la_lost { uint32_t key, txns, n; iso_val value; } la_lost;
/* A duplicate-elements read (reader, the read micro-op, its duplicated
 * elements and their counts in la_state.dups), and a dirty update (key,
 * the failed and the committed writer, the versions between them in
 * la_state.du_vals). */
typedef struct la_dup { iso_val v; size_t count; } la_dup;
typedef struct la_dups { uint32_t reader; size_t at, n; iso_val mop; } la_dups;
typedef struct la_dirty { uint32_t key, t1, t2; size_t at, n; } la_dirty;

/* Scratch of the checks within one transaction (anomalies.c, one thread):
 * each micro-op's key id << 1 | 1 for an append, and per key id a stamp
 * (== epoch: touched in the current pass) and a slot the pass gives. */
typedef struct la_scratch {
    uint32_t *mop;
    size_t cap_mop;
    uint32_t *stamp, *slot;
    uint32_t epoch;
} la_scratch;

typedef struct la_state {
    iso_keys keys;        /* key iso_val -> dense id */
    iso_name_atoms append_name, read_name; /* "append" and "r" */
    la_key *k;            /* per key id, n_k of them (room for cap_k) */
    size_t n_k, cap_k;
    la_append *ap;        /* every append, in txn order */
    size_t n_ap, cap_ap;
    iso_val *vals;        /* appended values not in 0 .. LA_SMALL-1 */
    size_t n_vals, cap_vals;
    uint32_t *dense;      /* per-key tables of ap index + 1 (appends.c) */
    uint32_t *ap_slots;   /* open addressing over other keys' appends */
    size_t n_ap_slots;
    uint32_t *rd_off;     /* reader CSR over all keys' version slots */
    uint32_t *rd;
    uint32_t *at;         /* at[slot0 + i]: append (index into ap) of order[i] */
    size_t n_slots;
    la_lu *lu;            /* lost-update candidates */
    size_t n_lu, cap_lu;
    uint32_t *mark;       /* pass 1: per key, txn + 1 of its last append */
    size_t n_mark;
    struct la_kstate *ks; /* scratch for internal-consistency checks */
    size_t ks_cap;
    la_scratch sc;        /* scratch of la_txn_anomalies */
    la_rdf *rdf;          /* pending findings */
    size_t n_rdf, cap_rdf;
    la_lost *lost;
    size_t n_lost, cap_lost;
    uint32_t *pend_txns;
    size_t n_pend_txns, cap_pend_txns;
    la_dups *dupr;
    size_t n_dupr, cap_dupr;
    la_dup *dups;
    size_t n_dups, cap_dups;
    la_dirty *dirty;
    size_t n_dirty, cap_dirty;
    iso_val *du_vals;
    size_t n_du_vals, cap_du_vals;
} la_state;

static inline iso_val la_value(const la_state *st, const la_append *a)
{
    return a->in_vals ? st->vals[a->value] : iso_int(a->value);
}

/* Micro-op access on a transaction's value. */
int la_mop_kind(const la_state *st, iso_val mop);
static inline iso_val mop_key(const iso_store *s, iso_val mop) { return iso_seq_item(s, mop, 1); }
static inline iso_val mop_val(const iso_store *s, iso_val mop)
{
    return iso_seq_len(s, mop) == 3 ? iso_seq_item(s, mop, 2) : ISO_NIL;
}
/* appends.c: index st->ap[0..n_ap) by (key, value); -1, or the index
 * of the first append that repeats an earlier one. */
long la_index_appends(la_state *st);
/* The append record of (key, value), or NULL. */
const la_append *la_find(const la_state *st, uint32_t key, iso_val v);
/* Items and length of a read's list value (nil = empty), or of an op's
 * value: stored composites (a packed micro-op is neither, history/mop.h). */
const iso_val *la_read_items(const iso_store *s, iso_val v, size_t *n);
/* The transaction's op value as a micro-op vector. */
const iso_val *la_txn_mops(const iso_proof_ctx *pc, uint32_t txn, size_t *n);
/* Previously appended element of (key, value) for ww/rw: 1 and *prev set
 * when an element precedes it; 0 for the initial state. */
int la_prev_element(const la_state *st, uint32_t key, iso_val v, iso_val *prev);

/* anomalies.c */
/* An ok txn on its own: internal, future-read, lost-update candidates. */
void la_txn_anomalies(iso_ctx *ctx, la_state *st, uint32_t t, const iso_val *m, size_t n);
/* One read of an ok or info txn, ending with append `last` (or NULL):
 * G1a, G1b, garbage-read (ok only), duplicate-elements. */
void la_read_anomalies(iso_ctx *ctx, la_state *st, uint32_t t, iso_val mop, uint32_t key,
                       const iso_val *items, size_t n, const la_append *last, int ok);
/* Per key, once orders are known: incompatible-order, dirty-update, and
 * the lost-update groups. */
void la_key_anomalies(iso_ctx *ctx, la_state *st);
void la_anomalies_free(la_state *st);
/* fractured.c: read atomic's fractured reads, one per ok reader, when
 * the check reports them (orders known); fractured (NULL, or one byte per
 * txn) marks the readers. */
void la_fractured_reads(iso_ctx *ctx, const la_state *st, uint8_t *fractured);
/* A transaction's reads, one pass each (fractured.c): per key the stamp
 * of the pass that saw its shortest state (a read's items before the
 * transaction's own appends to the key, which it must end in), the read's
 * micro-op and that state's length; own_ep / own_n: the transaction's
 * appends to the key so far; seen_ep: per txn, free for the caller. */
typedef struct la_scan {
    uint32_t ep;
    uint32_t *read_ep, *read_j, *read_len, *own_ep, *own_n, *seen_ep;
} la_scan;
void la_scan_init(la_scan *sc, const la_state *st, size_t n_txns);
void la_scan_free(la_scan *sc);
/* A new pass over micro-ops m[0..n) of transaction t. */
void la_scan_txn(const la_state *st, const iso_store *s, la_scan *sc, uint32_t t, const iso_val *m, size_t n);
/* The same, lens (NULL, or room for n) receiving each micro-op's state
 * length: a read's length before t's own appends to its key, -1 where it
 * does not end in them or is no read of a known key. */
void la_scan_lens(const la_state *st, const iso_store *s, la_scan *sc, uint32_t t, const iso_val *m, size_t n,
                  long *lens);
/* Biswas and Enea's read committed beyond monotonic atomic view: INT and
 * the cycles through session order of the commit order it forces
 * (rc_be.c). */
void la_rc_be(iso_ctx *ctx, const la_state *st);
/* The first append (index into st->ap) of transaction w, or n_ap; whether
 * st->ap[i] is its writer's first append to its key (the writer's appends
 * start at lo). */
size_t la_first_append(const la_state *st, uint32_t w);
/* The index of txn's first micro-op of kind (LA_APPEND, LA_READ) to key
 * with value v (match_last 0), whose read ends with v (1), or that reads
 * nothing (2); -1 when there is none. */
long la_mop_index(const iso_proof_ctx *pc, uint32_t txn, int kind, uint32_t key, iso_val v, int match_last);
int la_first_to_key(const la_state *st, size_t lo, size_t i);
/* Whether a read (items[0..n)) of a's key holds a's element. */
int la_read_holds(const la_state *st, const la_append *a, const iso_val *items, size_t n);
/* causal.c: causality violations under causal-cerone (observation,
 * transitively) and causal (and session order), one per ok reader not
 * marked fractured, and cycles of those with session order. */
void la_causality(iso_ctx *ctx, const la_state *st, const uint8_t *fractured);
/* Every read of key is a prefix of its version order, element for element. */
static inline int la_trusted(const la_key *k)
{
    return !k->incompatible && !k->copy && !k->single_only;
}

/* Every read of key is a prefix of its version order or of its only
 * append (so an append is in a read when its position is below the
 * read's length). */
static inline int la_positional(const la_key *k)
{
    return !k->incompatible && !k->copy;
}

/* The key's version order, len items (valid until the store grows). */
static inline const iso_val *la_order(const la_state *st, const la_key *k)
{
    if (k->copy) return k->copy;
    if (k->single_only) return &k->single;
    return iso_is_seq(k->order_v) ? iso_seq_words(st->keys.store, k->order_v) : NULL;
}

/* The appends no read shows (ok ones, and :info ones with with_info),
 * grouped by key: key k's are un[off[k] .. off[k + 1]) (indices into
 * st->ap), one a transaction (its last to the key), in transaction order.
 * Both arrays are new; *off has keys + 1 entries. */
uint32_t *la_unread_by_key(const la_state *st, int with_info, uint32_t **off);
/* exact.c: the hook iso_ctx.exact names (serializable, SI and parallel SI
 * decided over the orders of appends no read shows). */
void la_exact(iso_ctx *ctx, const iso_graph *g, uint8_t extra);

#endif
