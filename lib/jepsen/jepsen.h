/*
 * jepsen/jepsen.h -- Jepsen's checkers of single-object workloads beside
 * Elle's: bank, set, set-full, counter and long-fork, with the semantics,
 * result keys and verdicts of jepsen.checker, jepsen.tests.bank (as
 * elle-cli's copy infers the total) and jepsen.tests.long-fork, each in
 * time linear or n log n in the history (docs/CHECKERS.md).
 *
 *   result.c     the result kind every checker here fills: Jepsen's map
 *                as JSON, a summary, findings by type rendered as proofs
 *                only when a report shows them; pairing ops by process
 *   bank.c       balances sum to the total and are never negative
 *   set.c        the final read holds every acknowledged add, nothing more
 *   set_full.c   when each element became visible, and whether it stayed
 *   counter.c    each read between the acknowledged and attempted sums
 *   long_fork.c  reads of a key group seeing inserts in opposite orders
 *
 * Invariant: a result refers to its history (borrowed) and holds op
 * positions and numbers, never pointers into the history's store.
 *
 * Rule: jepsen/ includes result/ (the result), report/ (the page and
 * directory its kind adds to), history/ and core/: never graph/ or the
 * transactional checker (elle/).
 */
#ifndef ISO_JEPSEN_H
#define ISO_JEPSEN_H

#include "core/keys.h"
#include "history/history.h"
#include "result/result.h"

/* One checker's entry: check h with its options co; *out a new result. */
typedef int (*iso_jepsen_fn)(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                             isolde_error *err);
int iso_jepsen_bank(const isolde_history *h, const iso_checker_opts *co, isolde_result **out, isolde_error *err);
int iso_jepsen_set(const isolde_history *h, const iso_checker_opts *co, isolde_result **out, isolde_error *err);
int iso_jepsen_set_full(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                        isolde_error *err);
int iso_jepsen_counter(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                       isolde_error *err);
int iso_jepsen_long_fork(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                         isolde_error *err);

/* ---- shared by the checkers (result.c) ---- */

/* A finding: the op (position in h->ops) it is about, a second op where
 * it has one, and numbers its section's renderer explains. */
typedef struct jp_item {
    uint32_t op, op2;
    int64_t a, b, c;
} jp_item;

struct jp_result;
typedef void (*jp_render)(const struct jp_result *r, const jp_item *it, iso_buf *out);

/* The findings of one error type, in history order. */
typedef struct jp_section {
    const char *type;
    jp_render render;
    jp_render json;   /* a finding's JSON (NULL: {"type","op","op2"}) */
    jp_item *items;
    size_t n, cap;
} jp_section;

#define JP_MAX_SECTIONS 4

typedef struct jp_result {
    const char *model;
    const isolde_history *h;
    isolde_validity validity;
    iso_buf summary;           /* text lines before the proofs */
    iso_buf json;              /* Jepsen's result map, whole */
    int64_t ctx[3];            /* what the renderers need beside the items (bank: the total, whence) */
    iso_keys *set;             /* bank: the accounts (owned) */
    jp_section sec[JP_MAX_SECTIONS];
    size_t n_sec;
} jp_result;

/* A new payload for model over h. */
jp_result *jp_new(const char *model, const isolde_history *h);
/* Section i (i < JP_MAX_SECTIONS), named type, rendered by render (and
 * as JSON by json, which may be NULL). */
void jp_section_init(jp_result *r, size_t i, const char *type, jp_render render, jp_render json);
void jp_add(jp_result *r, size_t sec, jp_item it);
/* The result of kind "jepsen" holding r (taken), types its non-empty
 * sections with their counts. */
isolde_result *jp_finish(jp_result *r);
/* Frees a payload (an error path's, before jp_finish). */
void jp_free(void *payload);

/* An op as EDN (proofs) or JSON (result maps). */
void jp_op_edn(const jp_result *r, uint32_t op, iso_buf *out);
void jp_op_json(const jp_result *r, uint32_t op, iso_buf *out);
/* "line 3" (or "index 2" where lines do not name ops). */
void jp_where(const jp_result *r, uint32_t op, iso_buf *out);
/* v as a JSON object's key: a string as itself, anything else its JSON text as a string. */
void jp_json_key(const iso_store *s, iso_val v, iso_buf *out);
/* "true", "false" or "\"unknown\"". */
const char *jp_json_validity(isolde_validity v);

/* partner[i]: the completion of invocation i or the invocation of
 * completion i (positions), ISO_NONE where there is none; pairs by
 * :process, every op (client_only: integer processes only). */
uint32_t *jp_pair(const isolde_history *h, int client_only);

/* A read that holds an element more than once (set, set-full): the item
 * {read, ISO_NONE, times, the element's place in the read}; its proof,
 * and Jepsen's set-full keys for a section of them, in the section's
 * order: ,"duplicated":{element: times, ...},"duplicated-count":n. */
void jp_render_dup(const jp_result *r, const jp_item *it, iso_buf *out);
void jp_dups_json(const jp_result *r, const jp_section *dups, iso_buf *j);

/* Sort ids by vals[id] in iso_val_cmp's order. */
void jp_sort_ids(const iso_store *s, const iso_val *vals, uint32_t *ids, size_t n);
/* The error of an op that breaks its workload's rules. */
int jp_bad_op(const jp_result *r, const iso_op *op, const char *what, isolde_error *err);
/* v as a 64-bit integer: 1, else 0. */
int jp_int(const isolde_history *h, iso_val v, int64_t *out);
/* The name of an op's :f is f. */
int jp_f_is(const isolde_history *h, const iso_op *op, const iso_name_atoms *f);

#endif
