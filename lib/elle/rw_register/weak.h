/*
 * elle/rw_register/weak.h -- the weak models' checks of rw-register
 * histories, by saturation (Biswas and Enea, OOPSLA 2019; the algorithms
 * of AWDIT, Møldrup and Pavlogiannis, PLDI 2025): complete for Biswas and
 * Enea's read committed (read-committed-be), monotonic atomic view, read
 * atomic, causal-cerone and causal, without any version-order evidence.
 *
 * Each level holds iff some commit order co -- a total order of the
 * committed transactions containing wr (and session order so, for the
 * levels with sessions) -- satisfies the level's axiom, every one of the
 * shape "t3 reads x from t1, t2 writes x, t2 != t1, premise(t2, t3) =>
 * t2 <co t1". The premise never mentions co, so the pairs (t2, t1) it
 * forces are known from the history alone; the level holds iff
 * wr (u so) u forced is acyclic and no read of the initial state is
 * forced after a write (the initial state comes first). The forced pairs
 * (rw_co) are few: AWDIT's reductions keep, of pairs implied through
 * others, only what acyclicity needs.
 *
 *   level  type of its violation            premise(t2, t3)
 *   MAV    non-monotonic-read               t3 read from t2 before it read x
 *   RC     non-monotonic-read-process       the same, so in co (read-committed-be)
 *   RA     fractured-read                   t3 read from t2 (its observations: first reads of keys)
 *   CCC    causality-violation              t2 (wr)+ t3           (causal-cerone)
 *   CC     causality-violation-process      t2 (wr u so)+ t3, so in co (causal)
 *
 *   weak.c        which levels a request needs, the graph of each, its
 *                 components and a cycle through a forced pair in each
 *   weak_rules.c  what the levels share (sessions, observations, written
 *                 keys) and the forced pairs of RC (MAV's too) and RA
 *   weak_causal.c the forced pairs of CC (vector clocks over sessions)
 *                 and CCC (frontiers of writers per key), and the causal
 *                 paths their proofs show
 *   weak_proof.c  the findings' proofs, in text and JSON
 *
 * Only committed transactions take part (st->committed). Reads are as
 * reads.c classes them: only RW_R_EXT reads are in wr.
 */
#ifndef ISO_RW_WEAK_H
#define ISO_RW_WEAK_H

#include "elle/rw_register/rw_register_int.h"

/* MAV and RC force the same pairs: RC's order extends session order too
 * (Bailis et al.'s monotonic atomic view is Biswas and Enea's read
 * committed axiom over an order without it). */
enum rw_level { RW_LV_MAV, RW_LV_RC, RW_LV_RA, RW_LV_CCC, RW_LV_CC, RW_LV_N };

/* A forced pair t2 <co t1: t3's read of x (its micro-op a) shows t1's
 * write (t1 ISO_NONE: the initial state, which no pair can follow), and
 * the premise holds: MAV, RC, RA: t3's read b (micro-op index) shows t2's
 * write; CC, CCC: b is the offset in rw_weak.ids of the causal path from
 * t2 to t3 (its length, then its transactions), ISO_NONE until a proof
 * needs it. */
typedef struct rw_co {
    uint32_t t2, t1, t3, a, b;
} rw_co;

/* What every level reads, made once per check. */
typedef struct rw_wk {
    const iso_proof_ctx *pc;
    const rw_state *st;
    uint32_t n;              /* transactions */
    uint32_t *sess, *sidx;   /* per committed txn: its session (process), its place in it */
    uint32_t *soff, *stx;    /* session s: its committed txns stx[soff[s] .. soff[s+1]), by start */
    uint32_t n_sess;
    uint32_t *wk_off, *wk;   /* txn t's written keys wk[wk_off[t] .. wk_off[t+1]), sorted */
} rw_wk;

/* One observation: t's first access to key is a read in wr, of writer w
 * (ISO_NONE: the initial state), micro-op index mop. */
typedef struct rw_obs {
    uint32_t key, w, mop;
} rw_obs;

/* The forced pairs of one level, and the order its causal pass used
 * (pos: topological rank per txn, ISO_NONE where hb left it unranked). */
typedef struct rw_forced {
    rw_co *co;
    size_t n, cap;
    uint32_t *pos;
    int unranked;            /* hb has a cycle: some txns were not ranked */
} rw_forced;

/* A finding of the weak checks: a cycle ids[at .. at + n) whose edge i
 * (from vertex i to i + 1, cyclically) has label lbl[at + i]: RW_L_WR,
 * RW_L_SO, or a forced pair of co[level]; or (n == 0) the forced pair
 * at of co[level] that puts a read of the initial state after a write. */
enum { RW_L_WR = 0xffffffffu, RW_L_SO = 0xfffffffeu };
typedef struct rw_wfind {
    uint8_t level, base;     /* base: a cycle of wr and so alone (G1c-process) */
    uint32_t at, n;
} rw_wfind;

struct rw_weak {
    rw_co *co[RW_LV_N];      /* each level's forced pairs, for the proofs */
    size_t n_co[RW_LV_N];
    uint32_t *ids, *lbl;     /* cycles and causal paths */
    size_t n_ids, cap_ids, cap_lbl;
    rw_wfind *f;
    size_t n_f, cap_f;
};

/* weak.c */
void rw_weak_check(iso_ctx *ctx, rw_state *st);
void rw_weak_free(struct rw_weak *w);
int rw_level_sessions(int level);
/* The anomaly type of a level's violation (of a cycle through a forced
 * pair, or of a read of the initial state forced after a write). */
int rw_level_type(int level);
/* The pairs a level forces, into f. */
void rw_forced_of(const rw_wk *wk, int level, rw_forced *f);
/* Append n ids (and, when lbl, their labels) to w; returns their offset. */
uint32_t rw_weak_keep(struct rw_weak *w, const uint32_t *ids, const uint32_t *lbl, size_t n);

/* weak_rules.c */
void rw_wk_init(rw_wk *wk, const iso_proof_ctx *pc, const rw_state *st);
void rw_wk_free(rw_wk *wk);
/* t's observations into o (room for its keys); returns how many. */
uint32_t rw_observations(const rw_wk *wk, uint32_t t, rw_obs *o);
/* Whether txn t writes key. */
int rw_writes(const rw_wk *wk, uint32_t t, uint32_t key);
/* The hb predecessors of t at a level: with sessions its session
 * predecessor first, then its writers in wr, each writer once (the session
 * predecessor may be one of them too: the edge is both), into p; returns
 * how many. stamp is a per-txn stamp array. */
uint32_t rw_hb_preds(const rw_wk *wk, int level, uint32_t t, uint32_t *p, uint32_t *stamp);
void rw_forced_add(rw_forced *f, uint32_t t2, uint32_t t1, uint32_t t3, uint32_t a, uint32_t b);
void rw_forced_rc(const rw_wk *wk, rw_forced *f);
void rw_forced_ra(const rw_wk *wk, rw_forced *f);

/* weak_causal.c */
void rw_forced_cc(const rw_wk *wk, rw_forced *f);
void rw_forced_ccc(const rw_wk *wk, rw_forced *f);
/* Scratch for causal paths, n transactions. */
typedef struct rw_paths {
    uint32_t *parent, *queue, *stamp, *p;
} rw_paths;
void rw_paths_init(rw_paths *ps, uint32_t n);
void rw_paths_free(rw_paths *ps);
/* The causal path t2 -> ... -> t3 of a CC or CCC pair c, into w (c->b);
 * f: the level's pass (its ranks). */
void rw_causal_path(const rw_wk *wk, int level, const rw_forced *f, rw_paths *ps, rw_co *c, struct rw_weak *w);

/* weak_proof.c: iso_render_fn of finding i; and its picture, the
 * proof's steps (a forced step's premise drawn step by step), into p. */
void rw_weak_render(const iso_proof_ctx *pc, size_t i, iso_fb *o);
void rw_weak_picture(const iso_proof_ctx *pc, size_t i, struct iso_picture *p);

#endif
