/* gen/txn.c -- a transaction's read results: lists of integers element by
 * element, or kept as the text a database returned. */
#include <string.h>
#include "gen/txn.h"

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
    t->error[0] = '\0';
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
