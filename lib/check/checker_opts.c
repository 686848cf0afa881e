/*
 * check/checker_opts.c -- the checkers' own options, as backends' are:
 * one table (each option's name, kind of value, default and help, where
 * its value goes, and the workloads that use it), read from
 * isolde_check_opts.checker_opts ("total=30", "wfr-keys") into what the
 * checkers are given; and the table as the public header lists it.
 *
 * Invariant: every name a string gives is some option's, and every value
 * is of its option's kind, before any checker runs; a checker reads the
 * fields it uses and no other.
 */
#include "check/check.h"

#include <stddef.h>
#include <string.h>

#include "core/names.h"
#include "core/options.h"

#define AT(f) offsetof(iso_checker_opts, f)
#define W(w) (1u << ISOLDE_WORKLOAD_##w)
#define REGISTERS (W(REGISTER) | W(CAS_REGISTER) | W(KV) | W(MULTI_REGISTER) | W(PORCUPINE_KV))
#define FLAG ISOLDE_OPTION_FLAG
#define STRING ISOLDE_OPTION_STRING
#define INT ISOLDE_OPTION_INT

static const char *const cas_fails[] = {"noop", "false", NULL};
static const char *const exact_whens[] = {"auto", "always", "never", NULL};

static const struct checker_option {
    iso_option opt;
    unsigned workloads; /* W(...) of those that use it */
} options[] = {
    {{{"wfr-keys", FLAG, NULL, NULL, "a write after a read of a key follows the value read"},
      AT(wfr_keys), 0, 0, NULL}, W(RW_REGISTER)},
    {{{"sequential-keys", FLAG, NULL, NULL, "process order implies each key's version order"},
      AT(sequential_keys), 0, 0, NULL}, W(RW_REGISTER)},
    {{{"linearizable-keys", FLAG, NULL, NULL, "real-time order implies each key's version order"},
      AT(linearizable_keys), 0, 0, NULL}, W(RW_REGISTER)},
    {{{"transaction-order", STRING, "FILE", NULL, "JSON {completion index: commit rank}"},
      AT(transaction_order), 0, 0, NULL}, W(RW_REGISTER)},
    {{{"exact", STRING, "auto|always|never", "auto", "serializable and snapshot isolation decided exactly (a SAT "
       "solver over the writer pairs no evidence orders, the appends no read shows): when some are unordered, "
       "always, or never"},
      AT(exact), 0, 0, exact_whens}, W(RW_REGISTER) | W(LIST_APPEND)},
    {{{"cas-fail", STRING, "noop|false", NULL, "a failed cas did not happen / returned false (default: "
       "per format: jepsen.log's returned false, the others' did not happen)"},
      AT(cas_fail), 0, 0, cas_fails}, W(CAS_REGISTER) | W(KV)},
    {{{"initial-value", STRING, "V", NULL, "the registers' first value, written as in the history (default "
       "nil; \"\" for porcupine-kv); for kv, multi-register, porcupine-kv a map {key value} sets it per key"},
      AT(initial_value), 0, 0, NULL}, REGISTERS},
    {{{"total", INT, "N", NULL, "what every read's balances sum to (default: the sum of a :setup op's "
       "opening balances, else of the first read's)"},
      AT(total), -9.2e18, 9.2e18, NULL}, W(BANK)},
    {{{"allow-negative-balances", FLAG, NULL, NULL, "a negative balance is no error"},
      AT(allow_negative_balances), 0, 0, NULL}, W(BANK)},
    {{{"group-size", INT, "N", "0", "keys every read reads (0: any; a read of another number is illegal)"},
      AT(group_size), 0, 1e9, NULL}, W(LONG_FORK)},
    {{{"linearizable", FLAG, NULL, NULL, "a stale element (missed by a read that began after it was known) "
       "is an error"},
      AT(linearizable), 0, 0, NULL}, W(SET_FULL)},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

const isolde_option *isolde_checker_option(isolde_workload w, size_t i)
{
    if (w <= ISOLDE_WORKLOAD_AUTO || (unsigned)w >= 32) return NULL; /* AUTO, or no workload at all */
    for (size_t k = 0; k < N_OPTIONS; k++)
        if ((options[k].workloads >> w & 1) && i-- == 0) return &options[k].opt.pub;
    return NULL;
}

static const char *option_at(size_t i, void *arg)
{
    (void)arg;
    return i < N_OPTIONS ? options[i].opt.pub.name : NULL;
}

/* The option kv names: NULL with err when it is none. */
static const iso_option *option_of(const char *kv, isolde_error *err)
{
    for (size_t k = 0; k < N_OPTIONS; k++)
        if (iso_option_of(&options[k].opt, 1, kv)) return &options[k].opt;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(kv, "="), kv);
    const char *close = iso_closest_name(name, option_at, NULL);
    if (close) iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown checker option '%s' (did you mean %s?)", name, close);
    else iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown checker option '%s'", name);
    return NULL;
}

int iso_checker_opts_of(const isolde_check_opts *o, iso_checker_opts *co, isolde_error *err)
{
    memset(co, 0, sizeof *co);
    co->total = ISO_NO_TOTAL;
    for (size_t k = 0; k < N_OPTIONS; k++)
        if (iso_option_defaults("check", &options[k].opt, 1, co, err)) return -1;
    for (size_t i = 0; i < o->n_checker_opts; i++) {
        const iso_option *op = o->checker_opts[i] ? option_of(o->checker_opts[i], err) : NULL;
        if (!op) return o->checker_opts[i] ? -1 : iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "checker option %zu is NULL", i);
        if (iso_option_set("check", op, o->checker_opts[i], co, err)) return -1;
    }
    return 0;
}
