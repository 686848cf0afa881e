/*
 * sim/replica.c -- the simulated database's replicated levels, each built
 * from its definition as a choice of how sites apply each other's commits:
 * read atomic (Bailis et al., SIGMOD 2014: RAMP), causal and prefix
 * consistency (Cerone, Bernardi, Gotsman, CONCUR 2015), parallel snapshot
 * isolation (Sovran et al., SOSP 2011: Walter), and the broken modes
 * fractured-read, causality-violation and partition-merge.
 *
 * A client is sticky to a site (client mod sites). A site applies its own
 * commits at once and the others' when they reach it (--lag commits late
 * at most, more on a slow link) and the level's order lets it: causal
 * (each origin's commits in order, each after every commit its writer's
 * site had applied), per key (each commit whole, after the earlier writes
 * of the keys it writes, in no other order; causality-violation's link
 * from each site to the next delivers a commit only with a later write of
 * its keys), or one log (prefix: every site applies every commit in
 * commit order). A transaction sees what its
 * site had applied when it began, and its own writes. At commit, a write
 * of a key whose last write the transaction did not see aborts (certify:
 * PSI's no-conflict rule, first committer wins), or its site applies that
 * write first and the write goes on top of it (pull: lost updates
 * allowed; but a list read after the transaction's own append certifies
 * that key, or the read would be no prefix of the list).
 *
 * Invariant: what a site has applied holds every key's writes up to some
 * version, a prefix of the key's version chain (which is the commit order,
 * the arbitration), so every read returns a version of the chain and every
 * list read is a prefix of one order (Adya's PL-2) at every level and
 * mode; fractured-read's site may hold part of one commit, still a prefix
 * of each key's chain.
 */
#include <string.h>

#include "sim/sim_int.h"

#define SITES 3

enum { ORDER_LOG, ORDER_CAUSAL, ORDER_PER_KEY };

/* A level: its sites, how they apply each other's commits, what a write
 * needs at commit. */
struct rep_kind {
    int level;
    uint8_t sites, origins; /* origins 1: one log in one order, for every site */
    uint8_t order;          /* ORDER_*: what a site applies before a commit */
    uint8_t certify;        /* a write needs the key's last write seen; else pulled */
    uint8_t halves;         /* fractured-read: a commit applied a key at a time */
    uint8_t split;          /* partition-merge: the halves split, then merge */
    uint8_t stall;          /* causality-violation: a slow link delivers a
                               commit only with a later write of its keys */
};

static const struct rep_kind kinds[] = {
    {SIM_RA, SITES, SITES, ORDER_PER_KEY, 0, 0, 0, 0},
    {SIM_CAUSAL, SITES, SITES, ORDER_CAUSAL, 0, 0, 0, 0},
    {SIM_PREFIX, SITES, 1, ORDER_LOG, 0, 0, 0, 0},
    {SIM_PSI, SITES, SITES, ORDER_CAUSAL, 1, 0, 0, 0},
    {SIM_FRACTURED, SITES, SITES, ORDER_CAUSAL, 1, 1, 0, 0},
    {SIM_CAUSALITY, SITES, SITES, ORDER_PER_KEY, 1, 0, 0, 1},
    {SIM_SPLIT, 2, 2, ORDER_CAUSAL, 1, 0, 1, 0},
};

struct rep_txn {          /* by transaction id */
    uint32_t clock;       /* its site's clock at its begin: it sees what was applied by then */
    uint32_t pw[SITES], pk[SITES]; /* per origin: the commit its site then had in
                                      part (else ISO_NONE), its first pk versions */
    uint32_t seq;         /* a committed writer: its place in its origin's log, from 1 */
    uint32_t v0, nv;      /* its versions, v0 .. v0 + nv - 1 */
    uint8_t site, origin;
};

struct rep_msg {
    uint32_t txn;
    uint32_t vc[SITES];   /* per origin: what its site had applied, itself included */
};

struct rep_site {
    uint32_t *at;            /* by transaction: when the site applied it (its clock), 0: not yet */
    size_t cap_at;
    uint32_t clock;          /* commits applied */
    uint32_t applied[SITES]; /* the log orders: per origin, how many of its log's commits */
    uint32_t *wait;          /* per key: the others' commits not applied yet, in commit order */
    size_t n_wait, cap_wait;
    uint32_t pw[SITES], pk[SITES]; /* fractured-read, per origin: the commit
                                      applied in part, its first pk versions */
};

struct rep {
    const struct rep_kind *k;
    struct rep_txn *t;
    size_t cap_t;
    struct rep_msg *log[SITES];
    size_t n_log[SITES], cap_log[SITES];
    struct rep_site site[SITES];
    uint32_t *stack;         /* scratch: pull_txn's */
    size_t cap_stack;
    int split;               /* partition-merge: split now */
    int64_t phase_end;       /* ... until this commit timestamp */
};

struct rep *rep_new(int level)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (kinds[i].level != level) continue;
        struct rep *r = iso_xcalloc(1, sizeof *r);
        r->k = &kinds[i];
        for (int s = 0; s < SITES; s++)
            for (int o = 0; o < SITES; o++) r->site[s].pw[o] = ISO_NONE;
        return r;
    }
    return NULL;
}

void rep_free(struct rep *r)
{
    if (!r) return;
    for (int i = 0; i < SITES; i++) {
        iso_free(r->log[i]);
        iso_free(r->site[i].at);
        iso_free(r->site[i].wait);
    }
    iso_free(r->t);
    iso_free(r->stack);
    iso_free(r);
}

/* ---- what a transaction sees ---- */

static int sees(const struct sim *s, uint32_t id, uint32_t v)
{
    const struct rep *r = s->rep;
    uint32_t w = s->vers[v].writer;
    const struct rep_txn *T = &r->t[id];
    uint32_t at = r->site[T->site].at[w];
    if (at && at <= T->clock) return 1;
    uint8_t o = r->t[w].origin;
    return w == T->pw[o] && v - r->t[w].v0 < T->pk[o];
}

uint32_t rep_visible(const struct sim *s, uint32_t id, const struct sim_key *k)
{
    uint32_t v = k->head;
    while (v != ISO_NONE && !sees(s, id, v)) v = s->vers[v].prev;
    return v;
}

/* ---- sites applying commits ---- */

static int applied(const struct rep *r, int site, uint32_t w) { return r->site[site].at[w] != 0; }

static void apply(struct rep *r, int site, uint32_t w)
{
    struct rep_site *st = &r->site[site];
    uint8_t o = r->t[w].origin;
    st->at[w] = ++st->clock;
    if (st->pw[o] == w) st->pw[o] = ISO_NONE;
    if (r->k->order != ORDER_PER_KEY) st->applied[o]++;
}

/* An earlier write of a key w writes that site has not applied, or
 * ISO_NONE. */
static uint32_t key_blocker(const struct sim *s, int site, uint32_t w)
{
    const struct rep_txn *W = &s->rep->t[w];
    for (uint32_t v = W->v0; v < W->v0 + W->nv; v++) {
        uint32_t p = s->vers[v].prev;
        if (p != ISO_NONE && !applied(s->rep, site, s->vers[p].writer)) return s->vers[p].writer;
    }
    return ISO_NONE;
}

/* The log orders: 0 if site may apply m (origin o's next) now; else 1,
 * with *bo, *bq a commit (origin, place) it must apply first, always an
 * earlier one. */
static int log_blocked(const struct rep *r, int site, const struct rep_msg *m, int o, int *bo, uint32_t *bq)
{
    const uint32_t *a = r->site[site].applied;
    for (int j = 0; r->k->order == ORDER_CAUSAL && j < r->k->origins; j++)
        if (j != o && a[j] < m->vc[j]) return *bo = j, *bq = m->vc[j], 1;
    return 0;
}

/* Site applies origin o's log up to place q, and first what that needs.
 * Ends: a blocked commit's blocker is earlier, so the earliest commit
 * wanted is never blocked. */
static void pull_log(struct sim *s, int site, int o, uint32_t q)
{
    struct rep *r = s->rep;
    uint32_t *a = r->site[site].applied, want[SITES];
    memcpy(want, a, sizeof want);
    if (q > want[o]) want[o] = q;
    for (int behind = 1; behind;) {
        behind = 0;
        for (int j = 0; j < r->k->origins; j++)
            while (a[j] < want[j]) {
                int bo;
                uint32_t bq;
                behind = 1;
                if (!log_blocked(r, site, &r->log[j][a[j]], j, &bo, &bq)) {
                    apply(r, site, r->log[j][a[j]].txn);
                    continue;
                }
                if (bq > want[bo]) want[bo] = bq;
                break;
            }
    }
}

/* Per key: site applies commit w, and first the earlier writes of its
 * keys, theirs, ... (a stack: chains of them may be long). */
static void pull_txn(struct sim *s, int site, uint32_t w)
{
    struct rep *r = s->rep;
    size_t n = 0;
    ISO_PUSH(r->stack, n, r->cap_stack, w);
    while (n) {
        uint32_t x = r->stack[n - 1], b;
        if (applied(r, site, x)) n--;
        else if ((b = key_blocker(s, site, x)) != ISO_NONE) ISO_PUSH(r->stack, n, r->cap_stack, b);
        else apply(r, site, x), n--;
    }
}

/* Site applies commit w (and what it needs first). */
static void pull(struct sim *s, int site, uint32_t w)
{
    const struct rep_txn *W = &s->rep->t[w];
    if (s->rep->k->order == ORDER_PER_KEY) pull_txn(s, site, w);
    else pull_log(s, site, W->origin, W->seq);
}

void rep_settle(struct sim *s)
{
    struct rep *r = s->rep;
    for (int site = 0; site < r->k->sites; site++) {
        struct rep_site *st = &r->site[site];
        for (size_t i = 0; i < st->n_wait; i++) pull_txn(s, site, st->wait[i]);
        st->n_wait = 0;
        for (int o = 0; r->k->order != ORDER_PER_KEY && o < r->k->origins; o++)
            pull_log(s, site, o, (uint32_t)r->n_log[o]);
    }
}

/* The timestamp at which commit w reaches site, drawn from the seed for
 * each commit and site (no draw is taken from the sim's sequence): 0 ..
 * --lag commits after it, or 2 .. 4 times --lag on a slow link (from each
 * site to the one after it), so that one site's commits overtake
 * another's; never on a stalled one (causality-violation). */
static int64_t arrival(const struct sim *s, uint32_t w, int site)
{
    const struct rep *r = s->rep;
    uint64_t h = s->p.seed * 0x9E3779B97F4A7C15ull ^ ((uint64_t)w << 2 | (uint64_t)site);
    uint32_t lag = (uint32_t)s->p.lag;
    int slow = r->k->sites == SITES && (r->t[w].site + 1) % SITES == site;
    if (slow && r->k->stall) return INT64_MAX;
    return s->txns[w].cts + (slow ? 2 * lag + iso_rng_below(&h, 2 * lag + 1) : iso_rng_below(&h, lag + 1));
}

/* fractured-read: how many of w's versions (keys) have reached site, the
 * first at its arrival, each next one --lag + 1 commits later. */
static uint32_t keys_in(const struct sim *s, int64_t at, uint32_t w)
{
    int64_t n = (s->ts - at) / (s->p.lag + 1) + 1;
    uint32_t nv = s->rep->t[w].nv;
    return n < nv ? (uint32_t)n : nv;
}

/* The log orders: site applies what has reached it from origin o, in o's
 * order, while it may; 1 if it applied anything. */
static int catch_up(struct sim *s, int site, int o)
{
    struct rep *r = s->rep;
    struct rep_site *st = &r->site[site];
    int bo, moved = 0;
    uint32_t bq;
    while (st->applied[o] < r->n_log[o]) {
        const struct rep_msg *m = &r->log[o][st->applied[o]];
        int64_t at = arrival(s, m->txn, site);
        if (at > s->ts || log_blocked(r, site, m, o, &bo, &bq)) break;
        uint32_t in = r->k->halves ? keys_in(s, at, m->txn) : r->t[m->txn].nv;
        if (in < r->t[m->txn].nv) {
            moved |= st->pw[o] != m->txn || st->pk[o] != in;
            st->pw[o] = m->txn;
            st->pk[o] = in;
            break;
        }
        apply(r, site, m->txn);
        moved = 1;
    }
    return moved;
}

/* Per key: site applies the commits that have reached it, each after the
 * earlier writes of its keys (which a commit brings along when they have
 * not reached the site yet). */
static void catch_up_keys(struct sim *s, int site)
{
    struct rep_site *st = &s->rep->site[site];
    size_t kept = 0;
    for (size_t i = 0; i < st->n_wait; i++) {
        uint32_t w = st->wait[i];
        if (!applied(s->rep, site, w) && arrival(s, w, site) <= s->ts) pull_txn(s, site, w);
        if (!applied(s->rep, site, w)) st->wait[kept++] = w;
    }
    st->n_wait = kept;
}

/* partition-merge: together (every commit everywhere at once) and split
 * (nothing crosses) in turns of lag .. 3 lag commits; a split ends in a
 * merge. */
static void split_tick(struct sim *s)
{
    struct rep *r = s->rep;
    if (!r->split) rep_settle(s);
    if (s->ts < r->phase_end) return;
    r->split = !r->split;
    if (!r->split) rep_settle(s);
    r->phase_end = s->ts + s->p.lag + iso_rng_below(&s->rng, 2 * (uint32_t)s->p.lag + 1);
}

/* After a commit: each site applies what has reached it (again while one
 * commit let another through). */
static void tick(struct sim *s)
{
    struct rep *r = s->rep;
    if (r->k->split) {
        split_tick(s);
        return;
    }
    for (int site = 0; site < r->k->sites; site++) {
        if (r->k->order == ORDER_PER_KEY) catch_up_keys(s, site);
        for (int moved = r->k->order != ORDER_PER_KEY; moved;) {
            moved = 0;
            for (int o = 0; o < r->k->origins; o++)
                if (o != site || r->k->origins == 1) moved |= catch_up(s, site, o);
        }
    }
}

/* ---- transactions ---- */

void rep_begin(struct sim *s, uint32_t id, int client)
{
    struct rep *r = s->rep;
    ISO_GROW(r->t, r->cap_t, (size_t)id + 1);
    for (int i = 0; i < r->k->sites; i++) {
        size_t cap = r->site[i].cap_at;
        ISO_GROW(r->site[i].at, r->site[i].cap_at, (size_t)id + 1);
        memset(r->site[i].at + cap, 0, (r->site[i].cap_at - cap) * sizeof *r->site[i].at);
    }
    if (client == SIM_FRESH) rep_settle(s);
    int site = client < 0 ? 0 : client % r->k->sites;
    const struct rep_site *st = &r->site[site];
    struct rep_txn *T = &r->t[id];
    memset(T, 0, sizeof *T);
    T->clock = st->clock;
    memcpy(T->pw, st->pw, sizeof T->pw);
    memcpy(T->pk, st->pk, sizeof T->pk);
    T->site = (uint8_t)site;
}

/* Whether t reads a list after mop i appended to it: the read showed
 * what t saw of the list and t's appends on top, so t's appends must
 * follow what it saw, the list's last version (PL-2: no lost update may
 * slip in between). */
static int reads_own_list(const txn *t, uint32_t i)
{
    for (uint32_t j = i + 1; t->list_append && j < t->n; j++)
        if (t->mops[j].f == TXN_R && t->mops[j].key == t->mops[i].key) return 1;
    return 0;
}

int rep_validate(struct sim *s, uint32_t id)
{
    struct rep *r = s->rep;
    const txn *t = s->txns[id].t;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t h = t->mops[i].f == TXN_R ? ISO_NONE : sim_key_get(s, t->mops[i].key)->head;
        if (h == ISO_NONE) continue;
        int certify = r->k->certify || reads_own_list(t, i);
        if (certify && !sees(s, id, h)) return -1;
        if (!certify) pull(s, r->t[id].site, s->vers[h].writer);
    }
    return 0;
}

/* Id's commit goes into its origin's log, after all its site had applied
 * (a commit it had in part, whole), or, per key, to the others' waits;
 * its site applies it (prefix: its one log up to it). */
static void log_commit(struct sim *s, uint32_t id)
{
    struct rep *r = s->rep;
    struct rep_txn *T = &r->t[id];
    struct rep_site *st = &r->site[T->site];
    int o = r->k->origins == 1 ? 0 : T->site;
    struct rep_msg m = {id, {0}};
    memcpy(m.vc, st->applied, sizeof m.vc);
    for (int j = 0; j < r->k->origins; j++)
        if (st->pw[j] != ISO_NONE) m.vc[j] = r->t[st->pw[j]].seq;
    T->origin = (uint8_t)o;
    T->seq = (uint32_t)r->n_log[o] + 1;
    m.vc[o] = T->seq;
    if (r->k->order != ORDER_PER_KEY) ISO_PUSH(r->log[o], r->n_log[o], r->cap_log[o], m);
    else r->n_log[o]++;
    for (int i = 0; r->k->order == ORDER_PER_KEY && i < r->k->sites; i++)
        if (i != T->site) ISO_PUSH(r->site[i].wait, r->site[i].n_wait, r->site[i].cap_wait, id);
    if (r->k->origins == 1) pull_log(s, T->site, o, T->seq);
    else apply(r, T->site, id);
}

void rep_committed(struct sim *s, uint32_t id, uint32_t v0)
{
    struct rep_txn *T = &s->rep->t[id];
    T->v0 = v0;
    T->nv = (uint32_t)s->n_vers - v0;
    if (T->nv) log_commit(s, id);
    tick(s);
}
