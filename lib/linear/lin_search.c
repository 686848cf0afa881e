/*
 * linear/lin_search.c -- the Wing-Gong-Lowe search over one segment of a
 * partition, with Lowe's memo of configurations already explored.
 *
 * The segment's calls and returns form a doubly linked list in history
 * order (node i is the call of local op i, node n + i its return; an
 * indeterminate op's return sits at the end). The cursor walks the list:
 * at a call it tries to linearize that op next (model step legal and the
 * resulting configuration new), lifts its two nodes out and restarts from
 * the head; at a return it backtracks, since that op should already have
 * taken effect. Reaching the end, or the first indeterminate return, means
 * every determinate op is placed. Lifting and relinking is the dancing-links
 * trick, so a step costs O(1) plus the memo key.
 *
 * Two reductions keep the search narrow. An observer (a read, a set read,
 * a CAS that returned false) never changes the state, so when one is legal
 * among the ops free to go next it is placed at once with no alternative
 * to explore: any linearization that places it later stays valid with it
 * moved here. Otherwise the op whose return comes first (the urgent one,
 * which must go soonest) is tried first, then the rest in list order.
 * lin_prune.c adds early dead ends for registers, and backtracking jumps
 * over every configuration in which such a dead read stays dead.
 *
 * A configuration is (linearized set, model state). Ops are numbered in
 * call order, so the set is coded as p (first op not linearized), m (one
 * past the last linearized) and the holes between them: a handful of words
 * for any realistic history, instead of a bitset as long as the history.
 */
#include <stdlib.h>
#include <string.h>
#include "linear/lin.h"

#define END UINT32_MAX
#define HEAD(s) (2 * (s)->n)
#define DEFAULT_MEM_LIMIT ((size_t)1 << 30)

struct ret_ev { uint64_t pos; uint32_t id; };

static int ret_cmp(const void *a, const void *b)
{
    const struct ret_ev *x = a, *y = b;
    if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

void lin_search_init(struct lin_search *s, const struct lin_input *in)
{
    memset(s, 0, sizeof *s);
    s->in = in;
    s->mem_limit = DEFAULT_MEM_LIMIT;
}

void lin_search_release(struct lin_search *s)
{
    lin_set_release(&s->memo);
    iso_free(s->next); iso_free(s->prev); iso_free(s->bits);
    iso_free(s->stack); iso_free(s->stack_st); iso_free(s->stack_how); iso_free(s->st_words);
    iso_free(s->st); iso_free(s->key); iso_free(s->best); iso_free(s->prod);
    memset(s, 0, sizeof *s);
}

static void append(struct lin_search *s, uint32_t *tail, uint32_t node)
{
    s->next[*tail] = node;
    s->prev[node] = *tail;
    *tail = node;
}

/* Link calls (already in call order) and returns (sorted) by position;
 * a return precedes a call at the same position. */
static void build_list(struct lin_search *s)
{
    const struct lin_op *ops = s->in->ops;
    uint32_t n = s->n, tail = HEAD(s), c = 0, r = 0;
    struct ret_ev *rets = iso_xmalloc((size_t)n * sizeof *rets + 1);
    int sorted = 1;
    for (uint32_t i = 0; i < n; i++) {
        rets[i] = (struct ret_ev){ops[s->ids[i]].ret, i};
        if (i && rets[i].pos < rets[i - 1].pos) sorted = 0;
    }
    if (!sorted) qsort(rets, n, sizeof *rets, ret_cmp);
    while (c < n || r < n) {
        if (r < n && (c == n || rets[r].pos <= ops[s->ids[c]].call))
            append(s, &tail, n + rets[r++].id);
        else
            append(s, &tail, c++);
    }
    s->next[tail] = END;
    iso_free(rets);
}

static uint32_t max_from_len(const struct lin_set *from)
{
    uint32_t len = 0;
    for (size_t off = from->n ? 0 : SIZE_MAX; off != SIZE_MAX; off = lin_set_next(from, off))
        if (from->words[off] > len) len = from->words[off];
    return len;
}

static void prepare(struct lin_search *s, const uint32_t *ids, uint32_t n,
                    const struct lin_set *from)
{
    const struct lin_input *in = s->in;
    size_t words = n / 64 + 2;
    s->ids = ids;
    s->n = n;
    s->st_cap = lin_state_cap(in, ids, n) + max_from_len(from);
    ISO_GROW(s->next, s->cap_nodes, 2 * (size_t)n + 1);
    s->prev = iso_xrealloc(s->prev, s->cap_nodes * sizeof *s->prev);
    ISO_GROW(s->bits, s->cap_bits, words);
    memset(s->bits, 0, words * sizeof *s->bits);
    if (s->cap_n < n) {
        s->cap_n = n;
        s->stack = iso_xrealloc(s->stack, n * sizeof *s->stack);
        s->stack_st = iso_xrealloc(s->stack_st, n * sizeof *s->stack_st);
        s->stack_how = iso_xrealloc(s->stack_how, n);
        s->best = iso_xrealloc(s->best, n * sizeof *s->best);
    }
    ISO_GROW(s->key, s->cap_key, 3 + (size_t)n + s->st_cap);
    s->st = iso_xrealloc(s->st, (s->st_cap + 1) * sizeof *s->st);
    s->p = s->m = 0;
    s->culprit = END;
    s->n_stack = s->n_st_words = 0;
    s->n_best = s->best_common = 0;
    s->best_from = 0;
    build_list(s);
    lin_prune_prepare(s);
}

static void unlink_node(struct lin_search *s, uint32_t v)
{
    s->next[s->prev[v]] = s->next[v];
    if (s->next[v] != END) s->prev[s->next[v]] = s->prev[v];
}

static void relink_node(struct lin_search *s, uint32_t v)
{
    s->next[s->prev[v]] = v;
    if (s->next[v] != END) s->prev[s->next[v]] = v;
}

/* First op id >= from not linearized (bits beyond n are clear). */
static uint32_t next_unset(const struct lin_search *s, uint32_t from)
{
    size_t i = from >> 6;
    uint64_t w = ~s->bits[i] & (~0ull << (from & 63));
    while (!w) w = ~s->bits[++i];
    return (uint32_t)(i * 64 + (size_t)__builtin_ctzll(w));
}

/* One past the last linearized op below x, but at least s->p. */
static uint32_t last_set_end(const struct lin_search *s, uint32_t x)
{
    while (x > s->p) {
        uint32_t i = x - 1;
        uint64_t w = s->bits[i >> 6] & (~0ull >> (63 - (i & 63)));
        if (w) return (i & ~63u) + 64 - (uint32_t)__builtin_clzll(w);
        x = i & ~63u;
    }
    return s->p;
}

static void mark(struct lin_search *s, uint32_t x)
{
    s->bits[x >> 6] |= 1ull << (x & 63);
    if (x + 1 > s->m) s->m = x + 1;
    if (x == s->p) s->p = next_unset(s, x + 1);
    if (s->m < s->p) s->m = s->p;
}

static void unmark(struct lin_search *s, uint32_t x)
{
    s->bits[x >> 6] &= ~(1ull << (x & 63));
    if (x < s->p) s->p = x;
    if (x + 1 == s->m) s->m = last_set_end(s, x);
}

/* Memo key: p, m, the number of holes, the holes in (p, m), the state. */
static uint32_t build_key(struct lin_search *s)
{
    uint32_t *k = s->key, len = 3;
    k[0] = s->p;
    k[1] = s->m;
    for (uint32_t x = s->p + 1; x < s->m;) {
        uint64_t w = ~s->bits[x >> 6] & (~0ull << (x & 63));
        uint32_t base = x & ~63u;
        for (; w; w &= w - 1) {
            uint32_t h = base + (uint32_t)__builtin_ctzll(w);
            if (h >= s->m) break;
            k[len++] = h;
        }
        x = base + 64;
    }
    k[2] = len - 3;
    memcpy(k + len, s->st, s->st_n * sizeof *k);
    return len + s->st_n;
}

static size_t save_state(struct lin_search *s)
{
    size_t off = s->n_st_words;
    ISO_GROW(s->st_words, s->cap_st_words, off + 1 + s->st_cap);
    s->st_words[off] = s->st_n;
    memcpy(s->st_words + off + 1, s->st, s->st_n * sizeof *s->st);
    return off;
}

static void load_state(struct lin_search *s, const uint32_t *saved)
{
    s->st_n = saved[0];
    memcpy(s->st, saved + 1, s->st_n * sizeof *s->st);
}

/* How an op was chosen: what to do when backtracking over it. */
enum how { HOW_OBSERVER, HOW_URGENT, HOW_ANY };

static void push(struct lin_search *s, uint32_t x, size_t off, size_t from_off, int how)
{
    s->stack[s->n_stack] = x;
    s->stack_how[s->n_stack] = (uint8_t)how;
    s->stack_st[s->n_stack++] = off;
    s->n_st_words = off + 1 + s->st_words[off];
    unlink_node(s, x);
    unlink_node(s, s->n + x);
    if (s->n_stack > s->n_best) {
        memcpy(s->best + s->best_common, s->stack + s->best_common,
               (s->n_stack - s->best_common) * sizeof *s->best);
        s->n_best = s->best_common = (uint32_t)s->n_stack;
        s->best_from = from_off;
    }
}

enum { TRY_ILLEGAL, TRY_SEEN, TRY_PLACED };

/* Try to linearize local op x next. */
static int try_op(struct lin_search *s, uint32_t x, size_t from_off, int how)
{
    const struct lin_input *in = s->in;
    size_t off = save_state(s);
    int rc = TRY_ILLEGAL;
    if (in->model->step(s->st, &s->st_n, &in->ops[s->ids[x]], in->aux)) {
        uint32_t p = s->p, m = s->m;
        mark(s, x);
        if (lin_set_add(&s->memo, s->key, build_key(s))) {
            push(s, x, off, from_off, how);
            return TRY_PLACED;
        }
        s->bits[x >> 6] &= ~(1ull << (x & 63));
        s->p = p;
        s->m = m;
        rc = TRY_SEEN;
    }
    load_state(s, s->st_words + off);
    return rc;
}

static int is_observer(const struct lin_op *op)
{
    return op->kind == LIN_READ || op->kind == LIN_READ_SET || (op->flags & (LIN_CAS_FALSE | LIN_PURE));
}

/* The op of the first return in the list, or END when every determinate
 * op is placed (the list ends, or only indeterminate returns remain). */
static uint32_t urgent_op(const struct lin_search *s)
{
    uint32_t cur = s->next[HEAD(s)];
    while (cur != END && cur < s->n) cur = s->next[cur];
    if (cur == END || (s->in->ops[s->ids[cur - s->n]].flags & LIN_INDET)) return END;
    return cur - s->n;
}

/* Place a legal observer among the free ops: TRY_PLACED, TRY_SEEN (that
 * configuration failed before, or a free op can no longer be satisfied:
 * this one fails too) or TRY_ILLEGAL. */
static int place_observer(struct lin_search *s, size_t from_off)
{
    for (uint32_t cur = s->next[HEAD(s)]; cur != END && cur < s->n; cur = s->next[cur]) {
        if (lin_prune_dead(s, cur)) {
            s->culprit = cur;
            return TRY_SEEN;
        }
        if (!is_observer(&s->in->ops[s->ids[cur]])) continue;
        int rc = try_op(s, cur, from_off, HOW_OBSERVER);
        if (rc != TRY_ILLEGAL) return rc;
    }
    return TRY_ILLEGAL;
}

/* Where a scan of the free ops stands. */
struct scan { uint32_t cur, urgent; };

/* Undo linearizations back to the last choice with alternatives left and
 * set sc to resume there. 0 when the stack is exhausted. After a dead read
 * (s->culprit), every configuration where it is still dead is skipped too:
 * none of them can be completed (backjumping). */
static int backtrack(struct lin_search *s, struct scan *sc)
{
    for (;;) {
        if (!s->n_stack) {
            s->culprit = END;
            return 0;
        }
        uint32_t x = s->stack[--s->n_stack];
        size_t off = s->stack_st[s->n_stack];
        int how = s->stack_how[s->n_stack];
        if (s->n_stack < s->best_common) s->best_common = (uint32_t)s->n_stack;
        load_state(s, s->st_words + off);
        s->n_st_words = off;
        unmark(s, x);
        relink_node(s, s->n + x);
        relink_node(s, x);
        if (how == HOW_OBSERVER) continue;
        if (s->culprit != END && lin_prune_dead(s, s->culprit)) continue;
        s->culprit = END;
        sc->urgent = urgent_op(s);
        sc->cur = how == HOW_URGENT ? s->next[HEAD(s)] : s->next[x];
        return 1;
    }
}

static enum lin_outcome over_budget(const struct lin_search *s, const struct lin_set *to)
{
    if (s->deadline > 0 && iso_now() > s->deadline) return LIN_TIMEOUT;
    size_t bytes = lin_set_bytes(&s->memo) + s->n_st_words * sizeof *s->st_words;
    if (to) bytes += lin_set_bytes(to);
    return bytes > s->mem_limit ? LIN_NOMEM : LIN_OK;
}

#define FRESH (END - 1)  /* cursor: a new configuration to start on */

/* Every determinate op is placed: 1 to stop here (LIN_OK). */
static int at_end(struct lin_search *s, enum lin_mode mode, struct lin_set *to)
{
    if (mode != LIN_TARGET) return lin_set_add(to, s->st, s->st_n) && mode == LIN_FIRST;
    return to->words[0] == s->st_n && memcmp(to->words + 1, s->st, s->st_n * sizeof *s->st) == 0;
}

/* At a new configuration: 1 if a step was taken (still FRESH), 0 to scan
 * the free ops, -1 to backtrack. */
static int start_config(struct lin_search *s, struct scan *sc, size_t from_off)
{
    int rc = place_observer(s, from_off);
    if (rc == TRY_PLACED) return 1;
    if (rc == TRY_SEEN) return -1;
    if (try_op(s, sc->urgent, from_off, HOW_URGENT) == TRY_PLACED) return 1;
    sc->cur = s->next[HEAD(s)];
    return 0;
}

/* One scan step at a free op: 1 if it was placed. */
static int scan_op(struct lin_search *s, struct scan *sc, size_t from_off)
{
    uint32_t x = sc->cur;
    if (x != sc->urgent && try_op(s, x, from_off, HOW_ANY) == TRY_PLACED)
        return 1;
    sc->cur = s->next[x];
    return 0;
}

static enum lin_outcome walk(struct lin_search *s, enum lin_mode mode,
                             struct lin_set *to, size_t from_off)
{
    struct scan sc = {FRESH, END};
    for (;;) {
        if ((++s->steps & 4095) == 0) {
            enum lin_outcome b = over_budget(s, to);
            if (b != LIN_OK) return b;
        }
        int rc = -1;
        if (sc.cur == FRESH) {
            sc.urgent = urgent_op(s);
            if (sc.urgent != END) rc = start_config(s, &sc, from_off);
            else if (at_end(s, mode, to)) return LIN_OK;
        } else if (sc.cur < s->n) {
            rc = scan_op(s, &sc, from_off);
            if (!rc) continue;
        }
        if (rc > 0) sc.cur = FRESH;
        else if (rc < 0 && !backtrack(s, &sc)) return LIN_FAIL;
    }
}

enum lin_outcome lin_search_run(struct lin_search *s, const uint32_t *ids, uint32_t n,
                                const struct lin_set *from, enum lin_mode mode,
                                struct lin_set *to)
{
    prepare(s, ids, n, from);
    enum lin_outcome shortcut;
    if (lin_writes_run(s, ids, n, from, mode, to, &shortcut)) return shortcut;
    lin_set_clear(&s->memo);
    for (size_t off = from->n ? 0 : SIZE_MAX; off != SIZE_MAX; off = lin_set_next(from, off)) {
        load_state(s, from->words + off);
        enum lin_outcome res = walk(s, mode, to, off);
        s->found_from = off;
        if (res == LIN_OK || res == LIN_TIMEOUT || res == LIN_NOMEM) return res;
    }
    return mode == LIN_ALL && to->n ? LIN_OK : LIN_FAIL;
}
