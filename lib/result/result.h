/*
 * result/result.h -- what every checker returns: the verdict, the workload
 * it ran as, the anomaly types found with their counts, and the not /
 * also-not boundary; and the result's kind, the one table through which a
 * checker supplies what is written of it and walked in it, so that nothing
 * outside the checker knows its payload.
 *
 *   result.c   making a result, its accessors, the findings walk, freeing
 *
 * A kind supplies its text report, its JSON, its fields of the HTML page's
 * data block and its own files of a directory (report/ writes the page and
 * the directory around them), and its findings one by one, each with its
 * proof in words and its JSON.
 *
 * Rule: result/ includes core/ only. Every checker (elle/, linear/,
 * jepsen/, check/'s empty result) makes results here; report/ writes them.
 */
#ifndef ISO_RESULT_H
#define ISO_RESULT_H

#include <limits.h>
#include <stdio.h>

#include "core/core.h"

struct iso_html;

/* What a checker is given beside isolde_check_opts: the checkers' own
 * options, read from its checker_opts by check/opts.c's table (which
 * says which workloads use each). A checker reads the fields it uses. */
typedef struct iso_checker_opts {
    /* rw-register: the version-order evidence it may use */
    int wfr_keys, sequential_keys, linearizable_keys;
    const char *transaction_order;  /* a file: JSON {completion index: rank} */
    const char *exact;              /* "auto" (NULL), "always", "never": the exact check (rw_register/exact.h) */
    /* linearizability */
    const char *cas_fail;           /* "noop", "false"; NULL: the format's */
    const char *initial_value;      /* the registers' first value; NULL: nil */
    /* Jepsen's checkers */
    long total;                     /* bank: every read's sum; ISO_NO_TOTAL: none given */
    int allow_negative_balances;    /* bank */
    long group_size;                /* long-fork: keys every read reads; 0: any */
    int linearizable;               /* set-full: a stale element is an error */
    /* An early check of a growing history (check/stream.c; no option sets
     * it): list-append draws no ww / rw edge into an append no read shows,
     * and an invocation without completion is no transaction (it is still
     * open: its outcome is to come) */
    int shown_edges;
} iso_checker_opts;

#define ISO_NO_TOTAL LONG_MIN       /* below every total an option takes */

/* What is done with the i-th finding of a run shown (0 for the first),
 * its text and JSON valid during the call only. */
typedef void (*iso_show_fn)(void *arg, size_t i, const char *text, const char *json);

/* What a kind of result supplies. Every slot reads the result only, so
 * that one result may be written by several threads at once. */
typedef struct iso_result_kind {
    const char *name; /* the page's "kind" */
    /* The text report. */
    int (*text)(const isolde_result *r, FILE *out, const isolde_report_opts *o);
    /* The JSON result; shown: as a directory holds it (results.json). */
    int (*json)(const isolde_result *r, FILE *out, int shown);
    /* Its fields of the page's data block, after the common ones
     * (report/report.h: iso_html). */
    void (*page)(const isolde_result *r, struct iso_html *h);
    /* Its own files in dir, which exists (report/report.h's
     * iso_report_write_file writes each). */
    int (*files)(const isolde_result *r, const char *dir, isolde_error *err);
    /* Show findings first .. first + n of type k (within the type's
     * count) in order; returns how many were shown. */
    size_t (*each)(const isolde_result *r, size_t k, size_t first, size_t n, iso_show_fn show, void *arg);
    void (*free)(void *payload);
} iso_result_kind;

struct isolde_result {
    const iso_result_kind *kind;
    void *payload;
    isolde_validity validity;
    isolde_workload workload; /* what the check ran as (isolde_check sets it) */
    /* anomaly types, sorted by name, with instance counts */
    char **types;
    size_t *type_counts;
    size_t n_types;
    const char **not_;
    size_t n_not;
    const char **also_not;
    size_t n_also_not;
};

/* A new result of kind with the given payload (taken), validity and one
 * anomaly type (NULL: none) found count times. */
isolde_result *iso_result_new(const iso_result_kind *kind, void *payload, isolde_validity v,
                              const char *type, size_t count);
/* Room for n types (their names and counts zeroed). */
void iso_result_types(isolde_result *r, size_t n);

#endif
