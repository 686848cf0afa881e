/*
 * result/result.h -- what a check found: the verdict, Elle's anomaly types
 * with instance counts and the not / also-not boundary, common to every
 * kind of result; and the kind, which supplies its writers through one
 * table, so that no writer branches on what produced the result.
 *
 * A transactional result (kind from report/report.h) holds its findings,
 * grouped by type, and the proof context they are rendered from; a
 * linearizability result (linear/) holds its witnesses. The payload is the
 * kind's own, freed by kind->free.
 */
#ifndef ISO_CHECK_RESULT_H
#define ISO_CHECK_RESULT_H

#include <stdio.h>

#include "elle/elle.h"

/* The writers of one kind of result. Each renders what it shows first. */
typedef struct iso_result_kind {
    const char *name;
    int (*text)(isolde_result *r, FILE *out, const isolde_report_opts *o);
    int (*json)(isolde_result *r, FILE *out);
    int (*dir)(isolde_result *r, const char *dir, isolde_error *err);
    /* the self-contained HTML page (report/html.h) */
    int (*html)(isolde_result *r, FILE *out);
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
    /* What the check was asked for, and so what the verdict covers: the
     * models checked and not (transactional results; NULL for others). */
    iso_request *req;
};

/* The payload of a transactional result. */
typedef struct iso_txn_result {
    iso_findings findings;  /* grouped by type in types[] order */
    iso_proof_ctx pc;
    int threads;            /* for rendering many proofs at once */
} iso_txn_result;

/* A new transactional result of kind: keeps the findings Elle would report
 * (req's reportable types, redundant *-cycle-exists dropped), sets
 * validity, types and the not / also-not boundary, and keeps a copy of
 * req. Valid only when nothing is found and req has no gap
 * (iso_request_gap): else unknown, unless an anomaly was found. Takes
 * ownership of findings and of pc. */
isolde_result *iso_result_txn(const iso_result_kind *kind, const iso_request *req, iso_findings *findings,
                              iso_proof_ctx *pc, int threads);
/* A new result of kind with the given payload (taken), validity and one
 * anomaly type (NULL: none) found count times. */
isolde_result *iso_result_new(const iso_result_kind *kind, void *payload, isolde_validity v,
                           const char *type, size_t count);

#endif
