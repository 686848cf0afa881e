/*
 * report/report.h -- reports of transactional results, and what every
 * report writer shares.
 *
 *   render.c   building a finding's proof and JSON (workloads use it)
 *   proof.c    cycle proofs, cycle-exists and timeout words, and the one
 *              step that renders pending findings before they are shown
 *   text.c     the text report: verdict, what it covers, types, not /
 *              also-not, proofs
 *   json.c     Elle's result map as JSON, and what the verdict covers
 *   dir.c      one text file per anomaly type, as Elle's :directory
 *   empty.c    the result of a history with nothing to check (any model)
 *
 * A writer of a transactional result renders what it shows as it prints
 * it, a few findings at a time (iso_report_each). A new report format is
 * one file here and one slot in iso_result_kind (check/result.h), filled
 * for every kind.
 *
 * Rule: report/ includes check/, graph/, history/ and core/; workloads and
 * the linearizability checker include report/, never the other way.
 */
#ifndef ISO_REPORT_H
#define ISO_REPORT_H

#include "result/result.h"

/* The writers of a transactional result (checkers.c gives it to the check). */
extern const iso_result_kind iso_report_txn_kind;

/* What a page (--html, -d's index.html) and -d's files show of a type:
 * its first findings, up to ISO_REPORT_SHOWN of them and until their
 * proofs (text and JSON) pass ISO_REPORT_SHOWN_BYTES, then how many more
 * there were. A proof may show a whole op, which many findings may share
 * (a read of n elements nobody appended is n findings, each showing the
 * read): what a report holds of a type stays linear in the input. The
 * text report shows --max-examples, --json every finding. */
#define ISO_REPORT_SHOWN ((size_t)100)
#define ISO_REPORT_SHOWN_BYTES ((size_t)4 << 20)

int iso_report_text(isolde_result *r, FILE *out, const isolde_report_opts *o);
int iso_report_json(isolde_result *r, FILE *out);
/* json.c: the same with what -d shows of each type (results.json), and
 * how many more in "not-shown". */
int iso_report_json_shown(isolde_result *r, FILE *out);
/* json.c: the first findings of type k that ISO_REPORT_SHOWN allows, as
 * iso_report_each takes them. */
size_t iso_report_shown_of(const isolde_result *r, size_t k);
/* json.c: when fewer than all findings of some type were shown (shown[k]
 * of type k), sep then "not-shown": {TYPE: how many were not, ...} into
 * out. */
void iso_report_not_shown(const isolde_result *r, const size_t *shown, const char *sep, iso_buf *out);
int iso_report_dir(isolde_result *r, const char *dir, isolde_error *err);

/* The unknown result of a history with no client op, why saying why
 * (lin_model: the linearizability model's name; NULL: transactional). */
isolde_result *iso_report_empty(const char *lin_model, const char *why);

/* dir.c: make dir (and its parents); write dir/name with write(out, arg)
 * (0, or -1 on a write error), closing it even when memory runs out
 * inside (the guard unwinds); -1 with err on failure. */
int iso_report_mkdir(const char *dir, isolde_error *err);
int iso_report_write_file(const char *dir, const char *name, int (*write)(FILE *out, void *arg), void *arg,
                          isolde_error *err);

/* text.c: how many ops were checked: the client ops, in their
 * transactions, and the others (nemesis, no :process) left out. */
void iso_report_summary(const iso_txn_result *t, iso_buf *out);

/* dir.c: DIR/results.json (the kind's JSON) and DIR/index.html (its HTML
 * page), which every kind's directory holds. */
int iso_report_dir_common(isolde_result *r, const char *dir, isolde_error *err);

/* "true", "false" or "unknown". */
const char *iso_report_validity(isolde_validity v);

/* json.c: why model m of a request is not checked, and what to use instead. */
void iso_report_not_checked(const struct iso_asked_model *m, iso_buf *out);
/* json.c: what a transactional verdict covers, as fields of its JSON map
 * (the --json result and the HTML page's data): ,"models-checked":[...]
 * always; ,"anomalies-asked":[...] when -a named some;
 * ,"models-not-checked":[{"model":M,"reason":R},...] when a model was not
 * checked; ,"unknown-reason":S when that makes the verdict unknown. */
void iso_report_request_json(const isolde_result *r, iso_buf *b);

#endif
