/*
 * cmd_run.c -- `isolde run <backend> [options] [check options]`: drive a
 * database with concurrent clients, record the history, print a summary,
 * then check the history as `check` would and exit with the check's
 * status. The history goes to -o FILE, or to a new file in the current
 * directory named by the run (isolde-BACKEND-DATE-TIME.jsonl), which is
 * kept and named in the summary. With --json, stdout has the check's
 * JSON alone and the summary goes to stderr. The backend's own options
 * come from its table (isolde_backend_option), as --name VALUE. Without
 * -c, the level -i asks for is checked when it names a consistency
 * model. SIGINT or SIGTERM (what
 * timeout, docker and systemd send) stops the clients early; the history
 * recorded so far is closed and still checked. A second one kills.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop_flag;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct run_cli {
    isolde_run_opts o;
    cli_check check;
    const char *output;
    long txns, keys, writes_per_key, txn_length, seed, reconnect, clients;
    char *read_urls[CLI_MAX_URLS];  /* --read-url, ours (cli_take_url) */
    cli_backend be;
    const char *peers[CLI_MAX_URLS];
    int models_from_level; /* -c's models are the level -i asked for */
    int live, stop_on_anomaly;
};

static cli_live live; /* --live: the history checked as it is written */
static size_t live_found;

static int add_read_url(void *at, const char *v)
{
    isolde_run_opts *o = at;
    if (o->n_read_urls == CLI_MAX_URLS) return fprintf(stderr, "isolde run: at most %d --read-url\n", CLI_MAX_URLS), -1;
    char *copy = cli_take_url("run", v);
    if (!copy) return -1;
    ((char **)o->read_urls)[o->n_read_urls++] = copy;
    return 0;
}

#define R(f) offsetof(struct run_cli, f)
static const cli_opt run_opts[] = {
    {'w', "workload", CLI_CALL, R(o.workload), "W",
     "list-append (default), rw-register; Jepsen's bank, set, set-full, counter, long-fork; register, cas-register, kv (single ops; -m too)", 0, 0,
     cli_set_workload, 0},
    {'m', "model", CLI_CALL, R(o.workload), "W", NULL, 0, 0, cli_set_workload, 0},
    {'n', "txns", CLI_LONG, R(txns), "N", "transactions before the final reads (2000)", 0, 4e18,
     NULL, 0},
    {'p', "clients", CLI_LONG, R(clients), "N", "concurrent clients (8)", 1, 4096, NULL, 0},
    {0, "processes", CLI_LONG, R(clients), "N", NULL, 1, 4096, NULL, 0},
    {0, "fork", CLI_FLAG, R(o.processes), NULL, "clients as forked processes, not threads", 0, 0, NULL, 1},
    {0, "url", CLI_CALL, R(be), "U", "an endpoint; several spread the clients over them (see the backend)",
     0, 0, cli_add_url, 0},
    {0, "read-url", CLI_CALL, R(o), "U", "an endpoint for read-only transactions (a replica); repeatable",
     0, 0, add_read_url, 0},
    {'i', "isolation", CLI_STRING, R(o.isolation), "L", "the isolation level asked of the database", 0, 0,
     NULL, 0},
    {0, "keys", CLI_LONG, R(keys), "N", "hot keys in the pool (8)", 1, 1024, NULL, 0},
    {0, "max-writes-per-key", CLI_LONG, R(writes_per_key), "N", "writes before a key retires (32)", 1,
     1 << 20, NULL, 0},
    {0, "max-txn-length", CLI_LONG, R(txn_length), "N", "micro-ops per transaction, 1..64 (4)", 1, 64, NULL,
     0},
    {0, "read-ratio", CLI_DOUBLE, R(o.read_ratio), "F", "share of reads (0.5)", 0, 1, NULL, 0},
    {0, "zipf", CLI_DOUBLE, R(o.zipf), "S", "key skew exponent (0: uniform)", 0, 100, NULL, 0},
    {0, "seed", CLI_LONG, R(seed), "N", "random seed (1)", 0, 9e18, NULL, 0},
    {0, "reconnect", CLI_LONG, R(reconnect), "MS", "keep trying to connect for MS (30000)", 0, INT_MAX, NULL,
     0},
    {0, "live", CLI_FLAG, R(live), NULL,
     "check the history as it is written: each anomaly no later line can undo on stderr during the run "
     "(list-append; docs/ONLINE.md)", 0, 0, NULL, 1},
    {0, "stop-on-anomaly", CLI_FLAG, R(stop_on_anomaly), NULL,
     "with --live: end the run at the first certain anomaly (no final reads), then check the history", 0, 0,
     NULL, 1},
    {0, "time-limit", CLI_DOUBLE, R(o.time_limit), "S", "start no transaction after S seconds, wall clock, sim too (0: none)", 0,
     1e9, NULL, 0},
    {'o', "output", CLI_STRING, R(output), "FILE",
     "the history, JSON lines (default: isolde-BACKEND-DATE-TIME.jsonl here)", 0, 0, NULL, 0},
};
#undef R

static void usage(FILE *out, cli_style st, void *cmd, const char *backend)
{
    struct run_cli *r = cmd;
    cli_table t[3] = {{"run options", run_opts, sizeof run_opts / sizeof run_opts[0], r}, cli_fault_table(&r->o),
                      cli_check_table(&r->check)};
    cli_doc_usage(out, st, "isolde run BACKEND [options] [check options]");
    cli_doc_text(out, st, "Drives a database with concurrent clients, records every transaction as the\n"
                          "clients saw it, then checks the history and exits with the check's status.\n"
                          "SIGINT or SIGTERM stops the clients; the history so far is still checked.\n"
                          "Without -c, the level asked for with -i is checked, when it is a model name;\n"
                          "the summary's check: line names what is checked.\n");
    cli_help(out, st, t, 3);
    cli_doc_item(out, st, "-h, --help", "this text (isolde run BACKEND --help: that backend's)");
    cli_doc_item(out, st, "-V, --version", "print the version");
    cli_doc_heading(out, st, "backends and their own options");
    cli_backend_help(out, st, backend);
}

void cmd_run_help(FILE *out, cli_style st)
{
    static struct run_cli r; /* for the tables' offsets only */
    usage(out, st, &r, NULL);
}

/* The common options as the run takes them. */
static void apply(struct run_cli *r)
{
    if (r->txns >= 0) r->o.txns = r->txns;
    if (r->clients > 0) r->o.clients = (int)r->clients;
    if (r->keys > 0) r->o.keys = (int)r->keys;
    if (r->writes_per_key > 0) r->o.max_writes_per_key = (int)r->writes_per_key;
    if (r->txn_length > 0) r->o.max_txn_length = (int)r->txn_length;
    if (r->seed >= 0) r->o.seed = (uint64_t)r->seed;
    if (r->reconnect >= 0) r->o.reconnect_ms = r->reconnect;
    cli_backend_apply(&r->be, &r->o);
}

/* The level the run asked for: -i, or the backend's default. */
static const char *isolation(const struct run_cli *r)
{
    const isolde_backend *b = cli_backend_named(r->o.backend);
    return r->o.isolation ? r->o.isolation : b ? b->isolation : NULL;
}

/* -c's default: the level -i asks for, when it is a consistency model's
 * name (the sim's broken modes are not); else NULL, the check's default. */
static const char *promised_model(const struct run_cli *r)
{
    return r->o.isolation && isolde_model_canonical(r->o.isolation) ? r->o.isolation : NULL;
}

/* 1 to run, 0 after help, -1 on a bad argument. */
static int parse_args(struct run_cli *r, int argc, char **argv)
{
    r->txns = r->keys = r->writes_per_key = r->txn_length = r->seed = r->reconnect = r->clients = -1;
    r->o.read_urls = (const char *const *)r->read_urls;
    r->o.faults.peers = r->peers;
    cli_table t[3] = {{"run options", run_opts, sizeof run_opts / sizeof run_opts[0], r}, cli_fault_table(&r->o),
                      cli_check_table(&r->check)};
    int rc = cli_backend_parse(&r->be, argc, argv, 1, t, 3, usage, r);
    if (rc != 1) return rc;
    apply(r);
    if (!r->check.opts.models && promised_model(r)) {
        r->check.opts.models = promised_model(r);
        r->models_from_level = 1;
    }
    return cli_check_validate(&r->check, r->o.workload) ? -1 : 1;
}

/* What the workload's clients run: transactions, or single ops (a
 * register's read, write or cas; a set's add; a counter's add). */
static const char *unit(isolde_workload w)
{
    int txns = w == ISOLDE_WORKLOAD_LIST_APPEND || w == ISOLDE_WORKLOAD_RW_REGISTER || w == ISOLDE_WORKLOAD_BANK ||
               w == ISOLDE_WORKLOAD_LONG_FORK;
    return txns ? "txn" : "op";
}

static void progress(void *arg, long done, long total, double secs)
{
    const struct run_cli *r = ((const cli_wait *)arg)->owner;
    double rate = secs > 0 ? done / secs : 0;
    double eta = rate > 0 && total > done ? (total - done) / rate : 0;
    fprintf(stderr, "\r  %ld/%ld %ss  %.0f/s  ETA %.1f s  ", done, total, unit(r->o.workload), rate, eta);
}

/* --live: the progress line (on a terminal), then what was written since
 * checked; --stop-on-anomaly stops the run at the first certain anomaly. */
static void live_progress(void *arg, long done, long total, double secs)
{
    const cli_wait *w = arg;
    const struct run_cli *r = w->owner;
    if (w->on_line) progress(arg, done, total, secs);
    live_found = cli_live_found(&live);
    if (live_found && r->stop_on_anomaly) stop_flag = 1;
}

/* A temporary file name beside $TMPDIR, for the sqlite database a run
 * without --url uses (removed after the run). */
static char *temp_db_path(void)
{
    const char *dir = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/isolde-run-%ld.db", dir && *dir ? dir : "/tmp", (long)getpid());
    return strdup(buf);
}

/* A new file in the current directory named by the run,
 * isolde-BACKEND-YYYYmmdd-HHMMSS[-N].jsonl, created empty (so that no
 * other run takes the name); NULL having said why not. */
static char *new_history_path(const char *backend)
{
    char stamp[32], buf[512];
    time_t now = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
    for (int n = 1; n < 1000; n++) {
        if (n == 1) snprintf(buf, sizeof buf, "isolde-%s-%s.jsonl", backend, stamp);
        else snprintf(buf, sizeof buf, "isolde-%s-%s-%d.jsonl", backend, stamp, n);
        int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) return close(fd), strdup(buf);
        if (errno != EEXIST) break;
    }
    fprintf(stderr, "isolde run: cannot create %s in the current directory: %s (give -o FILE)\n", buf,
            strerror(errno));
    return NULL;
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

/* What the check of the run's history is asked for, and by whom: the
 * models (-c, else the level -i asked for when it is a model, else the
 * default) and anomalies (-a) of a transactional workload, or the
 * workload's own checker. The report after it says what was checked. */
static void check_line(const struct run_cli *r, FILE *out)
{
    const isolde_check_opts *o = &r->check.opts;
    isolde_workload w = r->o.workload;
    if (w != ISOLDE_WORKLOAD_LIST_APPEND && w != ISOLDE_WORKLOAD_RW_REGISTER) {
        fprintf(out, "check: %s's checker\n", isolde_workload_name(w));
        return;
    }
    const char *whence = r->models_from_level ? " (the level -i asked for; -c names others)"
                       : o->models ? " (-c)" : " (the default; -c names others)";
    fprintf(out, "check: %s%s", !o->models ? "strict-serializable" : *o->models ? o->models : "no model", whence);
    if (o->anomalies && *o->anomalies) fprintf(out, ", and the anomalies %s (-a)", o->anomalies);
    fputc('\n', out);
}

/* The run's summary: on stdout before the report, on stderr with --json
 * (stdout is the JSON alone). */
static void summary(const struct run_cli *r, const isolde_run_stats *st, const char *path)
{
    FILE *out = r->check.json ? stderr : stdout;
    long n = st->ok + st->fail + st->info, made = n - st->final_reads;
    int sim = strcmp(r->o.backend, "sim") == 0;
    const char *u = unit(r->o.workload);
    fprintf(out, "run: %s%s%s, %s, %d %s%s: %ld %s%s", r->o.backend, sim ? " " : "", sim ? isolation(r) : "",
            isolde_workload_name(r->o.workload), r->o.clients, r->o.processes ? "process" : "client",
            r->o.clients == 1 ? "" : r->o.processes ? "es" : "s", made, u, made == 1 ? "" : "s");
    if (st->time_limited) fprintf(out, " (--time-limit %g s stopped the clients)", r->o.time_limit);
    if (st->final_reads) fprintf(out, " + %ld final-read %s%s", st->final_reads, u, st->final_reads == 1 ? "" : "s");
    fprintf(out, " (%ld ok, %ld fail, %ld info) in %.2f s, %.0f %s/s, %ld contended\n", st->ok, st->fail,
            st->info, st->seconds, st->seconds > 0 ? n / st->seconds : 0.0, u, st->contended);
    for (int i = 0; i < st->n_reasons; i++) {
        const isolde_run_reason *why = &st->reasons[i];
        fprintf(out, "%s %s", i ? "," : "not ok:", why->name);
        if (why->fail) fprintf(out, " %ld fail", why->fail);
        if (why->info) fprintf(out, " %ld info", why->info);
    }
    if (st->n_reasons) fputc('\n', out);
    if (r->o.faults.nemesis) fprintf(out, "faults: %ld (%s)\n", st->faults, r->o.faults.nemesis);
    check_line(r, out);
    fprintf(out, "history: %s%s\n", path, stop_flag ? " (interrupted)" : "");
    fflush(out);
}

/* Read the recorded history back and check it. */
static int check_file(struct run_cli *r, const char *path)
{
    r->check.read.format = ISOLDE_FORMAT_JSONL;
    r->check.files = &path;
    r->check.n_files = 1;
    return cli_check_file(&r->check);
}

static int run_and_check(struct run_cli *r, const char *path)
{
    isolde_run_stats st;
    isolde_error err;
    struct sigaction sa = {0}, old_int, old_term;
    if ((r->live || r->stop_on_anomaly) && cli_live_open(&live, &r->check, path, !r->stop_on_anomaly))
        return EXIT_ERROR;
    sa.sa_handler = on_stop_signal;
    /* SIGTERM is often sent twice at once (timeout(1) signals the command
     * and its process group): it stays handled. A second ^C kills. */
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old_int);
    static cli_wait wait;
    wait = (cli_wait){"run", isatty(STDERR_FILENO), r};
    if (wait.on_line) r->o.progress = progress;
    if (live.s) r->o.progress = live_progress;
    r->o.waiting = cli_waiting;
    r->o.progress_arg = &wait;
    isolde_status s = isolde_run(&r->o, &st, &err);
    if (wait.on_line) fprintf(stderr, "\r\033[K");
    if (live.s && live_found && r->stop_on_anomaly) fprintf(stderr, "isolde run: --stop-on-anomaly: stopped at the first certain anomaly\n");
    cli_live_close(&live);
    sigaction(SIGINT, &old_int, NULL);
    /* A stopped run keeps absorbing SIGTERM: timeout(1)'s second one may
     * arrive after the clients have already stopped. */
    if (!stop_flag) sigaction(SIGTERM, &old_term, NULL);
    if (s != ISOLDE_OK) {
        cli_print_error(&err);
        struct stat sb;
        if (stat(path, &sb) == 0 && sb.st_size > 0) fprintf(stderr, "isolde run: the history so far: %s\n", path);
        return EXIT_ERROR;
    }
    summary(r, &st, path);
    int status = check_file(r, path);
    cli_warn_idle_nemesis("run", NULL, &r->o, &st);
    return status;
}

static void release(struct run_cli *r)
{
    cli_backend_free(&r->be);
    for (size_t i = 0; i < r->o.n_read_urls; i++) free(r->read_urls[i]);
}

int cmd_run(int argc, char **argv)
{
    static struct run_cli r; /* the URL and option arrays are large */
    memset(&r, 0, sizeof r);
    isolde_run_opts_init(&r.o);
    cli_check_init(&r.check);
    int rc = parse_args(&r, argc, argv);
    if (rc <= 0) {
        release(&r);
        return rc < 0 ? EXIT_ERROR : 0;
    }
    r.o.stop = &stop_flag;
    r.check.opts.workload = r.o.workload;
    char *named = r.output ? NULL : new_history_path(r.o.backend);
    if (!r.output && !named) {
        release(&r);
        return EXIT_ERROR;
    }
    const char *tmp_db = NULL; /* the backend's first URL: freed with it */
    if (!r.o.n_urls && !strcmp(r.o.backend, "sqlite") && (r.be.urls[0] = temp_db_path())) {
        tmp_db = r.be.urls[0];
        r.o.n_urls = r.be.n_urls = 1;
    }
    r.o.history_path = r.output ? r.output : named;
    int status = run_and_check(&r, r.o.history_path);
    struct stat sb; /* a file this run named and left empty (it failed at once) is no history */
    if (named && stat(named, &sb) == 0 && sb.st_size == 0) remove(named);
    if (tmp_db) remove_db(tmp_db);
    free(named);
    release(&r);
    return status;
}
