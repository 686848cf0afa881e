/*
 * solve/solve_int.h -- what the files of solve/ share (never included
 * outside the folder): the state graph of a group, the search over its
 * enabled edges, pruning's and the solver's entry points.
 *
 * Literals: choice i's side s is literal 2i + s (i local to its group). An
 * edge is enabled when it is known (own == ISO_NONE) or its literal is on
 * (lit_on[own]). Invariant: a group's edges all lie inside one strongly
 * connected component of the whole state graph (no other edge can be on a
 * cycle), and every state of a group belongs to such a component.
 */
#ifndef ISO_SOLVE_INT_H
#define ISO_SOLVE_INT_H

#include "core/alloc.h"
#include "solve/solve.h"

/* The owner of a parallel-SI link (split.c): components only. */
#define SPLIT_LINK (ISO_NONE - 1)

/* A group: the state graph of the components solved together, in CSR. */
struct group {
    enum solve_model model;
    uint32_t shift;      /* as the split's: 1 for (parallel) snapshot isolation */
    uint32_t n_states;
    uint32_t *state;     /* local -> global state, ascending */
    uint32_t *off;       /* n_states + 1 */
    uint32_t *from, *to; /* per edge (local states) */
    uint32_t *own;       /* per edge: ISO_NONE (known) or the literal */
    uint32_t *src;       /* per edge: input id (known < n_edges, else side) */
    uint32_t n_edges;
    uint32_t n_choices;
    uint32_t *choice;    /* local -> global choice, ascending */
    uint32_t *lit_off;   /* 2 * n_choices + 1: a literal's edges ... */
    uint32_t *lit_edge;  /* ... lit_edge[lit_off[l] .. lit_off[l + 1]) */
};

/* Scratch for searches over a group's states, and the cycle found. */
struct search {
    uint32_t *stamp;  /* per state: the epoch it was seen in */
    uint32_t epoch;
    uint32_t *pos;    /* per state: stack position + 1 while on the stack */
    uint32_t *stack;  /* states */
    uint32_t *cursor; /* per stack entry: the next edge to look at */
    uint32_t *rank;   /* per state: topological rank (search_rank) */
    uint32_t *queue;
    uint32_t *cycle;  /* the cycle's edges, in order */
    uint32_t n_cycle;
    uint64_t work;    /* edges looked at, summed */
    uint64_t stop_at; /* search_cycle gives up (finds none) past this work */
};

/* The whole input's state graph, its components and groups (split.c). */
struct split {
    enum solve_model model;
    uint32_t shift;    /* state = transaction << shift (| 1: entered by anti) */
    uint32_t n_states;
    uint32_t *off, *to, *own, *src; /* CSR; own: ISO_NONE or choice c's side s as 2c + s */
    uint32_t *comp;    /* per state: its component */
    uint32_t n_comp;
    uint32_t *grp;     /* per state: its group, ISO_NONE outside every one */
    uint32_t n_groups;
    uint32_t *choice_grp;                  /* per choice: its group, ISO_NONE if free */
    uint32_t *grp_state_off, *grp_states;  /* a group's states, ascending */
    uint32_t *grp_choice_off, *grp_choices;
    uint32_t *loc, *choice_loc;            /* scratch: global -> local ids */
};
void split_build(const struct solve_input *in, struct split *s);
/* Group gi's own state graph into g (release it with group_release). */
void split_group(struct split *s, uint32_t gi, struct group *g);
void split_release(struct split *s);

/* sgraph.c */
void group_release(struct group *g);
void search_init(struct search *s, uint32_t n_states);
void search_release(struct search *s);
/* Whether the enabled edges hold a cycle reachable from starts (NULL: from
 * every state), visiting only states of rank <= bound when rank is given;
 * the cycle's edges go to s->cycle. */
int search_cycle(const struct group *g, const uint8_t *lit_on, const uint32_t *starts, uint32_t n_starts,
                 const uint32_t *rank, uint32_t bound, struct search *s);
/* The shortest forbidden cycle through edge e (taken as enabled), into
 * s->cycle, e first; 0 when there is none. */
int search_short_cycle(const struct group *g, const uint8_t *lit_on, uint32_t e, struct search *s);
/* Every state searched once; each cycle closed by an edge back into the
 * search's stack handed to each (in s->cycle) while it returns nonzero:
 * many cycles in one pass, each a real one; for parallel SI, when there
 * is none, each path 2t ~> 2t + 1 found (its anti edge first). Returns 1
 * when each stopped it. */
int search_cycles(const struct group *g, const uint8_t *lit_on, struct search *s,
                  int (*each)(void *arg, const struct search *s), void *arg);
/* Whether the enabled edges hold a forbidden cycle (the model's), into
 * s->cycle: a cycle of the state graph, or for parallel SI a path 2t ~>
 * 2t + 1 (solve.h). */
int search_forbidden(const struct group *g, const uint8_t *lit_on, struct search *s);
/* Parallel SI: whether edge e (from a layer-0 state 2u, taken as enabled)
 * starts a path e ~> 2u + 1, visiting states of rank <= bound (or the
 * target's rank) only; into s->cycle, e first. 0 for other models. */
int search_psi_through(const struct group *g, const uint8_t *lit_on, uint32_t e, const uint32_t *rank,
                       uint32_t bound, struct search *s);
/* Topological ranks of the enabled edges into s->rank; -1 if they hold a
 * cycle. */
int search_rank(const struct group *g, const uint8_t *lit_on, struct search *s);

/* prune.c: force sides to a fixpoint, over the choices with active[i] set
 * (NULL: all). forced[i] is SOLVE_SIDE_NONE or the side forced (kept
 * across calls). Returns 1 when the active choices cannot be made acyclic
 * (known and forced edges close a cycle, or both sides of a choice do), 0
 * otherwise (also when the work limit stopped it: what it forced stands).
 * With culprits (not NULL) and 1 returned, culprits[i] marks the choices
 * the contradiction rests on: those alone cannot be made acyclic. */
int prune(const struct group *g, const uint8_t *active, uint8_t *forced, struct search *s, uint64_t work_limit,
          uint8_t *culprits);

/* sat.c: the group with its forced sides, decided; the core of an invalid
 * one. */
struct sat_out {
    enum solve_verdict verdict;
    const char *why;
    uint8_t *side;    /* per local choice: the witness (VALID) */
    uint32_t *core;   /* local choices (INVALID) */
    uint32_t n_core;
    int core_minimal; /* every deletion was decided */
    uint64_t refinements, calls;
    double seconds;
};
/* suspects (not NULL): pruning already proved the group invalid with
 * these choices alone (only the core is wanted, found among them). */
void sat_solve(const struct group *g, const uint8_t *forced, const uint8_t *suspects, const struct solve_budget *b,
               struct search *s, struct sat_out *out);

/* proof.c: the cases of core (local choices) into r's proof arrays. */
void proof_build(const struct group *g, const struct solve_input *in, const uint32_t *core, uint32_t n_core,
                 struct search *s, struct solve_result *r);
/* The core by deletion with pruning alone (no solver), among suspects. */
uint32_t proof_prune_core(const struct group *g, const uint8_t *suspects, struct search *s, uint64_t work_limit,
                          uint32_t *core);

#endif
