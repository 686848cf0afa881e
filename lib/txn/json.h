/*
 * txn/json.h -- a transaction as the JSON value its history lines record:
 * Elle's [["append",2,5],["r",4,[1,2]]], or a single op's as Knossos's
 * (3, [1 2], [k 3]); also what the exec protocol sends. Written by hand
 * (no printf): the simulated database records a few hundred thousand
 * transactions per second.
 */
#ifndef ISO_TXN_JSON_H
#define ISO_TXN_JSON_H

#include "txn/txn.h"

/* t's :f as its lines record it: "txn", or a single op's "read",
 * "write" or "cas". */
const char *txn_json_f(const txn *t);
/* Append t's value: its micro-ops as a JSON array, or a single op's value
 * (enum txn_shape); reads are null unless with_reads. */
void txn_json(iso_buf *b, const txn *t, int with_reads);
/* Append what micro-op i of t read: null, an integer or a list. */
void txn_json_read(iso_buf *b, const txn *t, uint32_t i);
/* t's value as its invocation records it (reads null), written at p;
 * null_at[i] is where read i's null is in it. Returns its end. At most
 * TXN_JSON_MAX bytes (any transaction of at most TXN_MAX_MOPS). */
#define TXN_JSON_MAX (2 + TXN_MAX_MOPS * (16 + 2 * 21))
char *txn_json_invoke(char *p, const txn *t, uint32_t *null_at);
/* Append the value of t's ok completion to b: inv[0..n_inv) and null_at as
 * txn_json_invoke left them for t, each read's null replaced by its
 * result (the same bytes as txn_json(b, t, 1), without printing the keys
 * and written values again). */
void txn_json_ok(iso_buf *b, const char *inv, size_t n_inv, const uint32_t *null_at, const txn *t);

/* An op as a workload of Jepsen's records it instead (gen_ops.shape: a
 * bank's {"from":0,"to":1,"amount":3}): its value appended to value
 * (with_reads: what the reads returned; else at most TXN_JSON_MAX bytes),
 * its :f returned. */
typedef const char *txn_json_shape(const txn *t, int with_reads, iso_buf *value);

#endif
