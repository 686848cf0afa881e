/* cli_check.c -- check options shared by `check` and `run`, and printing a
 * check's report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char cli_check_help[] =
    "  -m, --model WORKLOAD        list-append, rw-register (transactional; default: from\n"
    "                              the history), register, cas-register, kv, mutex,\n"
    "                              fifo-queue, set (linearizability)\n"
    "  -c, --consistency-models L  comma-separated models (default strict-serializable;\n"
    "                              '' checks none, only -a); any of Elle's 54 names\n"
    "  -a, --anomalies L           comma-separated anomalies to look for as well (e.g. G1,G2)\n"
    "  -s, --cycle-search-timeout MS   budget per strongly connected component (1000)\n"
    "  -f, --format F              auto, edn, json, jsonl, onelite, isocheck, jepsen-log\n"
    "  -d, --directory DIR         write one text file per anomaly type into DIR\n"
    "      --json                  print the result as JSON (Elle's keys); -v is a synonym\n"
    "      --max-examples N        proofs printed per anomaly type in text (3)\n"
    "  -j, --threads N             worker threads (default: one per core)\n"
    "  rw-register version-order evidence:\n"
    "      --wfr-keys              a write after a read of a key follows the value read\n"
    "      --sequential-keys       process order implies each key's version order\n"
    "      --linearizable-keys     real-time order implies it (--realtime-versions)\n"
    "      --transaction-order FILE  JSON {completion index: commit rank}\n"
    "  linearizability:\n"
    "      --timeout MS            give up (unknown) after MS milliseconds\n"
    "      --cas-fail noop|false   a failed cas did not happen / returned false\n";

void cli_check_init(cli_check *c)
{
    memset(c, 0, sizeof *c);
    iso_check_opts_init(&c->opts);
    iso_report_opts_init(&c->report);
}

static int arg_long(const char *opt, const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || end == v || x < 0) {
        fprintf(stderr, "isolde: %s needs a non-negative integer, got '%s'\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* Options without an argument. */
static int flag_option(cli_check *c, const char *a)
{
    if (!strcmp(a, "--json") || !strcmp(a, "-v") || !strcmp(a, "--verbose")) c->json = 1;
    else if (!strcmp(a, "--wfr-keys")) c->opts.wfr_keys = 1;
    else if (!strcmp(a, "--sequential-keys")) c->opts.sequential_keys = 1;
    else if (!strcmp(a, "--linearizable-keys") || !strcmp(a, "--realtime-versions")) c->opts.linearizable_keys = 1;
    else return 0;
    return 1;
}

static int is(const char *a, const char *s, const char *l) { return (s && !strcmp(a, s)) || !strcmp(a, l); }

/* An option named by takes_value() with its value v. */
static int value_option(cli_check *c, const char *a, const char *v)
{
    long n;
    if (is(a, "-m", "--model")) {
        if (iso_workload_parse(v, &c->opts.workload)) {
            fprintf(stderr, "isolde: unknown model '%s' (list-append, rw-register, register, "
                            "cas-register, kv, mutex, fifo-queue, set)\n", v);
            return -1;
        }
    } else if (is(a, "-c", "--consistency-models")) c->opts.models = v;
    else if (is(a, "-a", "--anomalies")) c->opts.anomalies = v;
    else if (is(a, "-d", "--directory")) c->dir = v;
    else if (is(a, "-f", "--format")) {
        if (iso_format_parse(v, &c->format)) {
            fprintf(stderr, "isolde: unknown format '%s'\n", v);
            return -1;
        }
    } else if (is(a, "-s", "--cycle-search-timeout")) {
        if (arg_long(a, v, &n)) return -1;
        c->opts.cycle_search_timeout_ms = n;
    } else if (is(a, NULL, "--max-examples")) {
        if (arg_long(a, v, &n)) return -1;
        c->report.max_examples = (int)n;
    } else if (is(a, "-j", "--threads")) {
        if (arg_long(a, v, &n)) return -1;
        c->opts.threads = (int)n;
    } else if (is(a, NULL, "--transaction-order")) c->opts.transaction_order_file = v;
    else if (is(a, NULL, "--timeout")) {
        if (arg_long(a, v, &n)) return -1;
        c->opts.timeout_ms = n;
    } else if (is(a, NULL, "--cas-fail")) {
        if (!strcmp(v, "noop")) c->opts.cas_fail = ISO_CAS_FAIL_NOOP;
        else if (!strcmp(v, "false")) c->opts.cas_fail = ISO_CAS_FAIL_FALSE;
        else { fprintf(stderr, "isolde: --cas-fail takes noop or false\n"); return -1; }
    }
    return 1;
}

/* Options that take a value. */
static int takes_value(const char *a)
{
    static const char *const names[] = {
        "-m", "--model", "-c", "--consistency-models", "-a", "--anomalies", "-d", "--directory",
        "-f", "--format", "-s", "--cycle-search-timeout", "--max-examples", "-j", "--threads",
        "--transaction-order", "--timeout", "--cas-fail"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(a, names[i])) return 1;
    return 0;
}

int cli_check_option(cli_check *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (flag_option(c, a)) return 1;
    /* --opt=value form */
    char name[64];
    const char *eq = strchr(a, '=');
    if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof name) {
        memcpy(name, a, (size_t)(eq - a));
        name[eq - a] = 0;
        return takes_value(name) ? value_option(c, name, eq + 1) : 0;
    }
    if (!takes_value(a)) return 0; /* not a check option */
    if (*i + 1 >= argc) {
        fprintf(stderr, "isolde: %s needs a value\n", a);
        return -1;
    }
    return value_option(c, a, argv[++*i]);
}

static void print_error(const iso_error *e)
{
    if (e->line) fprintf(stderr, "%s:%ld:%ld: %s\n", e->file, e->line, e->col, e->msg);
    else if (e->file[0]) fprintf(stderr, "%s: %s\n", e->file, e->msg);
    else fprintf(stderr, "isolde: %s\n", e->msg);
}

int cli_check_history(const cli_check *c, const char *name, const iso_history *h)
{
    iso_result *r = NULL;
    iso_error err = {0};
    if (iso_check(h, &c->opts, &r, &err)) {
        if (!err.file[0] && name) snprintf(err.file, sizeof err.file, "%s", name);
        print_error(&err);
        return ISO_ERROR;
    }
    int rc = c->json ? iso_result_write_json(r, stdout) : iso_result_write_text(r, stdout, &c->report);
    if (!rc && c->dir && iso_result_write_dir(r, c->dir, &err)) {
        print_error(&err);
        rc = -1;
    }
    iso_validity v = iso_result_validity(r);
    iso_result_free(r);
    fflush(stdout);
    return rc ? ISO_ERROR : (int)v;
}

void cli_print_error(const iso_error *e) { print_error(e); }
