/*
 * linear/lin_prune.c -- early dead ends for register models.
 *
 * A free determinate read of x (or a CAS expecting x) while the register
 * holds something else needs a write of x (or a CAS to x) placed before
 * it, and that producer must have been called before the read returned:
 * otherwise real time puts it after the read. When no unplaced producer
 * qualifies, the configuration cannot be completed. Without this check
 * the search only learns it when the read becomes the next to return,
 * after trying every subset of the ops in between.
 *
 * Producers of the segment are kept sorted by (value, op) so the ones of a
 * value are found by binary search; those before s->p are all placed.
 *
 * porcupine-kv: appends only extend the string, so a free get of S while
 * the state spells T is dead unless T is a prefix of S, or an unplaced
 * put called before the get returned writes a prefix of S (the string can
 * start again from it). The puts are kept in call order (local ids
 * ascending) as the producers.
 */
#include <string.h>
#include "linear/lin.h"

/* Which dead-end test a model gets (lin_search.prune). */
static uint8_t prune_kind(const struct lin_model *m)
{
    isolde_workload w = m->workload;
    if (w == ISOLDE_WORKLOAD_REGISTER || w == ISOLDE_WORKLOAD_CAS_REGISTER || w == ISOLDE_WORKLOAD_KV)
        return LIN_PRUNE_REGISTER;
    return w == ISOLDE_WORKLOAD_PORCUPINE_KV ? LIN_PRUNE_TEXT : LIN_PRUNE_NONE;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The value op writes, or LIN_ANY if it writes nothing. */
static uint32_t produces(const struct lin_op *op)
{
    if (op->kind == LIN_WRITE) return op->a;
    if (op->kind == LIN_CAS && !(op->flags & LIN_CAS_FALSE)) return op->b;
    return LIN_ANY;
}

static void prepare_puts(struct lin_search *s)
{
    ISO_GROW(s->prod, s->cap_prod, (size_t)s->n + 1);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->in->ops[s->ids[i]].kind == LIN_WRITE) s->prod[s->n_prod++] = i;
}

void lin_prune_prepare(struct lin_search *s)
{
    s->n_prod = 0;
    s->prune = prune_kind(s->in->model);
    if (s->prune == LIN_PRUNE_TEXT) prepare_puts(s);
    if (s->prune != LIN_PRUNE_REGISTER) return;
    ISO_GROW(s->prod, s->cap_prod, (size_t)s->n + 1);
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t v = produces(&s->in->ops[s->ids[i]]);
        if (v != LIN_ANY) s->prod[s->n_prod++] = (uint64_t)v << 32 | i;
    }
    qsort(s->prod, s->n_prod, sizeof *s->prod, u64_cmp);
}

/* First index in prod at or after (v, id). */
static size_t lower_bound(const struct lin_search *s, uint32_t v, uint32_t id)
{
    uint64_t key = (uint64_t)v << 32 | id;
    size_t lo = 0, hi = s->n_prod;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->prod[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Out of line, so that the register test, the hot one, stays lean. */
__attribute__((noinline)) static int text_dead(const struct lin_search *s, const struct lin_op *op)
{
    const uint32_t *aux = s->in->aux, *want = aux + op->b;
    if (op->kind != LIN_READ || (op->flags & LIN_INDET) || op->a == LIN_ANY ||
        lin_text_prefix(s->st, s->st_n, want, aux))
        return 0;
    for (size_t i = 0; i < s->n_prod; i++) {
        uint32_t id = (uint32_t)s->prod[i];
        const struct lin_op *put = &s->in->ops[s->ids[id]];
        if (put->call >= op->ret) break;
        uint32_t piece[2] = {aux[put->b], put->b}; /* the string the put leaves */
        if (!(s->bits[id >> 6] >> (id & 63) & 1) && lin_text_prefix(piece, piece[0] ? 2 : 1, want, aux))
            return 0;
    }
    return 1;
}

int lin_prune_dead(const struct lin_search *s, uint32_t x)
{
    const struct lin_op *op = &s->in->ops[s->ids[x]];
    if (s->prune != LIN_PRUNE_REGISTER) return s->prune == LIN_PRUNE_TEXT && text_dead(s, op);
    if (op->flags & (LIN_INDET | LIN_CAS_FALSE)) return 0;
    if ((op->kind != LIN_READ && op->kind != LIN_CAS) || op->a == LIN_ANY || op->a == s->st[0])
        return 0;
    for (size_t i = lower_bound(s, op->a, s->p); i < s->n_prod; i++) {
        uint32_t id = (uint32_t)s->prod[i];
        if ((uint32_t)(s->prod[i] >> 32) != op->a) break;
        const struct lin_op *p = &s->in->ops[s->ids[id]];
        if (p->call >= op->ret) break;
        if (!(s->bits[id >> 6] >> (id & 63) & 1)) return 0;
    }
    return 1;
}
