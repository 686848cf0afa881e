/*
 * gen/txn.h -- a transaction as the runner generates and executes it: up
 * to RUN_MAX_MOPS micro-ops over integer keys and values, and the values
 * its reads returned (lists of integers, or a database's own text of
 * them); and the seeded random source the generators and the simulated
 * database draw from. Drivers, the simulated database and the recorder
 * all speak in these types.
 */
#ifndef ISO_GEN_TXN_H
#define ISO_GEN_TXN_H

#include <stdint.h>
#include <stdlib.h>
#include "core/core.h"


/* Micro-op functions, all a driver implements (docs/CHECKERS.md, "The
 * runner's workloads"):
 *   RUN_R       read a key: a register's value (nil when absent) or a list
 *   RUN_APPEND  append value to the key's list (list-append, set, set-full)
 *   RUN_W       write value to the key's register (rw-register, long-fork)
 *   RUN_ADD     add value to the key's integer (absent: 0), writing the sum
 *               into `after`; a sum below 0 fails the transaction, which
 *               changes nothing (bank's transfers, counter's increments)
 *   RUN_CAS     compare-and-set, only in a single op (below) */
enum run_f { RUN_R = 0, RUN_APPEND, RUN_W, RUN_ADD, RUN_CAS };
/* What a run_txn holds: a transaction of micro-ops (Elle's :f :txn), or
 * one Knossos op for the linearizability checker, its :f read / write /
 * cas from its one micro-op: on a single register (value V, a cas's
 * [old new]) or on key k of many (Jepsen's independent keys: [k V],
 * [k [old new]]). */
enum run_shape { RUN_SHAPE_TXN = 0, RUN_SHAPE_REGISTER, RUN_SHAPE_KV };
/* What a transaction came to; also the recorded op type after invoke. */
enum run_outcome { RUN_OK = 0, RUN_FAIL, RUN_INFO };

#define RUN_MAX_MOPS 64   /* longest transaction (and final-read chunk) */
#define RUN_MAX_KEYS 1024 /* largest hot-key pool */

typedef struct run_mop {
    uint8_t f;        /* enum run_f */
    uint8_t nil;      /* read result is nil (registers; unread lists) */
    int64_t key;
    int64_t value;    /* written value (a cas's new one); a register read's result */
    uint32_t off, len; /* a list read's result: res[off .. off+len), or
                        * with text set text[off .. off+len) */
    uint8_t text;     /* the list read is kept as the database's text */
    int64_t after;    /* RUN_ADD: the sum it wrote (set by the database) */
    int64_t old;      /* a cas's expected value */
} run_mop;

/* One transaction: its micro-ops and, once run, the values it read. */
typedef struct run_txn {
    run_mop mops[RUN_MAX_MOPS];
    uint32_t n;
    int list_append;  /* 1: append / list reads; 0: w / register reads */
    int shape;        /* enum run_shape */
    int64_t *res;     /* list-read elements */
    size_t n_res, cap_res;
    char *text;       /* list reads kept as text: "1,2,3" */
    size_t n_text, cap_text;
    char error[120];  /* why it failed / is indeterminate; "" if none */
    char err_class[32]; /* the kind of failure (serialization-failure,
                           deadlock, connection, ...); "" if not given */
    char err_code[16];  /* the database's own code (40001, 1213); or "" */
    uint8_t reconnect;  /* the connection is gone: the runner opens a new
                           one before the next transaction (after a fail) */
} run_txn;

/* Say why t failed or ended unknown: its class, the database's code (or
 * NULL) and a message; the history records all three (record.c). */
void run_txn_error(run_txn *t, const char *err_class, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void run_txn_release(run_txn *t);
/* Count t's outcome (enum run_outcome) in st, and its reason when it did
 * not commit. */
void run_txn_count(isolde_run_stats *st, int outcome, const run_txn *t);
/* Forget every read result (before the txn is run, or run again). */
void run_txn_clear_reads(run_txn *t);
/* Append one element to the list read by mop i (which must be the last
 * list read begun). Inline: drivers call it once per element read. */
static inline void run_txn_read_elem(run_txn *t, uint32_t i, int64_t elem)
{
    if (t->n_res == t->cap_res) ISO_GROW(t->res, t->cap_res, t->n_res + 1);
    t->res[t->n_res++] = elem;
    t->mops[i].len++;
}
/* Start the result of list read i (empty, not nil). */
void run_txn_read_begin(run_txn *t, uint32_t i);
/* The result of list read i as the n bytes "1,2,3" (integers without
 * leading zeros, joined by commas; "" for an empty list), kept as text so
 * that it is neither parsed nor printed again. Returns 0, or -1 (nothing
 * kept) if s is not such a list or an element might not fit in 64 bits. */
int run_txn_read_text(run_txn *t, uint32_t i, const char *s, size_t n);
/* The result of list read i from a database's stored text s[0..n): kept
 * as text when it is such a list, else parsed element by element as far
 * as it goes; s NULL (no row) is the empty list (list_text.c). */
void run_txn_read_list(run_txn *t, uint32_t i, const char *s, size_t n);
/* Whether s[0..n) is such a list (list_text.c). */
int run_list_text_ok(const char *s, size_t n);

/* Contention: a transaction is contended when, while it ran, another
 * one in flight touched a key it touched, one of the two writing it. A
 * slot holds one in-flight transaction's keys; fixed size, so that slots
 * can live in memory shared by forked clients. */
typedef struct run_flight {
    int busy, contended;
    uint32_t n;
    uint64_t rmask, wmask;  /* bit key % 64 of the keys read, written */
    int64_t key[RUN_MAX_MOPS];
    uint8_t w[RUN_MAX_MOPS];
} run_flight;
/* t starts in slot i of slots[0, n): compared with every busy one, both
 * marked when they conflict (txn.c). */
void run_flight_start(run_flight *slots, int n, int i, const run_txn *t);
/* Slot i's transaction ended: 1 if it was contended. */
int run_flight_end(run_flight *slots, int i);

/* splitmix64: small, fast, and the same sequence on every platform. */
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n), n > 0. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}
/* Uniform in [0, 1). */
static inline double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- as JSON (txn_json.c) ---- */

/* t's :f as its lines record it: "txn", or a single op's "read",
 * "write" or "cas". */
const char *txn_f(const run_txn *t);
/* Append t's value: its micro-ops as a JSON array, or a single op's value
 * (enum run_shape); reads are null unless with_reads. */
void txn_json(iso_buf *b, const run_txn *t, int with_reads);
/* Append what micro-op i of t read: null, an integer or a list. */
void txn_json_read(iso_buf *b, const run_txn *t, uint32_t i);
/* t's value as its invocation records it (reads null), written at p;
 * null_at[i] is where read i's null is in it. Returns its end. At most
 * TXN_JSON_MAX bytes (any transaction of at most RUN_MAX_MOPS). */
#define TXN_JSON_MAX (2 + RUN_MAX_MOPS * (16 + 2 * 21))
char *txn_json_invoke(char *p, const run_txn *t, uint32_t *null_at);
/* Append the value of t's ok completion to b: inv[0..n_inv) and null_at as
 * txn_json_invoke left them for t, each read's null replaced by its
 * result (the same bytes as txn_json(b, t, 1), without printing the keys
 * and written values again). */
void txn_json_ok(iso_buf *b, const char *inv, size_t n_inv, const uint32_t *null_at,
                  const run_txn *t);

#endif
