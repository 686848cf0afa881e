/*
 * checkers/checkers.h -- the checker table: every workload isolde checks, the kind
 * of checker that judges it and the names it answers to. One row per
 * workload in ISO_CHECKERS; a new checker is a row here and its entry
 * function (for a transactional workload, an iso_workload_ops; for a
 * linearizability model, a row of linear/lin_models.c).
 *
 * This folder (checkers/) sits above every checker folder (check/,
 * workload/, linear/, report/) and may include them all: it is the one
 * place that names them all, and nothing in lib/ includes it.
 */
#ifndef ISO_CHECKERS_H
#define ISO_CHECKERS_H

#include "check/result.h"

enum iso_checker_kind { ISO_CHECKER_TXN, ISO_CHECKER_LIN };

/* X(enum suffix of isolde_workload, name, kind, transactional workload ops) */
#define ISO_CHECKERS(X) \
    X(LIST_APPEND, "list-append", ISO_CHECKER_TXN, &iso_list_append_ops) \
    X(RW_REGISTER, "rw-register", ISO_CHECKER_TXN, &iso_rw_register_ops) \
    X(REGISTER, "register", ISO_CHECKER_LIN, NULL) \
    X(CAS_REGISTER, "cas-register", ISO_CHECKER_LIN, NULL) \
    X(KV, "kv", ISO_CHECKER_LIN, NULL) \
    X(MUTEX, "mutex", ISO_CHECKER_LIN, NULL) \
    X(FIFO_QUEUE, "fifo-queue", ISO_CHECKER_LIN, NULL) \
    X(LIN_SET, "lin-set", ISO_CHECKER_LIN, NULL) \
    X(MULTI_REGISTER, "multi-register", ISO_CHECKER_LIN, NULL) \
    X(PORCUPINE_KV, "porcupine-kv", ISO_CHECKER_LIN, NULL)

typedef struct iso_checker {
    isolde_workload workload;
    const char *name;
    enum iso_checker_kind kind;
    const iso_workload_ops *ops; /* ISO_CHECKER_TXN */
} iso_checker;

/* The row of w, or NULL (AUTO and unknown values have none). */
const iso_checker *iso_checker_of(isolde_workload w);

#endif
