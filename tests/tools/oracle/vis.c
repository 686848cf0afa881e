/*
 * vis.c -- consistency models as abstract executions: A. Cerone,
 * G. Bernardi, A. Gotsman, "A Framework for Transactional Consistency
 * Models with Atomic Visibility", CONCUR 2015 (LIPIcs 42, pp. 58-71), §2-§4.
 *
 * An abstract execution is (H, VIS, AR): H the committed transactions,
 * visibility VIS ⊆ H × H an acyclic relation, arbitration AR ⊆ H × H a total
 * order with AR ⊇ VIS. The consistency axioms (§3, Figure 2; the paper's
 * notation in ASCII, x a key, n a value, T ⊢ read(x,n) "T's first access to
 * x reads n", T ⊢ write(x,n) "T's last write to x writes n"):
 *
 *   INT        ∀(E,po) ∈ H. ∀e ∈ E. ∀x,n. (op(e) = read(x,n) ∧ po⁻¹(e) ∩ HEvent_x ≠ ∅)
 *                ⟹ op(max_po(po⁻¹(e) ∩ HEvent_x)) = _(x,n)
 *   EXT        ∀T ∈ H. ∀x,n. T ⊢ read(x,n) ⟹ ((VIS⁻¹(T) ∩ WriteTx_x = ∅ ∧ n = 0)
 *                ∨ max_AR(VIS⁻¹(T) ∩ WriteTx_x) ⊢ write(x,n))
 *   SESSION    SO ⊆ VIS
 *   PREFIX     AR ; VIS ⊆ VIS
 *   TRANSVIS   VIS is transitive
 *   NOCONFLICT ∀T,S ∈ H. (T ≠ S ∧ T,S ∈ WriteTx_x) ⟹ (T –VIS→ S ∨ S –VIS→ T)
 *   TOTALVIS   VIS = AR (VIS is total)
 *
 * and the models (§4, Figure 3): read atomic RA = INT ∧ EXT ∧ SESSION;
 * causal consistency CC = RA ∧ TRANSVIS; parallel snapshot isolation
 * PSI = CC ∧ NOCONFLICT; prefix consistency PC = RA ∧ PREFIX; snapshot
 * isolation SI = PC ∧ NOCONFLICT; serializability SER = RA ∧ TOTALVIS.
 * models.c says which of these (and SESSION, or real time RT ⊆ VIS) each
 * of Elle's names takes.
 *
 * The workloads' data types (the paper's registers read 0 first; here nil):
 *   rw-register  EXT and INT as above, values unique per key;
 *   list-append  a read of x returns exactly the appends to x of the
 *                VIS-visible transactions, in AR order (each one's appends
 *                in its program order), followed by the reader's own
 *                earlier appends: INT and EXT for the list type. So a read
 *                names exactly which appenders of x are visible.
 * facts.c turns each transaction's reads into that observation per key,
 * or marks the transaction INT-violating.
 *
 * Decision. For a given AR every axiom but EXT asks VIS to contain some
 * pairs (SESSION, real time, NOCONFLICT in the direction AR forces since
 * VIS ⊆ AR, TOTALVIS) or to be closed (TRANSVIS, PREFIX): the relations
 * satisfying them are closed under intersection, so there is a least one
 * containing the pairs the reads force (each writer a read shows is
 * visible to the reader). EXT's other half (no other writer of x visible,
 * or none after the one read, in AR) and VIS ⊆ AR only lose by adding
 * pairs. Hence: an abstract execution exists iff for some AR (a total
 * order of the committed transactions, :info ones each in or out) the
 * least VIS satisfies VIS ⊆ AR and EXT. The least VIS of a transaction
 * depends only on the transactions before it in AR and their VIS, so the
 * search (search.c) computes it as it places each transaction and prunes
 * there.
 */
#include <string.h>

#include "oracle.h"

struct vis_ctx {
    const struct or_facts *f;
    unsigned ax;
    tset c;
    tset forced[OR_MAXT]; /* writers the transaction's reads show */
    tset vis[OR_MAXT];    /* least VIS⁻¹ of each placed transaction */
};

/* Least VIS⁻¹(t) given the order so far (o->placed precede t in AR). */
static tset least_vis(const struct or_order *o, const struct vis_ctx *x, int t)
{
    const struct or_facts *f = x->f;
    tset ar = o->placed;
    tset v = x->forced[t];
    if (x->ax & AX_SESSION) v |= f->so[t] & x->c;
    if (x->ax & AX_REALTIME) v |= f->rt[t] & x->c;
    if (x->ax & AX_TOTALVIS) v |= ar;
    if (x->ax & AX_NOCONFLICT) v |= ar & f->conflict[t];
    for (tset prev = 0; prev != v;) {
        prev = v;
        for (int s = 0; s < OR_MAXT; s++) {
            if (!(prev >> s & 1)) continue;
            if (x->ax & AX_TRANSVIS) v |= x->vis[s];
            if (x->ax & AX_PREFIX) v |= o->before[s];
        }
    }
    return v;
}

/* EXT for t, whose visible set is v. */
static bool ext(const struct or_order *o, const struct vis_ctx *x, int t, tset v)
{
    const struct or_facts *f = x->f;
    for (int k = 0; k < f->h->nkeys; k++) {
        const struct or_obs *ob = &f->obs[t][k];
        if (ob->state != OBS_OK) continue;
        tset seen = v & f->writes[k], want = 0;
        for (int i = 0; i < ob->nw; i++) want |= 1u << ob->w[i];
        if (f->h->wl == OR_LA && seen != want) return false;
        if (f->h->wl == OR_RW && ob->nw == 0 && seen) return false;
        if (f->h->wl == OR_RW && ob->nw == 1 && (seen & ~o->before[ob->w[0]] & ~want)) return false;
    }
    return true;
}

static bool place(struct or_order *o, int t, void *ctx)
{
    struct vis_ctx *x = ctx;
    tset v = least_vis(o, x, t);
    if ((v & ~o->placed) || !ext(o, x, t, v)) return false;
    x->vis[t] = v;
    return true;
}

/* The orders AR must extend: VIS ⊆ AR for the pairs VIS must hold, and
 * list-append's AR order of the writers a read shows. */
static void required(struct or_order *o, struct vis_ctx *x)
{
    const struct or_facts *f = x->f;
    for (int t = 0; t < OR_MAXT; t++) {
        if (!(x->c >> t & 1)) continue;
        for (int k = 0; k < f->h->nkeys; k++) {
            const struct or_obs *ob = &f->obs[t][k];
            if (ob->state != OBS_OK) continue;
            for (int i = 0; i < ob->nw; i++) {
                x->forced[t] |= 1u << ob->w[i];
                if (i) o->pred[ob->w[i]] |= 1u << ob->w[i - 1];
            }
        }
        o->pred[t] |= x->forced[t];
        if (x->ax & AX_SESSION) o->pred[t] |= f->so[t];
        if (x->ax & AX_REALTIME) o->pred[t] |= f->rt[t];
    }
}

struct vis_try {
    const struct or_facts *f;
    unsigned ax;
    struct or_witness *w;
};

static bool try_set(tset c, void *arg)
{
    struct vis_try *a = arg;
    static struct vis_ctx x;
    static struct or_order o;
    for (int t = 0; t < OR_MAXT; t++)
        if ((c >> t & 1) && (a->f->obs_needs[t] & ~c)) return false;
    memset(&x, 0, sizeof x);
    x.f = a->f, x.ax = a->ax, x.c = c;
    or_order_init(&o, c, place, &x);
    required(&o, &x);
    if (!or_order_run(&o)) return false;
    if (a->w) {
        a->w->found = true, a->w->c = c, a->w->n = o.depth;
        memcpy(a->w->order, o.order, sizeof o.order);
        memcpy(a->w->vis, x.vis, sizeof x.vis);
    }
    return true;
}

bool or_vis_decide(const struct or_facts *f, unsigned axioms, struct or_witness *w)
{
    struct vis_try a = {f, axioms, w};
    if (w) memset(w, 0, sizeof *w);
    for (int t = 0; t < f->h->n; t++)
        if ((f->ok >> t & 1) && f->int_bad[t]) return false; /* INT, or no EXT observation */
    return or_each_commit_set(f, try_set, &a);
}
