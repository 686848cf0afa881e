/*
 * shrink.c -- a disagreement between isolde and the oracle, made small:
 * transactions, then micro-ops, then list elements are removed one at a
 * time while isolde (through its public API, -c MODEL) and the oracle keep
 * the verdicts they give the original. The result is a fixpoint: no single
 * removal keeps the disagreement.
 */
#include <stdlib.h>
#include <string.h>

#include "isolde.h"
#include "oracle.h"

/* isolde's verdict: ISOLDE_VALID / INVALID / UNKNOWN, or -1 (error). */
static int isolde_verdict(const struct or_hist *h, const char *model)
{
    size_t len;
    char *text = or_jsonl_string(h, &len);
    isolde_read_opts ro;
    isolde_read_opts_init(&ro);
    ro.format = ISOLDE_FORMAT_JSONL;
    isolde_history *ih = NULL;
    isolde_result *res = NULL;
    isolde_error err;
    int v = -1;
    if (isolde_history_read_mem("shrink", text, len, &ro, &ih, &err) == ISOLDE_OK) {
        isolde_check_opts o;
        isolde_check_opts_init(&o);
        o.workload = h->wl == OR_LA ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER;
        o.models = model, o.threads = 1;
        if (isolde_check(ih, &o, &res, &err) == ISOLDE_OK) v = (int)isolde_result_validity(res);
    }
    isolde_result_free(res);
    isolde_history_free(ih);
    free(text);
    return v;
}

struct target {
    const struct or_model *m;
    bool oracle;
    int isolde;
};

static bool keeps(const struct or_hist *h, const struct target *t)
{
    return or_decide(h, t->m, NULL) == t->oracle && isolde_verdict(h, t->m->name) == t->isolde;
}

static void drop_txn(struct or_hist *h, int i)
{
    memmove(&h->t[i], &h->t[i + 1], (size_t)(h->n - i - 1) * sizeof h->t[0]);
    h->n--;
}

static void drop_mop(struct or_txn *t, int j)
{
    memmove(&t->m[j], &t->m[j + 1], (size_t)(t->nm - j - 1) * sizeof t->m[0]);
    t->nm--;
}

static bool try_txns(struct or_hist *h, const struct target *t)
{
    static struct or_hist c;
    for (int i = h->n - 1; i >= 0 && h->n > 1; i--) {
        c = *h;
        drop_txn(&c, i);
        if (keeps(&c, t)) return *h = c, true;
    }
    return false;
}

static bool try_mops(struct or_hist *h, const struct target *t)
{
    static struct or_hist c;
    for (int i = 0; i < h->n; i++)
        for (int j = h->t[i].nm - 1; j >= 0 && h->t[i].nm > 1; j--) {
            c = *h;
            drop_mop(&c.t[i], j);
            if (keeps(&c, t)) return *h = c, true;
        }
    return false;
}

static bool try_elements(struct or_hist *h, const struct target *t)
{
    static struct or_hist c;
    for (int i = 0; i < h->n && h->wl == OR_LA; i++)
        for (int j = 0; j < h->t[i].nm; j++)
            for (int e = 0; e < h->t[i].m[j].n; e++) {
                c = *h;
                struct or_mop *m = &c.t[i].m[j];
                memmove(m->rd + e, m->rd + e + 1, (size_t)(m->n - e - 1) * sizeof m->rd[0]);
                m->n--;
                if (keeps(&c, t)) return *h = c, true;
            }
    return false;
}

int or_shrink(const char *path, int wl, const char *model, FILE *out)
{
    static struct or_hist h;
    struct target t = {or_model_find(model), false, 0};
    if (!t.m) return fprintf(stderr, "oracle: unknown model %s\n", model), 2;
    if (!or_read_jsonl(path, wl, &h)) return 2;
    t.oracle = or_decide(&h, t.m, NULL), t.isolde = isolde_verdict(&h, model);
    static const char *const names[] = {"valid", "invalid", "unknown"};
    if (t.isolde < 0) return fprintf(stderr, "oracle: isolde cannot check %s at %s\n", path, model), 2;
    fprintf(stderr, "oracle: %s at %s: oracle %s, isolde %s\n", path, model, t.oracle ? "valid" : "invalid",
            names[t.isolde]);
    while (try_txns(&h, &t) || try_mops(&h, &t) || try_elements(&h, &t)) continue;
    or_compact_positions(&h);
    or_write_jsonl(&h, out);
    return 0;
}
