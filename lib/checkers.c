/*
 * checkers.c -- iso_check: the checker table's rows, choosing the workload
 * of a history that does not say, and running the row's checker.
 */
#include "checkers.h"
#include "check/check.h"
#include "linear/linear.h"
#include "report/report.h"
#include "workload/list_append/list_append.h"
#include "workload/rw_register/rw_register.h"

#include <string.h>

#define ROW(id, name, kind, ops) {ISOLDE_WORKLOAD_##id, name, kind, ops},
static const iso_checker checkers[] = {ISO_CHECKERS(ROW)};
#undef ROW
#define N_CHECKERS (sizeof checkers / sizeof checkers[0])

/* Old spellings that still work (isolde check --help says which). */
static const struct { const char *name; isolde_workload w; } aliases[] = {
    {"set", ISOLDE_WORKLOAD_LIN_SET}, /* before Jepsen's set checker had the name */
};

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
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].name, name) == 0) {
            *out = aliases[i].w;
            return ISOLDE_OK;
        }
    return ISOLDE_ERR_USAGE;
}


static isolde_workload detect_workload(const isolde_history *h)
{
    if (h->workload_hint != ISOLDE_WORKLOAD_AUTO) return h->workload_hint;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op) || !iso_is_seq(op->value)) continue;
        size_t n = iso_seq_len(&h->store, op->value);
        const iso_val *m = iso_seq_items(&h->store, op->value);
        for (size_t j = 0; j < n; j++) {
            if (!iso_is_seq(m[j]) || !iso_seq_len(&h->store, m[j])) continue;
            iso_val f = iso_seq_items(&h->store, m[j])[0];
            if (iso_name_is(&h->store, f, "append")) return ISOLDE_WORKLOAD_LIST_APPEND;
            if (iso_name_is(&h->store, f, "w")) return ISOLDE_WORKLOAD_RW_REGISTER;
        }
    }
    return ISOLDE_WORKLOAD_LIST_APPEND;
}


struct check_call {
    const isolde_history *h;
    const isolde_check_opts *user;
    isolde_result **out;
};

static int check(void *arg, isolde_error *err)
{
    struct check_call *c = arg;
    isolde_check_opts o;
    if (iso_check_opts_copy(c->user, &o, err)) return -1;
    const isolde_history *h = c->h;
    isolde_workload wl = o.workload != ISOLDE_WORKLOAD_AUTO ? o.workload : detect_workload(h);
    const iso_checker *k = iso_checker_of(wl);
    if (!k) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown workload %d", (int)wl);
    if (k->kind == ISO_CHECKER_LIN) return iso_lin_check(h, &o, wl, c->out, err);
    return iso_check_txns(h, &o, k->ops, &iso_report_txn_kind, c->out, err);
}

isolde_status isolde_check(const isolde_history *h, const isolde_check_opts *o, isolde_result **out,
                           isolde_error *err)
{
    struct check_call c = {h, o, out};
    *out = NULL;
    isolde_status s = iso_call(check, &c, err);
    if (s) *out = NULL;
    return s;
}
