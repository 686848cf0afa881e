/*
 * solve/solve.h -- whether a polygraph can be made acyclic, decided exactly
 * within a deterministic budget (issue 26 item 1's solving core).
 *
 * A polygraph is n transactions (dense ids 0..n-1), known edges, and
 * choices: each choice is a pair of writers of a key whose order is not
 * known, given as the edges each of its two sides implies (side 0, "a
 * first": a -> b ww and r -> b rw for each reader r of a's write; side 1
 * the other way). The solver knows nothing of keys or writers: a side is
 * just its edge list, each edge a dependency (ww, wr, so, real time) or
 * an anti-dependency (rw).
 *
 *   serializable (Cobra, OSDI 2020): some choice of sides leaves the graph
 *     of every edge acyclic;
 *   snapshot isolation (Cerone & Gotsman; PolySI, PVLDB 2023): some choice
 *     leaves (dep ; anti?)+ irreflexive: no cycle in which two anti edges
 *     follow each other (cyclically);
 *   parallel snapshot isolation (Cerone & Gotsman, without session order:
 *     Elle's): some choice leaves (dep+ ; anti?) irreflexive: no cycle with
 *     fewer than two anti edges;
 *   prefix consistency (Cerone & Gotsman, without session order): some
 *     choice leaves WW U WR U (WR ; RW) acyclic: no cycle in which an anti
 *     edge follows anything but a read (SOLVE_READ).
 *
 * Both are decided on one "state graph": for serializability its vertices
 * are the transactions; for snapshot isolation a vertex is a transaction
 * and whether the edge that entered it was anti, so that an anti edge only
 * leaves a state entered by a dependency, and a cycle of states is exactly
 * a cycle of (dep ; anti?). Parallel SI's forbidden cycles are no state
 * graph's cycles (a loop that takes one anti edge could be taken twice),
 * so its state graph has two layers, a vertex a transaction and whether
 * the one anti edge was taken: dependencies in each layer, an anti edge
 * from layer 0 to layer 1, nothing back. A forbidden cycle is then a
 * cycle (dependencies only) or a path from 2t to 2t + 1 (one anti edge;
 * sgraph.c seeks both). Prefix's is a state graph again: a vertex is a
 * transaction and whether a read entered it, and an anti edge leaves only
 * a state a read entered. Adding edges only adds forbidden cycles
 * (monotone), which makes the lazy encoding below exact for each model.
 *
 * The work, in order (files):
 *   sgraph.c  the state graph (CSR), its strongly connected components and
 *             the groups solved apart (components joined by a choice whose
 *             edges lie in several); choices with no edge inside any
 *             component are free; cycle search over the edges enabled
 *   prune.c   a side that closes a cycle with the known and forced edges
 *             is impossible, so the other side is forced; to a fixpoint
 *   sat.c     CaDiCaL (optional, ISO_HAVE_CADICAL) with acyclicity added
 *             lazily: solve, find a cycle in the chosen graph, forbid that
 *             cycle's sides, again; the unsat core (failed assumptions,
 *             then deletion) of an invalid group
 *   proof.c   the proof of an invalid group: the core's cases, each a
 *             partial assignment and the cycle it closes
 *   solve.c   the entry point: checks the input, runs the groups, the
 *             result
 *
 * Determinism: the same input and budget always give the same result (the
 * budget is counted in conflicts, refinements and edges visited, never in
 * time). Without CaDiCaL the answer is unknown ("built without CaDiCaL")
 * wherever pruning alone does not decide.
 *
 * Memory: every allocation goes through core/alloc.h (a guard's pool);
 * nothing is allocated per element on hot paths. While a CaDiCaL instance
 * lives, the guard's unwind slot (iso_guard_on_unwind) holds its release:
 * call solve_run with the slot free, as report/'s writers ask. CaDiCaL's
 * own memory is C++'s: running out of it there ends the process
 * (std::bad_alloc), which no guard can catch. Includes core/ only.
 *
 * For the caller (rw-register): give each choice's likelier order as side
 * 0 where it knows one (the earlier writer first); the solver prefers, per
 * choice, the side whose edges agree with a topological order of the
 * known edges, and a witness is then usually its first model.
 */
#ifndef ISO_SOLVE_H
#define ISO_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "isolde.h"

/* SOLVE_READ: a dependency that is a read (wr), which prefix tells apart. */
enum solve_kind { SOLVE_DEP = 0, SOLVE_ANTI = 1, SOLVE_READ = 2 };
enum solve_model { SOLVE_SER = 0, SOLVE_SI = 1, SOLVE_PSI = 2, SOLVE_PC = 3 };
enum solve_verdict { SOLVE_VALID = 0, SOLVE_INVALID = 1, SOLVE_UNKNOWN = 2 };

/* "No side": a choice that no answer decided (solve_result.side). */
#define SOLVE_SIDE_NONE 0xff

struct solve_edge {
    uint32_t from, to; /* transactions, < n_txns; from == to is refused */
    uint32_t kind;     /* enum solve_kind */
};

/* The work allowed per group, so that the answer never depends on time.
 * 0 in a field takes its default (SOLVE_DEFAULT_*). */
struct solve_budget {
    uint64_t conflicts;   /* CaDiCaL's conflicts, over every call of a group */
    uint64_t refinements; /* cycles forbidden (clauses added) per group */
    uint64_t prune_work;  /* edges visited by pruning per group */
};
#define SOLVE_DEFAULT_CONFLICTS 200000
#define SOLVE_DEFAULT_REFINEMENTS 200000
#define SOLVE_DEFAULT_PRUNE_WORK 200000000

/* All borrowed for the call. Choice c's side s (0: a first, 1: b first)
 * is side_edges[side_start[2c + s] .. side_start[2c + s + 1]); side_start
 * holds 2 * n_choices + 1 nondecreasing offsets, the last <= n_side_edges
 * (NULL when n_choices is 0). */
struct solve_input {
    enum solve_model model;
    uint32_t n_txns;
    const struct solve_edge *edges; /* the known edges */
    size_t n_edges;
    uint32_t n_choices;
    const size_t *side_start;
    const struct solve_edge *side_edges;
    size_t n_side_edges;
    struct solve_budget budget;
};

/* One edge of a proof's cycle: the input edge it is (edge indexes edges[]
 * when choice is ISO_NONE (UINT32_MAX), side_edges[] otherwise) and, for a
 * side's edge, the choice and side. */
struct solve_step {
    uint32_t from, to, kind;
    uint32_t choice; /* UINT32_MAX: a known edge */
    uint32_t side;
    uint32_t edge;
};

/* One case of a proof: with these choices on these sides (assign[first ..
 * first + n_assign), whatever the other choices of the core), the steps
 * step[first_step .. first_step + n_steps) close a cycle. */
struct solve_case {
    uint32_t first_assign, n_assign;
    uint32_t first_step, n_steps;
};
struct solve_assign {
    uint32_t choice, side;
};

/* The most cases a proof lists; more: proof_truncated, the core stands. */
#define SOLVE_MAX_CASES 64

struct solve_stats {
    uint32_t n_choices;  /* in the input */
    uint32_t n_free;     /* outside every component: any side will do */
    uint32_t n_pruned;   /* forced by pruning */
    uint32_t n_solved;   /* decided by the solver */
    uint32_t n_groups;   /* groups with a cycle possible (solved apart) */
    uint32_t n_unknown_groups;
    uint64_t refinements; /* cycles forbidden, every group */
    uint64_t solver_calls;
    double solver_seconds; /* CaDiCaL's time (reported; never decides) */
    double seconds;        /* the whole call */
};

/* What solve_run found. Arrays are new (solve_result_release frees them).
 *   VALID:   side[c] is every choice's side, a witness: the known edges with
 *            those sides are acyclic (for the model).
 *   INVALID: the first group (by its smallest transaction) that cannot be
 *            made acyclic: core[0 .. n_core) its choices that together
 *            cannot (core_minimal when the solver shrank it within the
 *            budget; empty when known edges alone close a cycle), and the
 *            proof's cases, which cover every assignment of the core
 *            (unless proof_truncated: past SOLVE_MAX_CASES cases, or no
 *            cases at all for a core of more than SOLVE_MAX_CASES choices
 *            that the budget left unshrunk).
 *   UNKNOWN: why (a static string: "budget", "built without CaDiCaL"), the
 *            first group that was not decided.
 * group_txns[0 .. n_group_txns) is that group's transactions (INVALID,
 * UNKNOWN), ascending. side[] holds every side decided (free choices side
 * 0), SOLVE_SIDE_NONE elsewhere. */
struct solve_result {
    enum solve_verdict verdict;
    const char *why;
    uint8_t *side;
    uint32_t *group_txns;
    uint32_t n_group_txns;
    uint32_t *core;
    uint32_t n_core;
    int core_minimal; /* no choice of the core can be left out */
    struct solve_case *cases;
    uint32_t n_cases;
    int proof_truncated;
    struct solve_assign *assign;
    uint32_t n_assign;
    struct solve_step *step;
    uint32_t n_step;
    struct solve_stats stats;
};

/* Decide in. 0 with *out filled (release it with solve_result_release), or
 * -1 with err (ISOLDE_ERR_USAGE: an id out of range, a self edge, offsets
 * that do not fit; ISOLDE_ERR_NOMEM) and *out empty. Runs under the
 * caller's guard (iso_call), or one of its own if there is none. */
int solve_run(const struct solve_input *in, struct solve_result *out, isolde_error *err);
void solve_result_release(struct solve_result *r);

/* Whether this build has CaDiCaL (ISO_HAVE_CADICAL). */
int solve_has_sat(void);

#endif
