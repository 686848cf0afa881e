/*
 * txn/txn.h -- the runner's transaction, as generated (gen/), run (a
 * driver, the simulated database) and recorded (record/): up to
 * TXN_MAX_MOPS micro-ops over integer keys and values, the values its
 * reads returned (lists of integers, or a database's own text of them),
 * and why it failed (its error's class, the database's code, a message).
 * Every folder of the runner speaks in these types; this folder includes
 * core/ only.
 *
 *   txn.c        errors, outcomes counted, read results
 *   list_text.c  a list read as a database's text "1,2,3", kept or parsed
 *   flight.c     contention between transactions in flight (flight.h)
 *   json.c       a transaction as Elle's or Knossos's JSON value (json.h)
 *
 * Invariant: a txn owns its read results (res, text) and nothing else; a
 * txn_mop's list read points into them, never into a database's memory.
 */
#ifndef ISO_TXN_H
#define ISO_TXN_H

#include <stdint.h>
#include <stdlib.h>
#include "core/core.h"

/* Micro-op functions, all a driver implements (docs/CHECKERS.md, "The
 * runner's workloads"):
 *   TXN_R       read a key: a register's value (nil when absent) or a list
 *   TXN_APPEND  append value to the key's list (list-append, set, set-full)
 *   TXN_W       write value to the key's register (rw-register, long-fork)
 *   TXN_ADD     add value to the key's integer (absent: 0), writing the sum
 *               into `after`; a sum below 0 fails the transaction, which
 *               changes nothing (bank's transfers, counter's increments)
 *   TXN_CAS     compare-and-set, only in a single op (below) */
enum txn_f { TXN_R = 0, TXN_APPEND, TXN_W, TXN_ADD, TXN_CAS };
/* What a txn holds: a transaction of micro-ops (Elle's :f :txn), or
 * one Knossos op for the linearizability checker, its :f read / write /
 * cas from its one micro-op: on a single register (value V, a cas's
 * [old new]) or on key k of many (Jepsen's independent keys: [k V],
 * [k [old new]]). */
enum txn_shape { TXN_SHAPE_TXN = 0, TXN_SHAPE_REGISTER, TXN_SHAPE_KV };
/* What a transaction came to; also the recorded op type after invoke. */
enum txn_outcome { TXN_OK = 0, TXN_FAIL, TXN_INFO };

#define TXN_MAX_MOPS 64   /* longest transaction (and final-read chunk) */

typedef struct txn_mop {
    uint8_t f;        /* enum txn_f */
    uint8_t nil;      /* read result is nil (registers; unread lists) */
    int64_t key;
    int64_t value;    /* written value (a cas's new one); a register read's result */
    uint32_t off, len; /* a list read's result: res[off .. off+len), or
                        * with text set text[off .. off+len) */
    uint8_t text;     /* the list read is kept as the database's text */
    int64_t after;    /* TXN_ADD: the sum it wrote (set by the database) */
    int64_t old;      /* a cas's expected value */
} txn_mop;

/* One transaction: its micro-ops and, once run, the values it read. */
typedef struct txn {
    txn_mop mops[TXN_MAX_MOPS];
    uint32_t n;
    int list_append;  /* 1: append / list reads; 0: w / register reads */
    int shape;        /* enum txn_shape */
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
} txn;

/* Say why t failed or ended unknown: its class, the database's code (or
 * NULL) and a message; the history records all three (record.c). */
void txn_error(txn *t, const char *err_class, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void txn_release(txn *t);
/* Count t's outcome (enum txn_outcome) in st, and its reason when it did
 * not commit. */
void txn_count(isolde_run_stats *st, int outcome, const txn *t);
/* Forget every read result (before the txn is run, or run again). */
void txn_clear_reads(txn *t);
/* Append one element to the list read by mop i (which must be the last
 * list read begun). Inline: drivers call it once per element read. */
static inline void txn_read_elem(txn *t, uint32_t i, int64_t elem)
{
    if (t->n_res == t->cap_res) ISO_GROW(t->res, t->cap_res, t->n_res + 1);
    t->res[t->n_res++] = elem;
    t->mops[i].len++;
}
/* Start the result of list read i (empty, not nil). */
void txn_read_begin(txn *t, uint32_t i);
/* The result of list read i as the n bytes "1,2,3" (integers without
 * leading zeros, joined by commas; "" for an empty list), kept as text so
 * that it is neither parsed nor printed again. Returns 0, or -1 (nothing
 * kept) if s is not such a list or an element might not fit in 64 bits
 * (list_text.c). */
int txn_read_text(txn *t, uint32_t i, const char *s, size_t n);
/* The result of list read i from a database's stored text s[0..n): kept
 * as text when it is such a list, else parsed element by element as far
 * as it goes; s NULL (no row) is the empty list (list_text.c). */
void txn_read_list(txn *t, uint32_t i, const char *s, size_t n);
/* Whether s[0..n) is such a list (list_text.c). */
int txn_list_text_ok(const char *s, size_t n);

/* Whether t has a micro-op that writes (anything but a read), one that
 * reads. */
int txn_writes(const txn *t);
int txn_reads(const txn *t);

#endif
