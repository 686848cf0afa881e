/*
 * cli_check.c -- the check options (one table, parsed the same way by
 * `check` and `run`), running a check and printing its report, and the
 * CLI's one error printer.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int set_workload(void *at, const char *v)
{
    if (isolde_workload_parse(v, at) == ISOLDE_OK) return 0;
    fprintf(stderr, "isolde: unknown model '%s' (list-append, rw-register, register, "
                    "cas-register, kv, mutex, fifo-queue, lin-set)\n", v);
    return -1;
}

static int set_format(void *at, const char *v)
{
    if (isolde_format_parse(v, at) == ISOLDE_OK) return 0;
    fprintf(stderr, "isolde: unknown format '%s'\n", v);
    return -1;
}

static int set_cas_fail(void *at, const char *v)
{
    isolde_cas_fail *c = at;
    if (!strcmp(v, "noop")) *c = ISOLDE_CAS_FAIL_NOOP;
    else if (!strcmp(v, "false")) *c = ISOLDE_CAS_FAIL_FALSE;
    else return fprintf(stderr, "isolde: --cas-fail takes noop or false\n"), -1;
    return 0;
}

static int set_int(void *at, const char *v, const char *opt, double lo, double hi)
{
    long x;
    if (cli_long("check", opt, v, lo, hi, &x)) return -1;
    *(int *)at = (int)x;
    return 0;
}

static int set_examples(void *at, const char *v) { return set_int(at, v, "--max-examples", 0, 1e9); }
static int set_threads(void *at, const char *v) { return set_int(at, v, "--threads", 0, 64); }

#define C(f) offsetof(cli_check, f)
#define LMAX 9.2e18
static const cli_opt check_opts[] = {
    {'m', "model", CLI_CALL, C(opts.workload), "WORKLOAD",
     "list-append, rw-register (transactional; default: from the history), register, "
     "cas-register, kv, mutex, fifo-queue, lin-set (linearizability; 'set' is lin-set's old name)",
     0, 0, set_workload, 0},
    {'c', "consistency-models", CLI_STRING, C(opts.models), "L",
     "comma-separated models (default strict-serializable; '' checks none, only -a); any of Elle's 54 names (isolde models lists them)",
     0, 0, NULL, 0},
    {'a', "anomalies", CLI_STRING, C(opts.anomalies), "L",
     "comma-separated anomalies to look for as well (e.g. G1,G2; isolde models)", 0, 0, NULL, 0},
    {'s', "cycle-search-timeout", CLI_LONG, C(opts.cycle_search_timeout_ms), "MS",
     "budget per strongly connected component (1000)", 0, LMAX, NULL, 0},
    {'f', "format", CLI_CALL, C(read.format), "F", "auto, edn, json, jsonl, onelite, isocheck, jepsen-log",
     0, 0, set_format, 0},
    {'d', "directory", CLI_STRING, C(dir), "DIR", "write one text file per anomaly type into DIR", 0, 0,
     NULL, 0},
    {0, "json", CLI_FLAG, C(json), NULL, "print the result as JSON (Elle's keys)", 0, 0, NULL, 1},
    {'v', "verbose", CLI_FLAG, C(json), NULL, NULL, 0, 0, NULL, 1},
    {0, "max-examples", CLI_CALL, C(report.max_examples), "N", "proofs printed per anomaly type in text (3)",
     0, 0, set_examples, 0},
    {'j', "threads", CLI_CALL, C(opts.threads), "N", "worker threads (default: one per core)", 0, 0,
     set_threads, 0},
    {0, "wfr-keys", CLI_FLAG, C(opts.wfr_keys), NULL,
     "rw-register: a write after a read of a key follows the value read", 0, 0, NULL, 1},
    {0, "sequential-keys", CLI_FLAG, C(opts.sequential_keys), NULL,
     "rw-register: process order implies each key's version order", 0, 0, NULL, 1},
    {0, "linearizable-keys", CLI_FLAG, C(opts.linearizable_keys), NULL,
     "rw-register: real-time order implies it", 0, 0, NULL, 1},
    {0, "realtime-versions", CLI_FLAG, C(opts.linearizable_keys), NULL, NULL, 0, 0, NULL, 1},
    {0, "transaction-order", CLI_STRING, C(opts.transaction_order_file), "FILE",
     "rw-register: JSON {completion index: commit rank}", 0, 0, NULL, 0},
    {0, "timeout", CLI_LONG, C(opts.timeout_ms), "MS", "linearizability: give up (unknown) after MS", 0,
     LMAX, NULL, 0},
    {0, "cas-fail", CLI_CALL, C(opts.cas_fail), "noop|false",
     "linearizability: a failed cas did not happen / returned false", 0, 0, set_cas_fail, 0},
};
#undef C

void cli_check_init(cli_check *c)
{
    memset(c, 0, sizeof *c);
    isolde_check_opts_init(&c->opts);
    isolde_report_opts_init(&c->report);
    isolde_read_opts_init(&c->read);
}

cli_table cli_check_table(cli_check *c)
{
    return (cli_table){"check options", check_opts, sizeof check_opts / sizeof check_opts[0], c};
}

void cli_print_error(const isolde_error *e)
{
    char line[1024];
    isolde_error_text(e, line, sizeof line);
    if (e->file[0]) fprintf(stderr, "%s\n", line);
    else fprintf(stderr, "isolde: %s\n", line);
}

int cli_check_validate(const cli_check *c)
{
    isolde_error err;
    if (!isolde_check_opts_validate(&c->opts, &err)) return 0;
    cli_print_error(&err);
    fprintf(stderr, "isolde models lists every model and anomaly name\n");
    return -1;
}

int cli_check_history(cli_check *c, const char *name, const isolde_history *h)
{
    isolde_result *r = NULL;
    isolde_error err;
    if (isolde_check(h, &c->opts, &r, &err)) {
        if (!err.file[0] && name) snprintf(err.file, sizeof err.file, "%s", name);
        cli_print_error(&err);
        return EXIT_ERROR;
    }
    isolde_status s = c->json ? isolde_result_write_json(r, stdout, &err)
                              : isolde_result_write_text(r, stdout, &c->report, &err);
    if (!s && c->dir) s = isolde_result_write_dir(r, c->dir, &err);
    if (s) cli_print_error(&err);
    isolde_validity v = isolde_result_validity(r);
    isolde_result_free(r);
    fflush(stdout);
    return s ? EXIT_ERROR : (int)v;
}
