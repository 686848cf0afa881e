/*
 * cmd_run.c -- `isolde run <backend> [options] [check options]`: drive a
 * database (sim, sqlite or exec) with concurrent clients, record the
 * history, print a summary, then check the history as `check` would and
 * exit with the check's status. SIGINT stops the clients early; the
 * history recorded so far is still checked.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static volatile sig_atomic_t stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static const char run_usage[] =
    "usage: isolde run sim|sqlite|exec [options] [check options]\n"
    "  -m, --workload W        list-append (default) or rw-register\n"
    "  -n, --txns N            transactions before the final reads (2000)\n"
    "  -p, --clients N         concurrent clients (8)\n"
    "      --keys N            hot keys in the pool (8)\n"
    "      --max-writes-per-key N  writes before a key retires (32)\n"
    "      --max-txn-length N  micro-ops per transaction, 1..64 (4)\n"
    "      --read-ratio F      share of reads (0.5)\n"
    "      --zipf S            key skew exponent (0: uniform)\n"
    "      --seed N            random seed (1)\n"
    "  -o, --output FILE       keep the history in FILE (JSON lines)\n"
    "      --threads | --processes   clients as threads (default) or processes\n"
    "                          (the sim runs its clients on one seeded schedule)\n"
    "  -i, --isolation L       sim level (strict-serializable): %s\n"
    "      --abort-rate F      sim: share of commits aborted at random (0)\n"
    "      --info-rate F       sim: share of commits with unknown outcome (0)\n"
    "      --stale N           sim serializable: snapshot staleness (3)\n"
    "      --url U             sqlite: database file; exec: shell command\n"
    "      --begin M           sqlite: deferred|immediate|exclusive (immediate)\n"
    "      --journal J         sqlite: wal|delete (wal)\n"
    "      --busy-timeout MS   sqlite busy timeout (5000)\n"
    "      --timeout MS        exec: reply timeout (10000)\n"
    "check options:\n%s";

static void usage(FILE *out)
{
    char levels[256] = "";
    for (int i = 0; iso_run_isolation_name(i); i++) {
        if (i) strncat(levels, ", ", sizeof levels - strlen(levels) - 1);
        strncat(levels, iso_run_isolation_name(i), sizeof levels - strlen(levels) - 1);
    }
    fprintf(out, run_usage, levels, cli_check_help);
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "isolde run: %s wants an integer in [%ld, %ld], not '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "isolde run: %s wants a number in [%g, %g], not '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

struct run_cli {
    iso_run_opts o;
    cli_check check;
    const char *output;
};

/* Options that take an integer: name, short name, bounds, where. */
static int int_option(struct run_cli *r, const char *opt, const char *arg)
{
    long v;
    struct { const char *name, *alias; long lo, hi; } tab[] = {
        {"--txns", "-n", 0, LONG_MAX / 2}, {"--clients", "-p", 1, 4096},
        {"--keys", NULL, 1, 1024}, {"--max-writes-per-key", NULL, 1, 1 << 20},
        {"--max-txn-length", NULL, 1, 64}, {"--seed", NULL, 0, LONG_MAX},
        {"--stale", NULL, 0, 1 << 20}, {"--busy-timeout", NULL, 0, INT_MAX},
        {"--timeout", NULL, 1, INT_MAX}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(opt, tab[i].name) != 0 && !(tab[i].alias && strcmp(opt, tab[i].alias) == 0))
            continue;
        if (parse_long(opt, arg, tab[i].lo, tab[i].hi, &v) < 0) return -1;
        switch (i) {
        case 0: r->o.txns = v; break;
        case 1: r->o.clients = (int)v; break;
        case 2: r->o.keys = (int)v; break;
        case 3: r->o.max_writes_per_key = (int)v; break;
        case 4: r->o.max_txn_length = (int)v; break;
        case 5: r->o.seed = (uint64_t)v; break;
        case 6: r->o.stale = (int)v; break;
        case 7: r->o.busy_timeout_ms = v; break;
        default: r->o.timeout_ms = v; break;
        }
        return 1;
    }
    return 0;
}

static int float_option(struct run_cli *r, const char *opt, const char *arg)
{
    if (strcmp(opt, "--read-ratio") == 0) return parse_double(opt, arg, 0, 1, &r->o.read_ratio) < 0 ? -1 : 1;
    if (strcmp(opt, "--zipf") == 0) return parse_double(opt, arg, 0, 100, &r->o.zipf) < 0 ? -1 : 1;
    if (strcmp(opt, "--abort-rate") == 0) return parse_double(opt, arg, 0, 1, &r->o.abort_rate) < 0 ? -1 : 1;
    if (strcmp(opt, "--info-rate") == 0) return parse_double(opt, arg, 0, 1, &r->o.info_rate) < 0 ? -1 : 1;
    return 0;
}

static int string_option(struct run_cli *r, const char *opt, const char *arg)
{
    if (!strcmp(opt, "-m") || !strcmp(opt, "--workload")) {
        if (!strcmp(arg, "list-append")) r->o.workload = ISO_WORKLOAD_LIST_APPEND;
        else if (!strcmp(arg, "rw-register")) r->o.workload = ISO_WORKLOAD_RW_REGISTER;
        else return fprintf(stderr, "isolde run: unknown workload '%s'\n", arg), -1;
        return 1;
    }
    const char **slot = !strcmp(opt, "-o") || !strcmp(opt, "--output") ? &r->output
                      : !strcmp(opt, "-i") || !strcmp(opt, "--isolation") ? &r->o.isolation
                      : !strcmp(opt, "--url") ? &r->o.url
                      : !strcmp(opt, "--begin") ? &r->o.begin
                      : !strcmp(opt, "--journal") ? &r->o.journal : NULL;
    if (!slot) return 0;
    *slot = arg;
    return 1;
}

/* Parse argv[*i] as a run option; 1 consumed, 0 not ours, -1 bad. */
static int run_option(struct run_cli *r, int argc, char **argv, int *i)
{
    const char *opt = argv[*i];
    if (!strcmp(opt, "--threads")) return r->o.processes = 0, 1;
    if (!strcmp(opt, "--processes")) return r->o.processes = 1, 1;
    static const char *const valued[] = {
        "-m", "--workload", "-n", "--txns", "-p", "--clients", "--keys",
        "--max-writes-per-key", "--max-txn-length", "--read-ratio", "--zipf", "--seed",
        "-o", "--output", "-i", "--isolation", "--abort-rate", "--info-rate", "--stale",
        "--url", "--begin", "--journal", "--busy-timeout", "--timeout"};
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        if (strcmp(opt, valued[k]) != 0) continue;
        if (*i + 1 >= argc) return fprintf(stderr, "isolde run: %s needs a value\n", opt), -1;
        const char *arg = argv[++*i];
        int rc = int_option(r, opt, arg);
        if (rc == 0) rc = float_option(r, opt, arg);
        if (rc == 0) rc = string_option(r, opt, arg);
        return rc;
    }
    return 0;
}

static int parse_args(struct run_cli *r, int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        usage(argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? stdout : stderr);
        return argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? 0 : -1;
    }
    r->o.backend = argv[1];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return usage(stdout), 0;
        int rc = run_option(r, argc, argv, &i);
        if (rc == 0) rc = cli_check_option(&r->check, argc, argv, &i);
        if (rc < 0) return -1;
        if (rc == 0) {
            fprintf(stderr, "isolde run: unknown option '%s' (see isolde run --help)\n", argv[i]);
            return -1;
        }
    }
    return 1;
}

static void progress(void *arg, long done, long total, double secs)
{
    (void)arg;
    double rate = secs > 0 ? done / secs : 0;
    double eta = rate > 0 && total > done ? (total - done) / rate : 0;
    fprintf(stderr, "\r  %ld/%ld txns  %.0f/s  ETA %.1f s  ", done, total, rate, eta);
}

/* A temporary file name beside $TMPDIR, for the history or the database. */
static char *temp_path(const char *what)
{
    const char *dir = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/isolde-run-%ld.%s", dir && *dir ? dir : "/tmp", (long)getpid(), what);
    return strdup(buf);
}

static void remove_db(const char *db)
{
    char buf[4200];
    remove(db);
    snprintf(buf, sizeof buf, "%s-wal", db);
    remove(buf);
    snprintf(buf, sizeof buf, "%s-shm", db);
    remove(buf);
}

static void summary(const struct run_cli *r, const iso_run_stats *st, const char *path)
{
    long n = st->ok + st->fail + st->info;
    printf("run: %s%s%s, %s, %d %s: %ld txns (%ld ok, %ld fail, %ld info) in %.2f s, %.0f txn/s\n",
           r->o.backend, strcmp(r->o.backend, "sim") ? "" : " ",
           strcmp(r->o.backend, "sim") ? "" : r->o.isolation,
           r->o.workload == ISO_WORKLOAD_RW_REGISTER ? "rw-register" : "list-append",
           r->o.clients, r->o.processes ? "processes" : "clients", n, st->ok, st->fail,
           st->info, st->seconds, st->seconds > 0 ? n / st->seconds : 0.0);
    printf("history: %s%s\n", path, stop_flag ? " (interrupted)" : "");
    fflush(stdout);
}

/* Read the recorded history back and check it. */
static int check_file(const struct run_cli *r, const char *path)
{
    iso_history *h = NULL;
    iso_error err = {0};
    if (iso_history_read_file(path, ISO_FORMAT_JSONL, &h, &err) != 0) {
        fprintf(stderr, "isolde run: %s:%ld:%ld: %s\n", err.file, err.line, err.col, err.msg);
        return ISO_ERROR;
    }
    int status = cli_check_history(&r->check, path, h);
    iso_history_free(h);
    return status;
}

static int run_and_check(struct run_cli *r, const char *path)
{
    iso_run_stats st;
    iso_error err = {0};
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND; /* a second ^C kills */
    sigaction(SIGINT, &sa, &old);
    if (isatty(STDERR_FILENO)) r->o.progress = progress;
    int rc = iso_run(&r->o, &st, &err);
    if (r->o.progress) fprintf(stderr, "\r\033[K");
    sigaction(SIGINT, &old, NULL);
    if (rc != 0) {
        fprintf(stderr, "isolde run: %s%s%s\n", err.file, err.file[0] ? ": " : "", err.msg);
        return ISO_ERROR;
    }
    summary(r, &st, path);
    return check_file(r, path);
}

int cmd_run(int argc, char **argv)
{
    struct run_cli r = {0};
    iso_run_opts_init(&r.o);
    cli_check_init(&r.check);
    int rc = parse_args(&r, argc, argv);
    if (rc <= 0) return rc < 0 ? ISO_ERROR : 0;
    r.o.stop = &stop_flag;
    r.check.opts.workload = r.o.workload;
    char *tmp_hist = r.output ? NULL : temp_path("jsonl");
    char *tmp_db = NULL;
    if (!r.o.url && !strcmp(r.o.backend, "sqlite")) r.o.url = tmp_db = temp_path("db");
    r.o.history_path = r.output ? r.output : tmp_hist;
    int status = run_and_check(&r, r.o.history_path);
    /* A temporary history is kept only as evidence of a verdict. */
    if (tmp_hist && (status == ISO_INVALID || status == ISO_UNKNOWN))
        fprintf(stderr, "isolde run: history kept in %s\n", tmp_hist);
    else if (tmp_hist)
        remove(tmp_hist);
    if (tmp_db) remove_db(tmp_db);
    free(tmp_hist);
    free(tmp_db);
    return status;
}
