/* history/txn.c -- pair client invocations with their completions into transactions. */
#include "history/txn.h"

#include <stdlib.h>

/* One transaction per completion, invocations ignored. */
static void completions_only(const isolde_history *h, iso_txns *out)
{
    size_t n = 0, cap = 0;
    iso_txn *t = NULL;
    for (size_t i = 0; i < h->n_ops; i++)
        if (iso_op_is_client(&h->ops[i]) && h->ops[i].type != ISO_OP_INVOKE)
            ISO_PUSH(t, n, cap, ((iso_txn){ISO_NONE, (uint32_t)i, h->ops[i].type}));
    out->t = t;
    out->n = n;
}

static int double_invoke(const isolde_history *h, const iso_op *op, const iso_op *prev, isolde_error *err)
{
    iso_buf p = {0};
    iso_val_edn(&h->store, iso_op_process(h, op), &p);
    iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
             "process %s invoked again while its invocation at line %u (index %lld) had "
             "not completed; real-time and process order need each process to run one "
             "operation at a time",
             iso_buf_cstr(&p), prev->line, (long long)prev->index);
    iso_buf_free(&p);
    return -1;
}

int iso_txns_pair(const isolde_history *h, int strict, iso_txns *out, isolde_error *err)
{
    uint32_t *open = iso_history_per_process(h); /* its open txn */
    size_t n = 0, cap = 0;
    iso_txn *t = NULL;
    int rc = 0;
    for (size_t i = 0; i < h->n_ops && rc == 0; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op)) continue;
        uint32_t p = op->process;
        if (op->type == ISO_OP_INVOKE) {
            if (open[p] != ISO_NONE) {
                rc = strict ? double_invoke(h, op, &h->ops[t[open[p]].inv], err) : 1;
                break;
            }
            open[p] = (uint32_t)n;
            ISO_PUSH(t, n, cap, ((iso_txn){(uint32_t)i, ISO_NONE, ISO_OP_INFO}));
        } else if (open[p] != ISO_NONE) {
            t[open[p]].cmp = (uint32_t)i;
            t[open[p]].type = op->type;
            open[p] = ISO_NONE;
        } else {
            ISO_PUSH(t, n, cap, ((iso_txn){ISO_NONE, (uint32_t)i, op->type}));
        }
    }
    iso_free(open);
    if (rc) {
        iso_free(t);
        if (rc < 0) return -1;
        completions_only(h, out);
        return 0;
    }
    out->t = t;
    out->n = n;
    return 0;
}

void iso_txns_free(iso_txns *t)
{
    iso_free(t->t);
    t->t = NULL;
    t->n = 0;
}
