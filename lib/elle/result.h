/*
 * elle/result.h -- the transactional result's internals: its findings,
 * grouped by type, and the proof context they are rendered from when a
 * report shows them; and what its kind supplies (text.c, json.c, page.c,
 * files.c; the findings one by one, proof.c).
 */
#ifndef ISO_ELLE_RESULT_H
#define ISO_ELLE_RESULT_H

#include "elle/elle.h"
#include "report/report.h"

/* The payload of a transactional result. */
typedef struct iso_txn_result {
    iso_findings findings;  /* grouped by type in the result's types[] order */
    iso_proof_ctx pc;
    iso_request req;        /* what the check was asked for: what the verdict covers */
    int threads;            /* for rendering many proofs at once */
} iso_txn_result;

/* A new transactional result: keeps the findings Elle would report (req's
 * reportable types, redundant *-cycle-exists dropped), sets validity,
 * types and the not / also-not boundary, and keeps a copy of req. Valid
 * only when nothing is found and req has no gap (iso_request_gap): else
 * unknown, unless an anomaly was found. Takes ownership of findings and
 * of pc. */
isolde_result *iso_result_txn(const iso_request *req, iso_findings *findings, iso_proof_ctx *pc, int threads);

/* The kind's slots (result/result.h). */
int iso_elle_text(const isolde_result *r, FILE *out, const isolde_report_opts *o);
int iso_elle_json(const isolde_result *r, FILE *out, int shown);
void iso_elle_page(const isolde_result *r, iso_html *h);
int iso_elle_files(const isolde_result *r, const char *dir, isolde_error *err);

/* text.c: how many ops were checked: the client ops, in their
 * transactions, and the others (nemesis, no :process) left out. */
void iso_elle_summary(const iso_txn_result *t, iso_buf *out);

/* json.c: the first findings of type k that ISO_REPORT_SHOWN allows, as
 * iso_elle_show takes them. */
size_t iso_elle_shown_of(const isolde_result *r, size_t k);
/* json.c: when fewer than all findings of some type were shown (shown[k]
 * of type k), sep then "not-shown": {TYPE: how many were not, ...} into
 * out. */
void iso_elle_not_shown(const isolde_result *r, const size_t *shown, const char *sep, iso_buf *out);
/* json.c: why model m of a request is not checked, and what to use instead. */
void iso_elle_not_checked(const struct iso_asked_model *m, iso_buf *out);
/* The models checked that are sound only on the result's workload
 * (iso_model_coverage), as named, into names; how many. */
size_t iso_elle_sound_only(const iso_txn_result *t, const char **names);
/* json.c: what a transactional verdict covers, as fields of its JSON map
 * (the --json result and the HTML page's data): ,"models-checked":[...]
 * always; ,"models-sound-only":[...] when some of them are checked soundly
 * only; ,"anomalies-asked":[...] when -a named some;
 * ,"models-not-checked":[{"model":M,"reason":R},...] when a model was not
 * checked; ,"unknown-reason":S when that makes the verdict unknown. */
void iso_elle_request_json(const isolde_result *r, iso_buf *b);

/* The first finding of type k: its place in t->findings. */
size_t iso_elle_type_start(const isolde_result *r, size_t k);

#endif
