/* txn/txn.c -- a transaction's error and outcome (counted by reason in a
 * run's statistics), and its read results: lists of integers element by
 * element, or kept as the text a database returned. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "txn/txn.h"

void txn_error(txn *t, const char *err_class, const char *code, const char *fmt, ...)
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

void txn_count(isolde_run_stats *st, int outcome, const txn *t)
{
    if (outcome == TXN_OK) {
        st->ok++;
        return;
    }
    const char *why = t->err_class[0] ? t->err_class : outcome == TXN_FAIL ? "error" : "indeterminate";
    isolde_run_reason *r = reason_of(st, why);
    if (outcome == TXN_FAIL) st->fail++, r->fail++;
    else st->info++, r->info++;
}

void txn_release(txn *t)
{
    iso_free(t->res);
    iso_free(t->text);
    t->res = NULL;
    t->text = NULL;
    t->n_res = t->cap_res = t->n_text = t->cap_text = 0;
}

void txn_clear_reads(txn *t)
{
    t->n_res = t->n_text = 0;
    t->error[0] = t->err_class[0] = t->err_code[0] = '\0';
    t->reconnect = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        t->mops[i].nil = 1;
        t->mops[i].text = 0;
        t->mops[i].len = 0;
        if (t->mops[i].f == TXN_R) t->mops[i].value = 0;
    }
}

void txn_read_begin(txn *t, uint32_t i)
{
    t->mops[i].nil = 0;
    t->mops[i].text = 0;
    t->mops[i].off = (uint32_t)t->n_res;
    t->mops[i].len = 0;
}

int txn_writes(const txn *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->mops[i].f != TXN_R) return 1;
    return 0;
}

int txn_reads(const txn *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->mops[i].f == TXN_R) return 1;
    return 0;
}
