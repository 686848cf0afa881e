/*
 * checkers.c -- iso_check: the checker table's rows, choosing the workload
 * of a history that does not say, and running the row's checker.
 */
#include "checkers.h"
#include "linear/linear.h"
#include "report/report.h"
#include "workload/list_append/list_append.h"
#include "workload/rw_register/rw_register.h"

#include <string.h>

#define ROW(id, name, kind, ops) {ISO_WORKLOAD_##id, name, kind, ops},
static const iso_checker checkers[] = {ISO_CHECKERS(ROW)};
#undef ROW
#define N_CHECKERS (sizeof checkers / sizeof checkers[0])

/* Old spellings that still work (isolde check --help says which). */
static const struct { const char *name; iso_workload w; } aliases[] = {
    {"set", ISO_WORKLOAD_LIN_SET}, /* before Jepsen's set checker had the name */
};

const iso_checker *iso_checker_of(iso_workload w)
{
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (checkers[i].workload == w) return &checkers[i];
    return NULL;
}

const char *iso_workload_name(iso_workload w)
{
    if (w == ISO_WORKLOAD_AUTO) return "auto";
    const iso_checker *c = iso_checker_of(w);
    return c ? c->name : "?";
}

int iso_workload_parse(const char *name, iso_workload *out)
{
    if (!name) return -1;
    if (strcmp(name, "auto") == 0) {
        *out = ISO_WORKLOAD_AUTO;
        return 0;
    }
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (strcmp(checkers[i].name, name) == 0) {
            *out = checkers[i].workload;
            return 0;
        }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].name, name) == 0) {
            *out = aliases[i].w;
            return 0;
        }
    return -1;
}

void iso_check_opts_init(iso_check_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cycle_search_timeout_ms = 1000;
}

static iso_workload detect_workload(const iso_history *h)
{
    if (h->workload_hint != ISO_WORKLOAD_AUTO) return h->workload_hint;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op) || !iso_is_seq(op->value)) continue;
        size_t n = iso_seq_len(&h->store, op->value);
        const iso_val *m = iso_seq_items(&h->store, op->value);
        for (size_t j = 0; j < n; j++) {
            if (!iso_is_seq(m[j]) || !iso_seq_len(&h->store, m[j])) continue;
            iso_val f = iso_seq_items(&h->store, m[j])[0];
            if (iso_name_is(&h->store, f, "append")) return ISO_WORKLOAD_LIST_APPEND;
            if (iso_name_is(&h->store, f, "w")) return ISO_WORKLOAD_RW_REGISTER;
        }
    }
    return ISO_WORKLOAD_LIST_APPEND;
}


int iso_check(const iso_history *h, const iso_check_opts *o, iso_result **out, iso_error *err)
{
    iso_check_opts defaults;
    if (!o) { iso_check_opts_init(&defaults); o = &defaults; }
    iso_error scratch;
    if (!err) err = &scratch;
    memset(err, 0, sizeof *err);
    *out = NULL;
    iso_workload wl = o->workload != ISO_WORKLOAD_AUTO ? o->workload : detect_workload(h);
    const iso_checker *c = iso_checker_of(wl);
    if (!c) return iso_fail(err, NULL, 0, 0, "unknown workload %d", (int)wl);
    if (c->kind == ISO_CHECKER_LIN) return iso_lin_check(h, o, wl, out, err);
    return iso_check_txns(h, o, c->ops, &iso_report_txn_kind, out, err);
}
