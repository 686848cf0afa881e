/*
 * elle/elle.h -- the transactional checker, after Elle: pair transactions,
 * let the workload infer data edges and direct anomalies, add process or
 * real-time order when a requested model needs it, search the graph for
 * cycles, and make the result, whose findings are proved only when they
 * are shown.
 *
 *   elle.c      the pipeline, and the context it shares with workloads
 *   anomaly.c   Elle's anomaly names and implications
 *   models.c    Elle's 54 model names, what each prohibits, not / also-not,
 *               the models that forbid nothing (not checked: never valid),
 *               and what a request of them leaves open
 *   search.c    the cycle search as Elle asks for it
 *   finding.c   the findings sink
 *   render.c    building a finding's proof and JSON (workloads use it)
 *   proof.c     cycle proofs, cycle-exists and timeout words, and the one
 *               step that renders pending findings as they are shown
 *   result.c    the result: Elle's verdict, the findings by type, its kind
 *   text.c      its text report: verdict, what it covers, types, not /
 *               also-not, proofs
 *   json.c      Elle's result map as JSON, and what the verdict covers
 *   page.c      its fields of the HTML page: findings with their pictures,
 *               the timeline
 *   files.c     its files of a directory: one per anomaly type, as Elle's
 *               :directory, and a picture per cycle
 *   picture.c   the picture of a cycle or of a bounded component
 *   exact.c     the exact check of a workload's polygraph (exact.h)
 *   list_append/, rw_register/   the workloads
 *
 * A workload (elle/<name>/) implements iso_workload_ops: analyze() reads
 * ctx->pc.h and ctx->pc.txns, adds data edges (ww/wr/rw) to ctx->edges
 * and direct anomalies to ctx->findings; explain() tells why one data
 * edge exists, in words and as Elle's JSON step, from the proof context
 * alone -- which is all that outlives the check, in the result.
 *
 * Rule: elle/ includes report/, result/, graph/, history/, solve/ (models.c:
 * whether CaDiCaL is built in; exact.c: the solving) and core/; it
 * never names a workload (the checker table, check/check.h, hands it
 * one), and the workloads include elle/, never the other way round.
 */
#ifndef ISO_ELLE_H
#define ISO_ELLE_H

#include "elle/anomaly.h"
#include "elle/finding.h"
#include "elle/models.h"
#include "graph/cycle.h"
#include "history/txn.h"
#include "result/result.h"

typedef struct iso_workload_ops iso_workload_ops;
/* A group of edges readers[0 .. nr) -> writers[0 .. nw) (iso_workload_ops.unread_groups). */
typedef void (*iso_group_fn)(void *arg, const uint32_t *readers, size_t nr, const uint32_t *writers, size_t nw);

/* What the proofs of a transactional result need, and all that the result
 * keeps of its check: the history (borrowed: it must outlive the result),
 * the transactions, the workload's state and the cycle search's output. */
typedef struct iso_proof_ctx {
    const isolde_history *h;
    iso_txns txns;               /* vertex i = txns.t[i] */
    const iso_workload_ops *wl;
    void *wl_state;              /* freed by wl->free */
    iso_search_out *search;      /* the cycles pending findings point to */
    /* The workload decided the version orders exactly (rw-register's
     * exact check): its sound-only models are complete here; witness (a
     * JSON object, or NULL) names the orders of a valid verdict. */
    uint8_t exact;
    char *witness;
} iso_proof_ctx;

/* The state of one check while it runs. */
typedef struct iso_ctx {
    iso_proof_ctx pc;
    const isolde_check_opts *opts;
    const iso_checker_opts *co;  /* the workload's own options */
    iso_edges edges;             /* data edges from the workload */
    iso_findings findings;
    const iso_request *req;      /* what the check was asked for */
    /* Set by a workload's analyze() that decides version orders exactly
     * once the search is done (rw-register): called with the searched
     * graph and the order edges it holds (ISO_EDGE_PROCESS / _REALTIME),
     * it may add findings and set pc.exact / pc.witness. */
    void (*exact)(struct iso_ctx *ctx, const iso_graph *g, uint8_t extra);
} iso_ctx;

/* Long forks (elle/long_fork.c): a cycle of WW ∪ WR ∪ (WR ; RW) in g's
 * data edges, one per component of such cycles, pushed onto out as cycles
 * of type long-fork (each edge one bit: hubs folded into rw). */
void iso_long_forks(const iso_graph *g, const iso_proof_ctx *pc, iso_search_out *out);

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
    /* The picture of pending finding f (source ISO_FS_RENDER), built beside
     * its proof, into p (zeroed): 1, or 0 when it has none. NULL: none has. */
    int (*picture)(const iso_proof_ctx *pc, const iso_finding *f, struct iso_picture *p);
    /* Whether a -ww-> b is an order of versions some read shows (NULL:
     * every ww edge is): 0 no, 1 yes, 2 yes and b's own read shows a's
     * write (a is visible to b, as through a wr edge). list-append's edge
     * into an append no read shows is Adya's inference (such appends follow
     * the versions read), which the models of visibility (prefix) do not
     * force. */
    int (*ww_shown)(const iso_proof_ctx *pc, uint32_t a, uint32_t b);
    /* The rw edges every read of a key makes into the key's appends no read
     * shows, whatever version it read, one group a key: emit(arg, readers,
     * nr, writers, nw) (NULL: none). The graph draws them from the last
     * version's readers only, the others' following through ww_shown's
     * exception, which prefix does not take. */
    void (*unread_groups)(const iso_proof_ctx *pc, iso_group_fn emit, void *arg);
};

/* Check h as workload wl, asked for req (check/opts.c makes it of o's
 * -c and -a); on success *r is a new result of elle's kind (elle/result.h). */
int iso_elle_check(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                   const iso_request *req, const iso_workload_ops *wl, isolde_result **r, isolde_error *err);

/* main_job(ctx, arg) and side_job(side, arg) on two threads (as
 * iso_thread_count allows): side shares ctx's state but collects findings
 * of its own, appended to ctx's afterwards, so their order is that of one
 * thread running main_job, then side_job. */
typedef void (*iso_ctx_job)(iso_ctx *ctx, void *arg);
void iso_ctx_both(iso_ctx *ctx, iso_ctx_job main_job, iso_ctx_job side_job, void *arg);

/* Free what a proof context owns (not the history; result.c). */
void iso_proof_ctx_free(iso_proof_ctx *pc);

#endif
