/*
 * check/check.c -- isolde_check: the checker table's rows, choosing the
 * workload of a history that does not say, and running the row's checker
 * (a transactional one with the request its options make).
 */
#include "check/check.h"
#include "elle/list_append/list_append.h"
#include "elle/rw_register/rw_register.h"
#include "linear/linear.h"

#include <stdio.h>
#include <string.h>

#define ROW(id, name, kind, ops, jepsen) {ISOLDE_WORKLOAD_##id, name, kind, ops, jepsen},
static const iso_checker checkers[] = {ISO_CHECKERS(ROW)};
#undef ROW
#define N_CHECKERS (sizeof checkers / sizeof checkers[0])


const iso_checker *iso_checker_of(isolde_workload w)
{
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (checkers[i].workload == w) return &checkers[i];
    return NULL;
}

const char *isolde_workload_name(isolde_workload w)
{
    if (w == ISOLDE_WORKLOAD_AUTO) return "auto";
    const iso_checker *c = iso_checker_of(w);
    return c ? c->name : "?";
}

const char *isolde_workload_at(size_t i) { return i < N_CHECKERS ? checkers[i].name : NULL; }

isolde_status isolde_workload_parse(const char *name, isolde_workload *out)
{
    if (!name) return ISOLDE_ERR_USAGE;
    if (strcmp(name, "auto") == 0) {
        *out = ISOLDE_WORKLOAD_AUTO;
        return ISOLDE_OK;
    }
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (strcmp(checkers[i].name, name) == 0) {
            *out = checkers[i].workload;
            return ISOLDE_OK;
        }
    return ISOLDE_ERR_USAGE;
}

/* ---- inferring the workload (docs/LINEARIZABILITY.md, "Which model") ---- */

/* The :f names inference knows; F_OTHER is any other. */
enum fname { F_READ, F_WRITE, F_CAS, F_ACQUIRE, F_RELEASE, F_ENQUEUE, F_DEQUEUE, F_ADD,
             F_GET, F_PUT, F_APPEND, F_TXN, F_TRANSFER, F_OTHER, N_FNAMES };
static const char *const fnames[N_FNAMES - 1] = {"read", "write", "cas", "acquire", "release",
                                                 "enqueue", "dequeue", "add", "get", "put",
                                                 "append", "txn", "transfer"};
#define BIT(f) (1u << (f))
#define ONLY(seen, set) ((seen) && !((seen) & ~(set)))

struct evidence {
    iso_name_atoms names[N_FNAMES - 1]; /* fnames as atoms of the history's store */
    unsigned seen;           /* BIT(fname) of every client op's :f */
    iso_val other;           /* one :f that is F_OTHER (for the message) */
    int txn;                 /* micro-ops: 1 list-append, 2 rw-register, 3 multi-register, 4 txn */
    int all_pairs;           /* every read / write / cas value is a [key value] tuple */
};

static enum fname fname_of(const struct evidence *e, iso_val f)
{
    for (int i = 0; i < F_OTHER; i++)
        if (iso_name_atoms_has(&e->names[i], f)) return (enum fname)i;
    return F_OTHER;
}

/* What the micro-ops of a transaction value say: 1 append, 2 w, 3 Knossos
 * read / write, 4 other names, 0 not micro-ops. */
static int mop_evidence(const iso_store *s, iso_val v)
{
    if (!iso_is_seq(v) || iso_seq_kind(s, v) > ISO_SEQ_LIST) return 0;
    size_t n = iso_seq_len(s, v);
    iso_val buf[3];
    const iso_val *m = iso_seq_items(s, v, buf);
    int knossos = 0, any = 0;
    for (size_t j = 0; j < n; j++) {
        if (!iso_is_seq(m[j]) || !iso_seq_len(s, m[j])) continue;
        iso_val f = iso_seq_item(s, m[j], 0);
        if (iso_name_is(s, f, "append")) return 1;
        if (iso_name_is(s, f, "w")) return 2;
        knossos |= iso_name_is(s, f, "read") || iso_name_is(s, f, "write");
        any |= iso_name_text(s, f, NULL) != NULL;
    }
    return knossos ? 3 : any ? 4 : 0;
}

static int is_pair(const iso_store *s, iso_val v)
{
    return iso_is_seq(v) && iso_seq_kind(s, v) <= ISO_SEQ_LIST && iso_seq_len(s, v) == 2;
}

/* A read / write / cas value as Jepsen's independent keys write it. */
static int keyed_value(const iso_store *s, enum fname f, iso_val v)
{
    if (iso_is_nil(v)) return 1;
    if (!is_pair(s, v)) return 0;
    return f != F_CAS || is_pair(s, iso_seq_item(s, v, 1));
}

/* 1 when a transactional workload is certain (*w set). */
static int observe(struct evidence *e, const isolde_history *h, const iso_op *op,
                   isolde_workload *w)
{
    const iso_store *s = &h->store;
    enum fname f = fname_of(e, iso_op_f(h, op));
    int m = mop_evidence(s, op->value);
    if (m == 1 || m == 2) {
        *w = m == 1 ? ISOLDE_WORKLOAD_LIST_APPEND : ISOLDE_WORKLOAD_RW_REGISTER;
        return 1;
    }
    if (m && (!e->txn || m == 4)) e->txn = m;
    e->seen |= BIT(f);
    if (f == F_OTHER && !e->other) e->other = iso_op_f(h, op);
    if (f <= F_CAS && !keyed_value(s, f, op->value)) e->all_pairs = 0;
    return 0;
}

static isolde_workload register_kind(const struct evidence *e)
{
    if (e->all_pairs) return ISOLDE_WORKLOAD_KV;
    return e->seen & BIT(F_CAS) ? ISOLDE_WORKLOAD_CAS_REGISTER : ISOLDE_WORKLOAD_REGISTER;
}

/* The models whose ops have these :f names, for a message. */
static const struct { unsigned fs; const char *models; } suggest[] = {
    {BIT(F_READ) | BIT(F_WRITE) | BIT(F_CAS), "register, cas-register, kv"},
    {BIT(F_ADD) | BIT(F_READ), "set, set-full, counter, lin-set"},
    {BIT(F_READ) | BIT(F_TRANSFER), "bank"},
    {BIT(F_ACQUIRE) | BIT(F_RELEASE), "mutex"},
    {BIT(F_ENQUEUE) | BIT(F_DEQUEUE), "fifo-queue"},
    {BIT(F_GET) | BIT(F_PUT) | BIT(F_APPEND), "porcupine-kv"},
    {BIT(F_TXN), "list-append, rw-register, multi-register"},
};

/* When no guess fits: the :f names seen and the -m to try. */
static int cannot_tell(const struct evidence *e, const isolde_history *h, isolde_error *err)
{
    iso_buf names = {0}, other = {0}, try = {0};
    for (int i = 0; i < F_OTHER; i++)
        if (e->seen & BIT(i)) iso_buf_printf(&names, "%s:%s", names.n ? ", " : "", fnames[i]);
    if (e->other) {
        iso_val_edn(&h->store, e->other, &other);
        iso_buf_printf(&names, "%s%s", names.n ? ", " : "", iso_buf_cstr(&other));
    }
    for (size_t i = 0; !e->other && i < sizeof suggest / sizeof suggest[0]; i++)
        if (e->seen & suggest[i].fs) iso_buf_printf(&try, "%s%s", try.n ? ", " : "", suggest[i].models);
    if (e->other)
        iso_fail(err, ISOLDE_ERR_USAGE, h->name, 0, 0,
                 "cannot tell the model from the ops' :f (%s): no model isolde checks has %s; -m names "
                 "one: list-append, rw-register (transactions of micro-ops), register, cas-register, "
                 "kv, mutex, fifo-queue, lin-set, multi-register, porcupine-kv (linearizability), "
                 "bank, set, set-full, counter, long-fork (Jepsen's)",
                 iso_buf_cstr(&names), iso_buf_cstr(&other));
    else
        iso_fail(err, ISOLDE_ERR_USAGE, h->name, 0, 0,
                 "cannot tell the model from the ops' :f (%s): give -m, e.g. %s", iso_buf_cstr(&names),
                 iso_buf_cstr(&try));
    iso_buf_free(&names);
    iso_buf_free(&other);
    iso_buf_free(&try);
    return -1;
}

/* The workload of a history that does not say: transactions by their
 * micro-ops (append: list-append, w: rw-register, read / write:
 * multi-register), single-object ops by their :f names (a register needs
 * a write or cas: reads alone are Jepsen's bank or set as often; reads
 * and transfers are Jepsen's bank). */
static int detect_workload(const isolde_history *h, isolde_workload *w, isolde_error *err)
{
    struct evidence e = {.all_pairs = 1};
    *w = h->workload_hint;
    if (*w != ISOLDE_WORKLOAD_AUTO) return 0;
    for (int i = 0; i < F_OTHER; i++) iso_name_atoms_find(&h->store, fnames[i], &e.names[i]);
    for (size_t i = 0; i < h->n_ops; i++)
        if (iso_op_is_client(&h->ops[i]) && observe(&e, h, &h->ops[i], w)) return 0;
    unsigned regs = BIT(F_READ) | BIT(F_WRITE) | BIT(F_CAS);
    if (e.txn == 3 && ONLY(e.seen, BIT(F_TXN))) *w = ISOLDE_WORKLOAD_MULTI_REGISTER;
    else if (e.txn || !e.seen || e.seen == BIT(F_TXN)) *w = ISOLDE_WORKLOAD_LIST_APPEND;
    else if (ONLY(e.seen, regs) && (e.seen & ~BIT(F_READ))) *w = register_kind(&e);
    else if (ONLY(e.seen, BIT(F_ACQUIRE) | BIT(F_RELEASE))) *w = ISOLDE_WORKLOAD_MUTEX;
    else if (ONLY(e.seen, BIT(F_ENQUEUE) | BIT(F_DEQUEUE))) *w = ISOLDE_WORKLOAD_FIFO_QUEUE;
    else if (ONLY(e.seen, BIT(F_GET) | BIT(F_PUT) | BIT(F_APPEND))) *w = ISOLDE_WORKLOAD_PORCUPINE_KV;
    else if (ONLY(e.seen, BIT(F_READ) | BIT(F_TRANSFER)) && (e.seen & BIT(F_TRANSFER))) *w = ISOLDE_WORKLOAD_BANK;
    else return cannot_tell(&e, h, err);
    return 0;
}

struct check_call {
    const isolde_history *h;
    const isolde_check_opts *user;
    isolde_result **out;
    int shown_edges; /* iso_check_early */
};

/* A transactional check, asked for what o's -c and -a name; its errors
 * name the history when they name no file. */
static int check_txns(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                      const iso_workload_ops *wl, isolde_result **out, isolde_error *err)
{
    iso_request req;
    if (!iso_request_of(o, &req, err) && !iso_elle_check(h, o, co, &req, wl, out, err)) return 0;
    if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", h->name ? h->name : "");
    return -1;
}

static int run_checker(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                       isolde_workload wl, isolde_result **out, isolde_error *err)
{
    const iso_checker *k = iso_checker_of(wl);
    if (!k) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown workload %d", (int)wl);
    iso_buf why = {0};
    if (k->kind == ISO_CHECKER_JEPSEN && h->n_ops) /* Jepsen's checkers choose their ops (docs/CHECKERS.md) */
        return k->jepsen(h, co, out, err);
    if (iso_history_no_client_op(h, &why)) { /* every model: nothing read is nothing valid */
        *out = iso_check_empty(k->kind != ISO_CHECKER_TXN ? k->name : NULL, iso_buf_cstr(&why));
        iso_buf_free(&why);
        return 0;
    }
    if (k->kind == ISO_CHECKER_LIN) return iso_lin_check(h, o, co, wl, out, err);
    return check_txns(h, o, co, k->ops, out, err);
}

static int check(void *arg, isolde_error *err)
{
    struct check_call *c = arg;
    isolde_check_opts o;
    iso_checker_opts co;
    if (iso_check_opts_copy(c->user, &o, err) || iso_checker_opts_of(&o, &co, err)) return -1;
    co.shown_edges = c->shown_edges;
    const isolde_history *h = c->h;
    isolde_workload wl = o.workload;
    if (wl == ISOLDE_WORKLOAD_AUTO && detect_workload(h, &wl, err)) return -1;
    if (run_checker(h, &o, &co, wl, c->out, err)) return -1;
    (*c->out)->workload = wl;
    return 0;
}

static isolde_status check_with(const isolde_history *h, const isolde_check_opts *o, isolde_result **out,
                                int shown_edges, isolde_error *err)
{
    struct check_call c = {h, o, out, shown_edges};
    *out = NULL;
    isolde_status s = iso_call(check, &c, err);
    if (s) *out = NULL;
    return s;
}

isolde_status isolde_check(const isolde_history *h, const isolde_check_opts *o, isolde_result **out,
                           isolde_error *err)
{
    return check_with(h, o, out, 0, err);
}

int iso_check_early(const isolde_history *h, const isolde_check_opts *o, isolde_result **out, isolde_error *err)
{
    return check_with(h, o, out, 1, err) ? -1 : 0;
}
