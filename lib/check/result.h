/*
 * result.h -- what a check found, as the report writers read it. The
 * transactional pipeline fills the txn part; the linearizability checker
 * (linear/) fills its own part and writers dispatch on the kind.
 */
#ifndef ISO_RESULT_H
#define ISO_RESULT_H

#include "check/check.h"

struct iso_lin_report;

struct iso_result {
    iso_validity validity;
    /* anomaly types, sorted by name, with instance counts */
    char **types;
    size_t *type_counts;
    size_t n_types;
    const char **not_;
    size_t n_not;
    const char **also_not;
    size_t n_also_not;
    /* transactional: every finding, grouped by type in types[] order; the
     * check's state stays for proofs not yet rendered (it refers to the
     * history, which must outlive the result) */
    iso_finding *findings;
    size_t n_findings;
    iso_ctx *ctx;
    int threads;     /* for rendering every proof at once */
    /* linearizability */
    struct iso_lin_report *lin;
};

/* Keep the findings Elle would report (reportable types, redundant
 * *-cycle-exists dropped), set validity, types and the not / also-not
 * boundary. Takes ownership of findings[0..n). */
void iso_result_build(iso_result *r, const uint8_t reportable[ISO_A_COUNT],
                      iso_finding *findings, size_t n);

/* Provided by linear/: checks a non-transactional workload. */
int iso_lin_check(const iso_history *h, const iso_check_opts *o,
                  iso_result *r, iso_error *err);
int iso_lin_write_text(const struct iso_lin_report *l, FILE *out, const iso_report_opts *o);
int iso_lin_write_json(const struct iso_lin_report *l, FILE *out);
void iso_lin_report_free(struct iso_lin_report *l);

#endif
