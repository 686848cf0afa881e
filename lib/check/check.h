/*
 * check.h -- the state of one check, shared by the modules of the
 * transactional pipeline: transactions, the workload's inference, edges,
 * findings, and what the requested models make reportable.
 *
 * A workload (list_append.c, rw_register.c) implements iso_workload_ops:
 * analyze() reads ctx->h and ctx->txns, adds data edges (ww/wr/rw) to
 * ctx->edges and direct anomalies to ctx->findings; explain() tells why one
 * data edge exists, in words and as Elle's JSON step.
 */
#ifndef ISO_CHECK_H
#define ISO_CHECK_H

#include "graph/graph.h"
#include "history/txn.h"
#include "check/anomaly.h"

struct iso_search_out;
typedef struct iso_ctx iso_ctx;

/* A finding as it is built: its text for people and its JSON object, side
 * by side (finding.h has the builders). */
typedef struct iso_fb {
    iso_buf text, json;
} iso_fb;

/* Renders a pending finding into f (both buffers cleared), from what the
 * module that found it kept under arg. */
typedef void (*iso_render_fn)(const iso_ctx *ctx, size_t arg, iso_fb *f);

/* One anomaly instance: rendered by the module that found it, or pending
 * (text and json NULL) and rendered only when a report shows it. */
typedef struct iso_finding {
    int type;        /* anomaly id */
    char *text;      /* for people: several lines, no trailing newline */
    char *json;      /* one JSON object with Elle's keys for this type */
    iso_render_fn render; /* for a pending finding, with its arg */
    size_t arg;
} iso_finding;

typedef struct iso_workload_ops {
    const char *name;
    /* The order in which explain() names an edge that carries several data
     * relations (Elle's analyzer order); the cycle search classifies edges
     * the same way. */
    uint8_t data_order[3];
    int (*analyze)(iso_ctx *ctx, iso_error *err);
    /* Why a -bit-> b holds. ta/tb name the transactions ("T1"); text gets
     * e.g. "T1 appended 2 after T2 appended 1 to :x" and json gets
     * {"type":"ww","key":...,"value":...,"value'":...}. */
    void (*explain)(const iso_ctx *ctx, uint32_t a, uint32_t b, int bit,
                    const char *ta, const char *tb, iso_buf *text, iso_buf *json);
    void (*free)(void *state);
} iso_workload_ops;

struct iso_ctx {
    const iso_history *h;
    const iso_check_opts *opts;
    iso_txns txns;              /* vertex i = txns.t[i] */
    iso_edges edges;            /* data edges from the workload */
    iso_finding *findings;
    size_t n_findings, cap_findings;
    uint8_t reportable[ISO_A_COUNT]; /* prohibited by models or asked for */
    const iso_workload_ops *wl;
    void *wl_state;
    struct iso_search_out *search; /* the cycles pending findings point to */
};

/* Free what a check holds (ctx itself is the caller's). */
void iso_ctx_free(iso_ctx *ctx);
/* main_job(ctx, arg) and side_job(side, arg) on two threads (as
 * iso_thread_count allows): side shares ctx's state but collects findings
 * of its own, appended to ctx's afterwards, so their order is that of one
 * thread running main_job, then side_job. */
typedef void (*iso_ctx_job)(iso_ctx *ctx, void *arg);
void iso_ctx_both(iso_ctx *ctx, iso_ctx_job main_job, iso_ctx_job side_job, void *arg);

/* What makes a check fail (Elle's prohibited-anomaly-types) for o's models
 * and anomalies; -1 with err on an unknown name. */
int iso_reportable(const iso_check_opts *o, uint8_t set[ISO_A_COUNT], iso_error *err);

/* Takes ownership of neither string (copies both). */
void iso_ctx_add_finding(iso_ctx *ctx, int type, const char *text, const char *json);
/* A finding rendered only when shown; render(ctx, arg, ...) must work as
 * long as the result keeps ctx. */
void iso_ctx_add_pending(iso_ctx *ctx, int type, iso_render_fn render, size_t arg);

/* Render a value or a transaction's op for findings: EDN for text, JSON
 * for json. */
void iso_ctx_val_text(const iso_ctx *ctx, iso_val v, iso_buf *out);
void iso_ctx_val_json(const iso_ctx *ctx, iso_val v, iso_buf *out);
void iso_ctx_op_text(const iso_ctx *ctx, uint32_t txn, iso_buf *out);
void iso_ctx_op_json(const iso_ctx *ctx, uint32_t txn, iso_buf *out);

extern const iso_workload_ops iso_list_append_ops;
extern const iso_workload_ops iso_rw_register_ops;

#endif
