/*
 * elle/rw_register/txn_order.h -- the --transaction-order file: a JSON object mapping the
 * :index of each transaction's completion to its rank in the database's
 * own commit order, e.g. {"3": 1, "7": 2}. rw-register reads it as
 * version-order evidence (Elle's :transaction-order).
 */
#ifndef ISO_TXN_ORDER_H
#define ISO_TXN_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"

typedef struct iso_txn_rank {
    int64_t index;  /* completion :index */
    double rank;
} iso_txn_rank;

/* Read path into *out (sorted by index, n entries; caller frees), its
 * bytes got as a history's are ("-": standard input; gzip; binary data
 * and UTF-16 refused: history/input.h). Fails with file:line:col on
 * unreadable files, bad JSON, a key that is not an integer, a rank that
 * is not a number, or an index given twice. */
int iso_txn_order_read(const char *path, iso_txn_rank **out, size_t *n, isolde_error *err);
/* Parse from memory; name is used in messages. */
int iso_txn_order_parse(const char *name, const char *data, size_t len, iso_txn_rank **out,
                        size_t *n, isolde_error *err);
/* 1 with *rank set when index has a rank, else 0. */
int iso_txn_order_find(const iso_txn_rank *r, size_t n, int64_t index, double *rank);

#endif
