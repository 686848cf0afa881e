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

/* Options that take a value, by short and long name. */
enum value_opt { O_MODEL, O_MODELS, O_ANOMALIES, O_DIR, O_FORMAT, O_BUDGET, O_EXAMPLES, O_THREADS,
                 O_ORDER, O_TIMEOUT, O_CAS_FAIL };
static const struct { const char *s, *l; enum value_opt o; } value_opts[] = {
    {"-m", "--model", O_MODEL},
    {"-c", "--consistency-models", O_MODELS},
    {"-a", "--anomalies", O_ANOMALIES},
    {"-d", "--directory", O_DIR},
    {"-f", "--format", O_FORMAT},
    {"-s", "--cycle-search-timeout", O_BUDGET},
    {NULL, "--max-examples", O_EXAMPLES},
    {"-j", "--threads", O_THREADS},
    {NULL, "--transaction-order", O_ORDER},
    {NULL, "--timeout", O_TIMEOUT},
    {NULL, "--cas-fail", O_CAS_FAIL},
};

/* The value option named a, or -1. */
static int value_opt_of(const char *a)
{
    for (size_t i = 0; i < sizeof value_opts / sizeof value_opts[0]; i++)
        if ((value_opts[i].s && !strcmp(a, value_opts[i].s)) || !strcmp(a, value_opts[i].l))
            return (int)value_opts[i].o;
    return -1;
}

/* Set option o (spelled a) to v; 1 on success, -1 (with a message) on a
 * bad value. */
static int value_option(cli_check *c, int o, const char *a, const char *v)
{
    long n = 0;
    int numeric = o == O_BUDGET || o == O_EXAMPLES || o == O_THREADS || o == O_TIMEOUT;
    if (numeric && arg_long(a, v, &n)) return -1;
    switch ((enum value_opt)o) {
    case O_MODEL:
        if (!iso_workload_parse(v, &c->opts.workload)) break;
        fprintf(stderr, "isolde: unknown model '%s' (list-append, rw-register, register, "
                        "cas-register, kv, mutex, fifo-queue, set)\n", v);
        return -1;
    case O_FORMAT:
        if (!iso_format_parse(v, &c->format)) break;
        fprintf(stderr, "isolde: unknown format '%s'\n", v);
        return -1;
    case O_CAS_FAIL:
        if (!strcmp(v, "noop")) c->opts.cas_fail = ISO_CAS_FAIL_NOOP;
        else if (!strcmp(v, "false")) c->opts.cas_fail = ISO_CAS_FAIL_FALSE;
        else { fprintf(stderr, "isolde: --cas-fail takes noop or false\n"); return -1; }
        break;
    case O_MODELS: c->opts.models = v; break;
    case O_ANOMALIES: c->opts.anomalies = v; break;
    case O_DIR: c->dir = v; break;
    case O_ORDER: c->opts.transaction_order_file = v; break;
    case O_BUDGET: c->opts.cycle_search_timeout_ms = n; break;
    case O_EXAMPLES: c->report.max_examples = (int)n; break;
    case O_THREADS: c->opts.threads = (int)n; break;
    case O_TIMEOUT: c->opts.timeout_ms = n; break;
    }
    return 1;
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
        int o = value_opt_of(name);
        return o < 0 ? 0 : value_option(c, o, name, eq + 1);
    }
    int o = value_opt_of(a);
    if (o < 0) return 0; /* not a check option */
    if (*i + 1 >= argc) {
        fprintf(stderr, "isolde: %s needs a value\n", a);
        return -1;
    }
    return value_option(c, o, a, argv[++*i]);
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
