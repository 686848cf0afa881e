/* gen/txn.c -- a transaction's read results: lists of integers element by
 * element, or kept as the text a database returned. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "txn/txn.h"

void run_txn_error(run_txn *t, const char *err_class, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->error, sizeof t->error, fmt, ap);
    va_end(ap);
    snprintf(t->err_class, sizeof t->err_class, "%s", err_class ? err_class : "");
    snprintf(t->err_code, sizeof t->err_code, "%s", code ? code : "");
}

/* st's entry for reason, added if new (the last entry takes the rest). */
static isolde_run_reason *reason_of(isolde_run_stats *st, const char *reason)
{
    for (int i = 0; i < st->n_reasons; i++)
        if (strcmp(st->reasons[i].name, reason) == 0) return &st->reasons[i];
    if (st->n_reasons == ISOLDE_RUN_MAX_REASONS) {
        isolde_run_reason *last = &st->reasons[ISOLDE_RUN_MAX_REASONS - 1];
        snprintf(last->name, sizeof last->name, "other");
        return last;
    }
    isolde_run_reason *r = &st->reasons[st->n_reasons++];
    snprintf(r->name, sizeof r->name, "%s", reason);
    return r;
}

void run_txn_count(isolde_run_stats *st, int outcome, const run_txn *t)
{
    if (outcome == RUN_OK) {
        st->ok++;
        return;
    }
    const char *why = t->err_class[0] ? t->err_class : outcome == RUN_FAIL ? "error" : "indeterminate";
    isolde_run_reason *r = reason_of(st, why);
    if (outcome == RUN_FAIL) st->fail++, r->fail++;
    else st->info++, r->info++;
}

void run_txn_release(run_txn *t)
{
    iso_free(t->res);
    iso_free(t->text);
    t->res = NULL;
    t->text = NULL;
    t->n_res = t->cap_res = t->n_text = t->cap_text = 0;
}

void run_txn_clear_reads(run_txn *t)
{
    t->n_res = t->n_text = 0;
    t->error[0] = t->err_class[0] = t->err_code[0] = '\0';
    t->reconnect = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        t->mops[i].nil = 1;
        t->mops[i].text = 0;
        t->mops[i].len = 0;
        if (t->mops[i].f == RUN_R) t->mops[i].value = 0;
    }
}

void run_txn_read_begin(run_txn *t, uint32_t i)
{
    t->mops[i].nil = 0;
    t->mops[i].text = 0;
    t->mops[i].off = (uint32_t)t->n_res;
    t->mops[i].len = 0;
}

int run_txn_read_text(run_txn *t, uint32_t i, const char *s, size_t n)
{
    if (n > UINT32_MAX || !run_list_text_ok(s, n)) return -1;
    if (t->n_text + n + 1 > t->cap_text) ISO_GROW(t->text, t->cap_text, t->n_text + n + 1);
    memcpy(t->text + t->n_text, s, n);
    run_mop *m = &t->mops[i];
    m->nil = 0;
    m->text = 1;
    m->off = (uint32_t)t->n_text;
    m->len = (uint32_t)n;
    t->n_text += n;
    return 0;
}

/* Whether a and b share a key, one of them writing it. */
static int conflict(const run_flight *a, const run_flight *b)
{
    if (!((a->wmask & (b->rmask | b->wmask)) | (b->wmask & a->rmask))) return 0;
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t j = 0; j < b->n; j++)
            if (a->key[i] == b->key[j] && (a->w[i] | b->w[j])) return 1;
    return 0;
}

void run_flight_start(run_flight *slots, int n, int i, const run_txn *t)
{
    run_flight *me = &slots[i];
    me->busy = 1;
    me->contended = 0;
    me->n = t->n;
    me->rmask = me->wmask = 0;
    for (uint32_t m = 0; m < t->n; m++) {
        me->key[m] = t->mops[m].key;
        me->w[m] = t->mops[m].f != RUN_R;
        *(me->w[m] ? &me->wmask : &me->rmask) |= 1ull << ((uint64_t)t->mops[m].key & 63);
    }
    for (int j = 0; j < n; j++)
        if (j != i && slots[j].busy && conflict(me, &slots[j])) me->contended = slots[j].contended = 1;
}

int run_flight_end(run_flight *slots, int i)
{
    slots[i].busy = 0;
    return slots[i].contended;
}
