/* txn.c -- pair client invocations with their completions into transactions. */
#include "txn.h"

#include <stdlib.h>
#include <string.h>

/* Open-addressing map from process (an integer iso_val) to the position of
 * its outstanding invocation. */
typedef struct pending {
    iso_val *proc;
    uint32_t *pos;   /* ISO_NONE: slot free */
    uint32_t *txn;
    size_t cap;
} pending;

static size_t slot_of(const pending *p, iso_val proc)
{
    uint64_t x = proc * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(x >> 20) & (p->cap - 1);
    while (p->pos[i] != ISO_NONE && p->proc[i] != proc) i = (i + 1) & (p->cap - 1);
    return i;
}

static void pending_init(pending *p, size_t cap)
{
    p->cap = cap;
    p->proc = iso_xmalloc(cap * sizeof *p->proc);
    p->pos = iso_xmalloc(cap * sizeof *p->pos);
    p->txn = iso_xmalloc(cap * sizeof *p->txn);
    memset(p->pos, 0xff, cap * sizeof *p->pos);
}

static void pending_free(pending *p)
{
    free(p->proc);
    free(p->pos);
    free(p->txn);
}

/* One transaction per completion, invocations ignored. */
static void completions_only(const iso_history *h, iso_txns *out)
{
    size_t n = 0, cap = 0;
    iso_txn *t = NULL;
    for (size_t i = 0; i < h->n_ops; i++)
        if (iso_op_is_client(&h->ops[i]) && h->ops[i].type != ISO_OP_INVOKE)
            ISO_PUSH(t, n, cap, ((iso_txn){ISO_NONE, (uint32_t)i, h->ops[i].type}));
    out->t = t;
    out->n = n;
}

int iso_txns_pair(const iso_history *h, int strict, iso_txns *out, iso_error *err)
{
    size_t cap = 64, n = 0, tcap = 0;
    while (cap < 2 * h->n_ops + 2) cap *= 2; /* processes <= ops */
    pending p;
    pending_init(&p, cap);
    iso_txn *t = NULL;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op)) continue;
        size_t s = slot_of(&p, op->process);
        if (op->type == ISO_OP_INVOKE) {
            if (p.pos[s] != ISO_NONE) {
                const iso_op *prev = &h->ops[p.pos[s]];
                pending_free(&p);
                free(t);
                if (!strict) {
                    completions_only(h, out);
                    return 0;
                }
                return iso_fail(err, h->name, op->line, op->col,
                                "process %lld invoked again while its invocation at line %u "
                                "(index %lld) had not completed; real-time and process order need each "
                                "process to run one operation at a time",
                                (long long)iso_as_int(op->process), prev->line,
                                (long long)prev->index);
            }
            p.proc[s] = op->process;
            p.pos[s] = (uint32_t)i;
            p.txn[s] = (uint32_t)n;
            ISO_PUSH(t, n, tcap, ((iso_txn){(uint32_t)i, ISO_NONE, ISO_OP_INFO}));
        } else if (p.pos[s] != ISO_NONE) {
            t[p.txn[s]].cmp = (uint32_t)i;
            t[p.txn[s]].type = op->type;
            p.pos[s] = ISO_NONE;
            /* re-home displaced entries of the probe chain */
            for (size_t j = (s + 1) & (cap - 1); p.pos[j] != ISO_NONE; j = (j + 1) & (cap - 1)) {
                iso_val pr = p.proc[j];
                uint32_t ps = p.pos[j], tx = p.txn[j];
                p.pos[j] = ISO_NONE;
                size_t k = slot_of(&p, pr);
                p.proc[k] = pr; p.pos[k] = ps; p.txn[k] = tx;
            }
        } else {
            ISO_PUSH(t, n, tcap, ((iso_txn){ISO_NONE, (uint32_t)i, op->type}));
        }
    }
    pending_free(&p);
    out->t = t;
    out->n = n;
    return 0;
}

void iso_txns_free(iso_txns *t)
{
    free(t->t);
    t->t = NULL;
    t->n = 0;
}
