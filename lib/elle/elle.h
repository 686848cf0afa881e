/*
 * elle/elle.h -- the transactional check: pair transactions, let the
 * workload infer data edges and direct anomalies, add process or real-time
 * order when a requested model needs it, search the graph for cycles, and
 * make the result.
 *
 *   check.c     the pipeline, and the context it shares with workloads
 *   opts.c      the options: defaults, validation, the names they take
 *   finding.c   the findings sink
 *   anomaly.c   Elle's anomaly names and implications
 *   models.c    Elle's 54 model names, what each prohibits, not / also-not,
 *               the models that forbid nothing (not checked: never valid)
 *   search.c    the cycle search as Elle asks for it
 *   result.c    the result: a verdict, types, not / also-not, kinds
 *
 * A workload (workload/<name>/) implements iso_workload_ops: analyze()
 * reads ctx->pc.h and ctx->pc.txns, adds data edges (ww/wr/rw) to
 * ctx->edges and direct anomalies to ctx->findings; explain() tells why one
 * data edge exists, in words and as Elle's JSON step, from the proof
 * context alone -- which is all that outlives the check, in the result.
 *
 * Rule: check/ includes graph/, history/ and core/; it never names a
 * workload, a report writer or the linearizability checker: the checker
 * table (lib/checkers/checkers.c) hands it the workload and the result kind.
 */
#ifndef ISO_CHECK_H
#define ISO_CHECK_H

#include "elle/anomaly.h"
#include "elle/finding.h"
#include "elle/models.h"
#include "graph/cycle.h"
#include "history/txn.h"

typedef struct iso_workload_ops iso_workload_ops;

/* What the proofs of a transactional result need, and all that the result
 * keeps of its check: the history (borrowed: it must outlive the result),
 * the transactions, the workload's state and the cycle search's output. */
typedef struct iso_proof_ctx {
    const isolde_history *h;
    iso_txns txns;               /* vertex i = txns.t[i] */
    const iso_workload_ops *wl;
    void *wl_state;              /* freed by wl->free */
    iso_search_out *search;      /* the cycles pending findings point to */
} iso_proof_ctx;

/* What a check was asked for (iso_request_of): the models -c names, each
 * once, as named (static strings), split by whether a transactional check
 * covers them (iso_model_not_checked); the anomalies -a names; and what
 * follows from both, the anomalies that make the check fail. */
typedef struct iso_request {
    struct iso_asked_model { int model; const char *name; } checked[ISO_MODEL_COUNT],
        unchecked[ISO_MODEL_COUNT];
    size_t n_checked, n_unchecked, n_asked;
    uint8_t asked[ISO_A_COUNT];      /* as -a names them */
    uint8_t reportable[ISO_A_COUNT]; /* Elle's prohibited-anomaly-types */
} iso_request;

/* The state of one check while it runs. */
typedef struct iso_ctx {
    iso_proof_ctx pc;
    const isolde_check_opts *opts;
    iso_edges edges;             /* data edges from the workload */
    iso_findings findings;
    iso_request req;
} iso_ctx;

struct iso_workload_ops {
    const char *name;
    /* The order in which explain() names an edge that carries several data
     * relations (Elle's analyzer order); the cycle search classifies edges
     * the same way. */
    uint8_t data_order[3];
    int (*analyze)(iso_ctx *ctx, isolde_error *err);
    /* Why a -bit-> b holds. ta/tb name the transactions ("T1"); text gets
     * e.g. "T1 appended 2 after T2 appended 1 to :x" and json gets
     * {"type":"ww","key":...,"value":...,"value'":...}. */
    void (*explain)(const iso_proof_ctx *pc, uint32_t a, uint32_t b, int bit,
                    const char *ta, const char *tb, iso_buf *text, iso_buf *json);
    void (*free)(void *state);
};

/* Check h as workload wl; on success *r is a new result of kind (the
 * transactional writers: report/report.h). */
struct iso_result_kind;
int iso_check_txns(const isolde_history *h, const isolde_check_opts *o, const iso_workload_ops *wl,
                   const struct iso_result_kind *kind, isolde_result **r, isolde_error *err);

/* main_job(ctx, arg) and side_job(side, arg) on two threads (as
 * iso_thread_count allows): side shares ctx's state but collects findings
 * of its own, appended to ctx's afterwards, so their order is that of one
 * thread running main_job, then side_job. */
typedef void (*iso_ctx_job)(iso_ctx *ctx, void *arg);
void iso_ctx_both(iso_ctx *ctx, iso_ctx_job main_job, iso_ctx_job side_job, void *arg);

/* The caller's options as this library knows them (check/opts.c):
 * defaults for fields a smaller, older struct lacks; -1 with err when they
 * were never initialised or a number is out of its range (a negative
 * count or budget, an unknown cas_fail). user may be NULL (all defaults). */
int iso_check_opts_copy(const isolde_check_opts *user, isolde_check_opts *o, isolde_error *err);

/* What o asks a check for, into req; -1 with err on an unknown name. */
int iso_request_of(const isolde_check_opts *o, iso_request *req, isolde_error *err);
/* 1 when a check asked for req cannot be valid whatever it finds, with
 * why in why (NULL: not wanted): a model it names is not checked, or it
 * names nothing at all; 0 when it can. */
int iso_request_gap(const iso_request *req, iso_buf *why);

/* Free what a proof context owns (not the history). */
void iso_proof_ctx_free(iso_proof_ctx *pc);

#endif
