/*
 * linear/lin.h -- internal interface of the linearizability checker.
 *
 * Data flow: lin_ops.c turns a history into lin_ops (one per invocation
 * that may have taken effect), grouped into partitions (one per key for
 * kv, else one) in invocation order; lin_check.c checks the partitions in
 * parallel threads; lin_split.c cuts each partition at quiescent points
 * and carries the possible model states across the cuts; lin_search.c runs
 * the Wing-Gong-Lowe search over one segment with a memo (lin_memo.c) of
 * (linearized set, model state) and early dead ends (lin_prune.c), or
 * none for a segment of blind writes alone (lin_writes.c);
 * lin_models.c holds the models' steps; lin_init.c the initial states
 * (--initial-value); lin_report.c builds the witness of a non-linearizable
 * partition and lin_write.c writes it: text, JSON, its fields of the
 * HTML page, its file of a directory, the witnesses one by one.
 *
 * Values are interned into dense 32-bit ids (nil is id 0), so a register's
 * state is one word. A model state is a short array of words: one for
 * register, cas-register and mutex; the queued values for a fifo queue; a
 * bitset over value ids for a set; one value id per key for a
 * multi-register; for porcupine-kv the string's length and its pieces (the
 * put and the appends since, as offsets of their text in lin_input.aux).
 */
#ifndef ISO_LIN_H
#define ISO_LIN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "linear/linear.h"
#include "core/keys.h"
#include "history/history.h"

#define LIN_ANY UINT32_MAX       /* an unknown value: matches anything */
#define LIN_NEVER UINT64_MAX     /* return position of an indeterminate op */
#define LIN_NIL 0u               /* value id of nil */

enum lin_kind {
    LIN_READ, LIN_WRITE, LIN_CAS, LIN_ACQUIRE, LIN_RELEASE,
    LIN_ENQUEUE, LIN_DEQUEUE, LIN_ADD, LIN_READ_SET, LIN_TXN, LIN_APPEND
};

enum lin_op_flags {
    LIN_INDET = 1 << 0,     /* info or never completed: may never happen */
    LIN_CAS_FALSE = 1 << 1, /* a failed CAS that returned false */
    LIN_PURE = 1 << 2       /* a transaction that only reads: changes no state */
};

/* A multi-register micro-op in lin_input.aux: two words, the key id
 * shifted left by one with LIN_MOP_WRITE for a write, then the value id
 * (LIN_ANY: a read whose value is unknown). */
#define LIN_MOP_WRITE 1u

/* One operation that may have taken effect. a, b are value ids (cas: old,
 * new); for LIN_READ_SET, a is an offset into lin_input.aux and b a count
 * of words (a bitset over value ids); for LIN_TXN, a is the offset of its
 * micro-ops in aux and b their count; for porcupine-kv ops, a is the
 * value id and b the offset in aux of its text ([bytes, then the bytes
 * packed into words]). */
struct lin_op {
    uint64_t call, ret;    /* positions in history order; ret = LIN_NEVER if indet */
    uint32_t a, b;
    uint32_t inv, cmp;     /* indices into h->ops of invoke / completion (ISO_NONE) */
    uint8_t kind, flags;
};

/* The search's view of a model. */
struct lin_model {
    const char *name;
    isolde_workload workload;
    /* Apply op to st[0..*n) in place; 1 if legal. aux: lin_input.aux. */
    int (*step)(uint32_t *st, uint32_t *n, const struct lin_op *op,
                const uint32_t *aux);
    int blind_write;  /* a LIN_WRITE sets the one-word state to its value,
                         whatever it was (lin_writes.c) */
};

const struct lin_model *lin_model_for(isolde_workload w);
struct lin_input;
/* Words a state may need while these ops of a partition run. */
uint32_t lin_state_cap(const struct lin_input *in, const uint32_t *ids, uint32_t n);
/* Words of partition part's initial state (at most lin_init_cap(in)). */
uint32_t lin_state_init(const struct lin_input *in, uint32_t part, uint32_t *st);
uint32_t lin_init_cap(const struct lin_input *in);
/* Words of a set-model state (and of each READ_SET bitset). */
uint32_t lin_set_width(uint32_t n_values);
/* The string a text state st[0..n) spells (st[0] its length in bytes,
 * then aux offsets of its pieces) is a prefix of text record want
 * ([bytes, packed bytes]) in aux. */
int lin_text_prefix(const uint32_t *st, uint32_t n, const uint32_t *want, const uint32_t *aux);

/* How a report names ops: by :index when the file has them, else by line
 * (and column, when ops share lines: a one-line JSON array). */
enum lin_naming { LIN_BY_INDEX, LIN_BY_LINE, LIN_BY_LINE_COL };

/* Everything the search needs, built from a history (lin_ops.c) or by
 * hand in tests. parts[p] lists op ids in call order. */
struct lin_input {
    const struct lin_model *model;
    struct lin_op *ops;
    size_t n_ops, cap_ops;
    uint32_t *aux;              /* READ_SET bitsets, TXN micro-ops, text records */
    size_t n_aux, cap_aux;
    uint64_t text_bytes;        /* porcupine-kv: bytes of every text record */
    uint32_t n_values;          /* distinct value ids (nil included) */
    iso_val *values;            /* id -> value (for reports); may be NULL */
    uint32_t n_hist_values;     /* ids below are values of the history's store, */
    iso_store own;              /* the others (initial values it lacks) of this one */
    uint32_t *part_off;         /* n_parts + 1 offsets into part_ops */
    uint32_t *part_ops;
    uint32_t n_parts;
    iso_val *part_key;          /* kv: the key of each partition, else NULL */
    iso_val *reg_key;           /* multi-register: key id -> key (n_keys) */
    uint32_t n_keys;
    /* Initial states, words init[init_off[p] .. init_off[p + 1]) for
     * partition p; NULL: the model's default (nil, free, empty). */
    uint32_t *init, *init_off;
};

int lin_input_build(struct lin_input *in, const isolde_history *h, const iso_checker_opts *co,
                    isolde_workload w, isolde_error *err);
/* The initial states of in's partitions from initial (--initial-value;
 * NULL: the models' defaults). in->values becomes values' table, and the
 * initial values the history lacks are added after its own (lin_init.c);
 * keys are the kv partitions' or multi-register's keys. */
int lin_init_build(struct lin_input *in, const isolde_history *h, const char *initial, iso_keys *values,
                   const iso_keys *keys, isolde_error *err);
/* Append a porcupine-kv text record to in->aux; its offset. */
uint32_t lin_text_record(struct lin_input *in, const char *p, size_t len);
/* How a report on h names ops (lin_ops.c). */
enum lin_naming lin_naming_of(const isolde_history *h);
/* The store a value id's value lives in. */
static inline const iso_store *lin_value_store(const struct lin_input *in, const isolde_history *h,
                                               uint32_t id)
{
    return id < in->n_hist_values ? &h->store : &in->own;
}
/* Group ops into n_parts partitions given part[i] for each op. */
void lin_input_partition(struct lin_input *in, const uint32_t *part, uint32_t n_parts);
void lin_input_release(struct lin_input *in);

/* A set of word tuples (memo entries, model states), open addressing. */
struct lin_set {
    uint64_t *slots;    /* (hash high bits << 40) | (offset + 1), 0 = empty */
    size_t n_slots, n;
    uint32_t *words;    /* entries: [len, words...] */
    size_t n_words, cap_words;
};
void lin_set_clear(struct lin_set *s);
void lin_set_release(struct lin_set *s);
/* Insert w[0..n); 1 if new, 0 if present. */
int lin_set_add(struct lin_set *s, const uint32_t *w, uint32_t n);
size_t lin_set_bytes(const struct lin_set *s);

enum lin_outcome { LIN_OK, LIN_FAIL, LIN_TIMEOUT, LIN_NOMEM };
/* FIRST: stop at the first linearization; ALL: collect every end state;
 * TARGET: stop at a linearization that ends in the one state in `to`,
 * leaving it on the stack (stack[0..n_stack), from the state at offset
 * found_from of from). */
enum lin_mode { LIN_FIRST, LIN_ALL, LIN_TARGET };

/* Per-thread search state, reused across segments. */
struct lin_search {
    const struct lin_input *in;
    double deadline;             /* iso_now() limit; 0 = none */
    size_t mem_limit;            /* memo bytes before giving up */
    struct lin_set memo;
    uint32_t *next, *prev;       /* event list: node i = call of op i, n + i = return */
    uint64_t *bits;              /* linearized set, by local op id */
    uint32_t *stack;             /* linearized ops (local ids) */
    size_t *stack_st;            /* offset in st_words of the state before each */
    uint8_t *stack_how;          /* how each was chosen (lin_search.c), for backtracking */
    uint32_t *st_words;          /* saved states */
    size_t n_stack, cap_stack, n_st_words, cap_st_words;
    uint32_t *st, st_n, st_cap;  /* current state */
    uint64_t *prod;              /* register producers: value << 32 | local id, sorted */
    size_t n_prod, cap_prod;
    uint32_t *key;               /* memo key scratch */
    size_t cap_key, cap_n, cap_bits, cap_nodes;
    /* deepest linearization seen in the current segment (the witness) */
    uint32_t *best, n_best, best_common;
    size_t best_from;            /* offset in from of the state it started at */
    uint32_t p, m;               /* first op not linearized; 1 + last linearized */
    uint32_t culprit;            /* a read found dead, while backjumping; else UINT32_MAX */
    size_t found_from;           /* LIN_TARGET: offset in from of the state it started at */
    uint8_t prune;               /* the model's dead-end test (lin_prune.c) */
    const uint32_t *ids;         /* segment: local id -> op id */
    uint32_t n;                  /* ops in the segment */
    unsigned long steps;
};

void lin_search_init(struct lin_search *s, const struct lin_input *in);
void lin_search_release(struct lin_search *s);
/* Search ops ids[0..n) (call order) from each state in from. LIN_ALL
 * collects every reachable final state into to; LIN_FIRST stops at the
 * first, adding its final state to to. On LIN_FAIL, s->best[0..n_best) (local ids) is the longest
 * linearizable prefix found, from the state at offset best_from in from. */
enum lin_outcome lin_search_run(struct lin_search *s, const uint32_t *ids, uint32_t n,
                                const struct lin_set *from, enum lin_mode mode,
                                struct lin_set *to);

/* lin_writes.c: when ids[0..n) are writes alone on a blind-write model,
 * do lin_search_run's job without a search (*res its outcome) and return
 * 1; else return 0. */
int lin_writes_run(struct lin_search *s, const uint32_t *ids, uint32_t n, const struct lin_set *from,
                   enum lin_mode mode, struct lin_set *to, enum lin_outcome *res);

/* Register models and porcupine-kv: build the segment's producer index
 * (lin_prune.c); is free op x (local id) a read, CAS or get that can no
 * longer be satisfied? */
enum { LIN_PRUNE_NONE, LIN_PRUNE_REGISTER, LIN_PRUNE_TEXT };
void lin_prune_prepare(struct lin_search *s);
int lin_prune_dead(const struct lin_search *s, uint32_t x);

/* Iteration over a set's tuples (s->words[off] = length, then the words):
 * start at off = 0 when s->n > 0; returns the next offset or SIZE_MAX. */
size_t lin_set_next(const struct lin_set *s, size_t off);

/* Where an op's invocation or completion is in the file. */
struct lin_pos {
    int64_t index;                     /* :index; -1 for none */
    uint32_t line, col;                /* 0 for none */
};

/* One op of a witness, rendered so the report outlives the history. */
struct lin_wop {
    int64_t process;
    struct lin_pos call, ret;          /* ret.line 0: never completed */
    int64_t call_time, ret_time;       /* ns; -1 when absent */
    struct lin_pos point;              /* linearized after the latest call so far */
    int ret_type;                      /* ISO_OP_OK / FAIL / INFO; -1 never completed */
    char *f, *value_edn, *value_json;  /* f without colon; value NULL for acquire / release */
    char *note;                        /* what a failed cas means, or NULL */
    char *why;                         /* stuck ops: why it could not go next */
    char *state_before, *state_after;  /* the model's state around it, as text
                                          (lin_state_text); NULL past LIN_SHOWN_OPS */
    int indet;
};

/* Ops of a prefix given their states (the last ones, nearest the failure),
 * and the most of it a page embeds; the bytes of a state's text before it
 * is cut. A 1M-op prefix keeps a report a few hundred kB. */
#define LIN_SHOWN_OPS 1000
#define LIN_STATE_TEXT 1024

struct lin_witness {
    char *key_edn, *key_json;          /* kv only */
    char *init_edn, *init_json;        /* state the segment started from */
    char *state_edn, *state_json;      /* state after the prefix */
    uint32_t n_before;                 /* ops linearized in earlier segments */
    /* the last of those, in an order that leads to init, from the state
     * before_edn (n_shown 0: not reconstructed within the budget) */
    struct lin_wop *before;
    size_t n_shown;
    char *before_edn, *before_json;
    struct lin_wop *prefix, *stuck;
    size_t n_prefix, n_stuck;
    struct lin_wop blocking;           /* the op that returned unplaced */
    char *state_met;                   /* the state it met (lin_state_text) */
    size_t states_from;                /* first prefix op with its states */
};

/* The payload of a linearizability result. */
struct lin_report {
    isolde_validity validity;
    const char *model;
    size_t n_ops, n_parts, n_segments, n_invalid, n_unknown;
    const char *reason;                /* why unknown: static text, or NULL */
    long timeout_ms;                   /* the time budget it ran under; 0 none */
    enum lin_naming naming;
    struct lin_witness *w;             /* one per invalid partition */
    size_t n_w;
    double seconds;
};

/* Check partition part: cut it at quiescent points, carry the possible
 * states across each cut, search each segment. On LIN_FAIL fills w (when
 * w and h are not NULL). *n_segments gets the segments searched. */
enum lin_outcome lin_check_partition(struct lin_search *s, const isolde_history *h,
                                     uint32_t part, struct lin_witness *w,
                                     uint32_t *n_segments);

/* Check every partition of in (in parallel when worthwhile); fills r. */
void lin_check_input(const struct lin_input *in, const isolde_history *h,
                     const isolde_check_opts *o, struct lin_report *r);
/* What a linearizability result's kind supplies (lin_write.c). */
extern const iso_result_kind lin_kind;
void lin_report_free(void *payload);
/* Render the witness of a failed search (lin_report.c). */
void lin_witness_build(struct lin_witness *w, const struct lin_search *s,
                       const isolde_history *h, const uint32_t *ids, uint32_t n,
                       const struct lin_set *from, uint32_t n_before, uint32_t part);
/* Add to w the last ops before its segment: ops[0..n) (op ids) in the
 * order they linearize from state st[0..n_st) to the segment's start. */
void lin_witness_before(struct lin_witness *w, const struct lin_input *in, const isolde_history *h,
                        const uint32_t *ops, uint32_t n, const uint32_t *st, uint32_t n_st);
void lin_witness_release(struct lin_witness *w);
/* State and op rendering shared by reports. */
void lin_state_render(const struct lin_input *in, const isolde_history *h,
                      const uint32_t *st, uint32_t n, int json, iso_buf *out);
/* The state as the model prints it (EDN), cut at a character boundary
 * after LIN_STATE_TEXT bytes, saying how long it was. */
char *lin_state_text(const struct lin_input *in, const isolde_history *h,
                     const uint32_t *st, uint32_t n);

#endif
