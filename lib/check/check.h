/*
 * check/check.h -- isolde_check: the checker table (every workload isolde
 * checks, the kind of checker that judges it and the names it answers
 * to), the check's options, and the result of a history with nothing to
 * check.
 *
 *   check.c   the table's rows, the workload of a history that does not
 *             say, and running the row's checker
 *   opts.c    the options: defaults, -c and -a read into a request,
 *             validation before anything is read, the names they take
 *   checker_opts.c  the checkers' own options ("total=30"): their table,
 *             read into what the checkers are given
 *   empty.c   the result of a history with no client op, for any model
 *   stream.c  checking a history while it grows (isolde_stream_*,
 *             docs/ONLINE.md): early checks, the batch's final one
 *
 * One row per workload in ISO_CHECKERS; a new checker is a row here and
 * its entry (for a transactional workload, an iso_workload_ops; for a
 * linearizability model, a row of linear/lin_models.c; for one of
 * Jepsen's checkers, its entry in jepsen/).
 *
 * Rule: check/ sits above every checker (elle/ and its workloads,
 * linear/, jepsen/) and may include them all, and report/ and result/:
 * it is the one place that names them all, and nothing in lib/ includes
 * it.
 */
#ifndef ISO_CHECK_H
#define ISO_CHECK_H

#include "elle/elle.h"
#include "jepsen/jepsen.h"

enum iso_checker_kind { ISO_CHECKER_TXN, ISO_CHECKER_LIN, ISO_CHECKER_JEPSEN };

/* X(enum suffix of isolde_workload, name, kind, transactional workload ops,
 *   Jepsen checker entry) */
#define ISO_CHECKERS(X) \
    X(LIST_APPEND, "list-append", ISO_CHECKER_TXN, &iso_list_append_ops, NULL) \
    X(RW_REGISTER, "rw-register", ISO_CHECKER_TXN, &iso_rw_register_ops, NULL) \
    X(REGISTER, "register", ISO_CHECKER_LIN, NULL, NULL) \
    X(CAS_REGISTER, "cas-register", ISO_CHECKER_LIN, NULL, NULL) \
    X(KV, "kv", ISO_CHECKER_LIN, NULL, NULL) \
    X(MUTEX, "mutex", ISO_CHECKER_LIN, NULL, NULL) \
    X(FIFO_QUEUE, "fifo-queue", ISO_CHECKER_LIN, NULL, NULL) \
    X(LIN_SET, "lin-set", ISO_CHECKER_LIN, NULL, NULL) \
    X(MULTI_REGISTER, "multi-register", ISO_CHECKER_LIN, NULL, NULL) \
    X(PORCUPINE_KV, "porcupine-kv", ISO_CHECKER_LIN, NULL, NULL) \
    X(BANK, "bank", ISO_CHECKER_JEPSEN, NULL, iso_jepsen_bank) \
    X(SET, "set", ISO_CHECKER_JEPSEN, NULL, iso_jepsen_set) \
    X(SET_FULL, "set-full", ISO_CHECKER_JEPSEN, NULL, iso_jepsen_set_full) \
    X(COUNTER, "counter", ISO_CHECKER_JEPSEN, NULL, iso_jepsen_counter) \
    X(LONG_FORK, "long-fork", ISO_CHECKER_JEPSEN, NULL, iso_jepsen_long_fork)

typedef struct iso_checker {
    isolde_workload workload;
    const char *name;
    enum iso_checker_kind kind;
    const iso_workload_ops *ops; /* ISO_CHECKER_TXN */
    iso_jepsen_fn jepsen;        /* ISO_CHECKER_JEPSEN */
} iso_checker;

/* The row of w, or NULL (AUTO and unknown values have none). */
const iso_checker *iso_checker_of(isolde_workload w);

/* The caller's options as this library knows them (opts.c): defaults for
 * fields a smaller, older struct lacks; -1 with err when they were never
 * initialised or a number is out of its range (a negative count or
 * budget, an unknown cas_fail). user may be NULL (all defaults). */
int iso_check_opts_copy(const isolde_check_opts *user, isolde_check_opts *o, isolde_error *err);
/* The checker options o gives, read into co (checker_opts.c): -1 with err
 * for an unknown name or a value not of its option's kind. */
int iso_checker_opts_of(const isolde_check_opts *o, iso_checker_opts *co, isolde_error *err);
/* What o's -c and -a ask a transactional check for, into req; -1 with err
 * on an unknown name (with the closest known one). */
int iso_request_of(const isolde_check_opts *o, iso_request *req, isolde_error *err);

/* The unknown result of a history with no client op, why saying why
 * (lin_model: the linearizability model's name; NULL: transactional). */
isolde_result *iso_check_empty(const char *lin_model, const char *why);

/* isolde_check as an early check of a growing history needs it
 * (iso_checker_opts's shown_edges): only the edges some read shows
 * (list-append leaves out its inference into appends no read shows), and
 * no transaction of an invocation still open; 0 or -1. */
int iso_check_early(const isolde_history *h, const isolde_check_opts *o, isolde_result **out, isolde_error *err);

#endif
