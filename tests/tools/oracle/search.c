/*
 * search.c -- the one search every decision runs: the total orders of a
 * set of committed transactions, built one transaction at a time, each
 * placed only after its required predecessors and only where the model's
 * place() accepts it (which sees the order so far, never the rest). At
 * most OR_MAXC transactions, so plain recursion; and the sets of :info
 * transactions that may have committed.
 */
#include <string.h>

#include "oracle.h"

void or_order_init(struct or_order *o, tset c, bool (*place)(struct or_order *, int, void *),
                   void *ctx)
{
    memset(o, 0, sizeof *o);
    o->c = c, o->place = place, o->ctx = ctx;
}

static bool dfs(struct or_order *o)
{
    if (o->placed == o->c) return !o->done || o->done(o, o->ctx);
    for (int t = 0; t < OR_MAXT; t++) {
        tset bit = 1u << t;
        if (!(o->c & bit) || (o->placed & bit) || (o->pred[t] & o->c & ~o->placed)) continue;
        o->nodes++;
        o->order[o->depth] = t, o->pos[t] = o->depth, o->before[t] = o->placed;
        if (!o->place(o, t, o->ctx)) continue;
        o->depth++, o->placed |= bit;
        if (dfs(o)) return true;
        o->depth--, o->placed &= ~bit;
    }
    return false;
}

bool or_order_run(struct or_order *o)
{
    o->depth = 0, o->placed = 0;
    return dfs(o);
}

/* Committing an :info transaction that no read shows costs nothing when
 * nothing follows it (it can go last), but a process that goes on after an
 * :info (histories that do not rename it) puts it in session order, and
 * then it may fit only by not having committed. */
bool or_each_commit_set(const struct or_facts *f, bool (*try)(tset c, void *arg), void *arg)
{
    /* every subset of info, by the usual sub-mask walk */
    for (tset sub = f->info;; sub = (sub - 1) & f->info) {
        if (try(f->ok | sub, arg)) return true;
        if (!sub) return false;
    }
}
