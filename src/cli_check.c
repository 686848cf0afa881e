/*
 * cli_check.c -- the check options (one table, parsed the same way by
 * `check` and `run`) and their checks before anything is read, running a
 * check and printing its report (one file, or one JSON line and one -d
 * subdirectory per file of several), and the CLI's one error printer.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *workload_at(size_t i, void *arg)
{
    (void)arg;
    return isolde_workload_at(i);
}

int cli_set_workload(void *at, const char *v)
{
    if (isolde_workload_parse(v, at) == ISOLDE_OK) return 0;
    fprintf(stderr, "isolde: unknown workload '%s'", v);
    int close = cli_suggest(stderr, v, workload_at, NULL);
    for (size_t i = 0; !close && isolde_workload_at(i); i++)
        fprintf(stderr, "%s%s", i ? ", " : " (one of ", isolde_workload_at(i));
    fputs(close ? "\n" : ")\n", stderr);
    return -1;
}

int cli_set_format(void *at, const char *v)
{
    if (isolde_format_parse(v, at) == ISOLDE_OK) return 0;
    fprintf(stderr, "isolde: unknown format '%s'\n", v);
    return -1;
}

/* --cas-fail's check (at: unused, CLI_PASS). */
static int check_cas_fail(void *at, const char *v)
{
    (void)at;
    if (strcmp(v, "noop") != 0 && strcmp(v, "false") != 0)
        return fprintf(stderr, "isolde: --cas-fail takes noop or false\n"), -1;
    return 0;
}

static int set_int(void *at, const char *v, const char *opt, double lo, double hi)
{
    long x;
    if (cli_long("check", opt, v, lo, hi, &x)) return -1;
    *(int *)at = (int)x;
    return 0;
}

/* --max-examples 0: every proof. */
static int set_examples(void *at, const char *v)
{
    if (set_int(at, v, "--max-examples", 0, 1e9)) return -1;
    if (*(int *)at == 0) *(int *)at = INT_MAX;
    return 0;
}
/* The aliases of checker options (at: the cli_pass). */
static int pass_realtime(void *at, const char *v)
{
    (void)v;
    return cli_pass_add(at, "check", "linearizable-keys", NULL);
}
static int pass_total(void *at, const char *v)
{
    long x;
    return cli_long("check", "--total", v, -9.2e18, 9.2e18, &x) ? -1 : cli_pass_add(at, "check", "total", v);
}
/* --exact[=WHEN] (bare: always) and --no-exact (at: the cli_pass). */
static int pass_exact(void *at, const char *v)
{
    if (!v) v = "always";
    if (strcmp(v, "auto") != 0 && strcmp(v, "always") != 0 && strcmp(v, "never") != 0)
        return fprintf(stderr, "isolde check: --exact takes auto, always or never, not '%s'\n", v), -1;
    return cli_pass_add(at, "check", "exact", v);
}
static int pass_no_exact(void *at, const char *v)
{
    (void)v;
    return cli_pass_add(at, "check", "exact", "never");
}
static int set_threads(void *at, const char *v) { return set_int(at, v, "--threads", 0, 64); }

#define C(f) offsetof(cli_check, f)
#define LMAX 9.2e18
static const cli_opt check_opts[] = {
    {'m', "model", CLI_CALL, C(opts.workload), "WORKLOAD",
     "list-append, rw-register (transactional), register, cas-register, kv, mutex, fifo-queue, "
     "lin-set, multi-register, porcupine-kv (linearizability), bank, set, set-full, counter, "
     "long-fork (Jepsen's checkers); default: from the history's :f names",
     0, 0, cli_set_workload, 0},
    {'c', "consistency-models", CLI_STRING, C(opts.models), "L",
     "comma-separated models (default strict-serializable; '' checks none, only -a, and without -a is unknown); "
     "any of Elle's 54 names or read-committed-be (isolde models lists them; one that forbids nothing isolde looks for is not "
     "checked: never valid)",
     0, 0, NULL, 0},
    {'a', "anomalies", CLI_STRING, C(opts.anomalies), "L",
     "comma-separated anomalies to look for as well (e.g. G1,G2; isolde models)", 0, 0, NULL, 0},
    {'s', "cycle-search-timeout", CLI_LONG, C(opts.cycle_search_timeout_ms), "MS",
     "cycle search: time budget per strongly connected component, within --timeout (1000; 0 for no limit)", 0, LMAX, NULL, 0},
    {'f', "format", CLI_CALL, C(read.format), "F",
     "auto, edn, json, jsonl, onelite, isocheck, jepsen-log, jepsen-txt, plume, dbcop, awdit, cobra, chronos",
     0, 0, cli_set_format, 0},
    {'d', "directory", CLI_STRING, C(dir), "DIR",
     "write one text file per anomaly type, a picture (.dot, .svg) per cycle or proof, results.json and index.html "
     "into DIR, the first 100 findings of a type at most (several files: into DIR/<file>/)", 0, 0, NULL, 0},
    {0, "html", CLI_STRING, C(html), "FILE",
     "write the report as one self-contained HTML page: verdict, proofs (the first 100 of a type at most), "
     "pictures, a timeline (several files: FILE-<file>.html)", 0, 0, NULL, 0},
    {0, "json", CLI_FLAG, C(json), NULL,
     "print the result as JSON, Elle's keys (several files: one object per line, with \"file\")", 0, 0,
     NULL, 1},
    {'v', "verbose", CLI_FLAG, C(json), NULL, NULL, 0, 0, NULL, 1},
    {0, "max-examples", CLI_CALL, C(report.max_examples), "N", "proofs printed per anomaly type in text (3; 0: all)",
     0, 0, set_examples, 0},
    {'j', "threads", CLI_CALL, C(opts.threads), "N", "worker threads (default: one per core)", 0, 0,
     set_threads, 0},
    {0, "wfr-keys", CLI_PASS, C(checker), NULL,
     "rw-register: a write after a read of a key follows the value read", 0, 0, NULL, 1},
    {0, "sequential-keys", CLI_PASS, C(checker), NULL,
     "rw-register: process order implies each key's version order", 0, 0, NULL, 1},
    {0, "linearizable-keys", CLI_PASS, C(checker), NULL,
     "rw-register: real-time order implies it", 0, 0, NULL, 1},
    {0, "realtime-versions", CLI_CALL, C(checker), NULL, NULL, 0, 0, pass_realtime, 1},
    {0, "transaction-order", CLI_PASS, C(checker), "FILE",
     "rw-register: JSON {completion index: commit rank}", 0, 0, NULL, 0},
    {0, "exact", CLI_CALL, C(checker), "[=auto|always|never]",
     "decide serializable, snapshot isolation (and their strict and session forms), parallel snapshot "
     "isolation and (rw-register) prefix exactly, with a SAT solver over the orders no evidence gives "
     "(rw-register: writer pairs; list-append: appends no read shows): auto (default) when some are "
     "unordered, --exact always, --no-exact never (Elle's verdict: sound only); needs the cadical feature, "
     "else what the solver leaves stays sound only; its budget, run out, makes the verdict unknown",
     0, 0, pass_exact, 0},
    {0, "no-exact", CLI_CALL, C(checker), NULL, NULL, 0, 0, pass_no_exact, 1},
    {0, "timeout", CLI_LONG, C(opts.timeout_ms), "MS",
     "time budget of the whole search (linearizability, or the cycle search over all components); "
     "what it leaves unsearched is unknown (60000; 0 for no limit)", 0, LMAX, NULL, 0},
    {0, "cas-fail", CLI_PASS, C(checker), "noop|false",
     "linearizability: a failed cas did not happen / returned false", 0, 0, check_cas_fail, 0},
    {0, "initial-value", CLI_PASS, C(checker), "V",
     "linearizability: the registers' first value, written as in the history (default nil; \"\" "
     "for porcupine-kv); for kv, multi-register, porcupine-kv a map {key value} sets it per key",
     0, 0, NULL, 0},
    {0, "total", CLI_PASS, C(checker), "N", "bank: what every read's balances sum to (default: the sum of a :setup op's opening balances, "
     "as isolde run records them, else of the first read's)",
     -9.2e18, 9.2e18, NULL, 0},
    {0, "total-amount", CLI_CALL, C(checker), "N", NULL, 0, 0, pass_total, 0},
    {0, "allow-negative-balances", CLI_PASS, C(checker), NULL,
     "bank: a negative balance is no error", 0, 0, NULL, 1},
    {0, "group-size", CLI_PASS, C(checker), "N",
     "long-fork: keys every read reads (default 0: any; a read of another number is illegal)", 0, 1e9, NULL, 0,
     },
    {0, "linearizable", CLI_PASS, C(checker), NULL,
     "set-full: a stale element (missed by a read that began after it was known) is an error", 0, 0, NULL, 1,
     },
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

int cli_worse(int a, int b)
{
    static const int rank[] = {0, 2, 1, 3};
    return rank[b] > rank[a] ? b : a;
}

void cli_print_error(const isolde_error *e)
{
    char line[1024];
    isolde_error_text(e, line, sizeof line);
    if (e->file[0]) fprintf(stderr, "%s\n", line);
    else fprintf(stderr, "isolde: %s\n", line);
}

int cli_stdout_flushed(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    fprintf(stderr, "isolde: cannot write standard output%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    clearerr(stdout);
    return -1;
}

/* Whether dir, or the nearest directory above it that exists (where it
 * will be made), can be written: 0, or -1 having said why not. */
static int dir_writable(const char *dir)
{
    char path[4096];
    size_t n = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        while (n > 1 && path[n - 1] == '/') path[--n] = 0;
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) errno = ENOTDIR;
            else if (access(path, W_OK | X_OK) == 0) return 0;
            break;
        }
        if (errno != ENOENT) break;
        char *slash = strrchr(path, '/');
        if (!slash) n = (size_t)snprintf(path, sizeof path, ".");
        else n = (size_t)(slash == path ? 1 : slash - path), path[n] = 0;
    }
    fprintf(stderr, "isolde: -d %s: cannot write %s: %s\n", dir, path, strerror(errno));
    return -1;
}

void cli_print_warnings(const isolde_history *h)
{
    isolde_error w[8];
    size_t n = 0;
    if (isolde_history_warnings(h, w, sizeof w / sizeof w[0], &n, NULL)) return;
    for (size_t i = 0; i < n && i < sizeof w / sizeof w[0]; i++) {
        char line[1024];
        isolde_error e = w[i];
        snprintf(e.msg, sizeof e.msg, "warning: %.*s", (int)(sizeof e.msg - sizeof "warning: "), w[i].msg);
        isolde_error_text(&e, line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
}

/* The option named name that workload w uses, or NULL. */
static const isolde_option *used_by(isolde_workload w, const char *name)
{
    for (size_t i = 0; isolde_checker_option(w, i); i++)
        if (strcmp(isolde_checker_option(w, i)->name, name) == 0) return isolde_checker_option(w, i);
    return NULL;
}

/* The workloads that use checker option name, as "a's", "a's and b's",
 * "a's, b's and c's". */
static void whose(const char *name, char *out, size_t size)
{
    const char *ws[32];
    size_t n = 0, at = 0;
    for (size_t i = 0; isolde_workload_at(i) && n < 32; i++) {
        isolde_workload w;
        if (isolde_workload_parse(isolde_workload_at(i), &w) == ISOLDE_OK && used_by(w, name))
            ws[n++] = isolde_workload_at(i);
    }
    out[0] = 0;
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s%s's", !i ? "" : i + 1 < n ? ", " : " and ", ws[i]);
}

/* A warning for each checker option c gives that workload w ignores (a
 * value other than its default); file: the history w was inferred from
 * (NULL: w was asked for). */
static void warn_ignored(const cli_check *c, isolde_workload w, const char *file)
{
    for (int i = 0; i < c->checker.n; i++) {
        const char *name = c->checker.given[i].name, *value = c->checker.given[i].value;
        const isolde_option *o = NULL;
        for (size_t k = 0; !o && isolde_workload_at(k); k++) {
            isolde_workload any;
            if (isolde_workload_parse(isolde_workload_at(k), &any) == ISOLDE_OK) o = used_by(any, name);
        }
        if (used_by(w, name) || (o && o->dflt && value && strcmp(o->dflt, value) == 0)) continue;
        char who[256];
        whose(name, who, sizeof who);
        fprintf(stderr, "isolde: warning: %s%s--%s is %s option: %s%s ignores it\n", file ? file : "",
                file ? ": " : "", name, who, isolde_workload_name(w),
                file ? " (the model inferred from the history)" : "");
    }
}

char *cli_library_opts(const cli_check *c, isolde_check_opts *o)
{
    *o = c->opts;
    const char *const *strings = NULL;
    char *block = cli_pass_strings(&c->checker, &strings);
    o->checker_opts = strings;
    o->n_checker_opts = (size_t)c->checker.n;
    return block;
}

int cli_check_validate(const cli_check *c, isolde_workload w)
{
    isolde_error err;
    isolde_check_opts o;
    char *block = cli_library_opts(c, &o);
    int bad = !block || isolde_check_opts_validate(&o, &err);
    free(block);
    if (bad) {
        if (block) cli_print_error(&err), fprintf(stderr, "isolde models lists every model and anomaly name\n");
        return -1;
    }
    if (c->dir && dir_writable(c->dir)) return -1;
    if (w == ISOLDE_WORKLOAD_AUTO) w = c->opts.workload;
    if (w != ISOLDE_WORKLOAD_AUTO) warn_ignored(c, w, NULL); /* else once it is inferred */
    return 0;
}

/* Bytes as a JSON string: quotes, backslashes and control characters
 * escaped, UTF-8 kept, any byte that is not UTF-8 as U+FFFD. */
void cli_json_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned char b = *p;
        int n = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
        unsigned char min = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80; /* no overlong forms */
        unsigned char max = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF; /* no surrogates, <= U+10FFFF */
        int ok = n > 0;
        for (int i = 1; ok && i < n; i++) ok = p[i] >= (i == 1 ? min : 0x80) && p[i] <= (i == 1 ? max : 0xBF);
        if (!ok) fputs("\\ufffd", out), n = 1;
        else if (b == '"' || b == '\\') fprintf(out, "\\%c", b);
        else if (b < 0x20) fprintf(out, "\\u%04x", b);
        else fwrite(p, 1, (size_t)n, out);
        p += n;
    }
    fputc('"', out);
}

const char *const cli_ladder[CLI_LADDER_N] = {"strict-serializable", "serializable", "snapshot-isolation",
                                               "repeatable-read", "read-committed", "read-uncommitted"};

int cli_check_ladder(const char *path, isolde_workload w, isolde_result **out, isolde_error *err)
{
    isolde_read_opts ro;
    isolde_read_opts_init(&ro);
    ro.format = ISOLDE_FORMAT_JSONL;
    isolde_check_opts co;
    isolde_check_opts_init(&co);
    co.workload = w;
    co.models = "strict-serializable,serializable,snapshot-isolation,repeatable-read,read-committed,"
                "read-uncommitted";
    static const char *const wfr[] = {"wfr-keys"};
    co.checker_opts = wfr;
    co.n_checker_opts = w == ISOLDE_WORKLOAD_RW_REGISTER;
    isolde_history *h = NULL;
    *out = NULL;
    int rc = isolde_history_read_file(path, &ro, &h, err) || isolde_check(h, &co, out, err) ? -1 : 0;
    isolde_history_free(h);
    return rc;
}

const char *cli_anomaly_name(const char *type)
{
    for (size_t i = 0; isolde_anomaly_name(i); i++)
        if (!strcmp(isolde_anomaly_name(i), type)) return isolde_anomaly_name(i);
    return "unknown-anomaly";
}

int cli_forbids(const char *model, const char *type)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.models = model;
    return isolde_check_opts_forbid(&o, type) == 1;
}

/* {"file":PATH, then r's result map} on one line. */
static isolde_status write_json_line(isolde_result *r, const char *path, isolde_error *err)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    isolde_status s = mem ? isolde_result_write_json(r, mem, err) : ISOLDE_ERR_NOMEM;
    if (mem && fclose(mem)) s = ISOLDE_ERR_NOMEM;
    if (s == ISOLDE_ERR_NOMEM) snprintf(err->msg, sizeof err->msg, "out of memory"), err->file[0] = 0;
    if (!s) {
        fputs("{\"file\":", stdout);
        cli_json_string(stdout, path);
        const char *p = text + 1; /* after the map's { */
        while (*p == ' ' || *p == '\n') p++;
        if (*p != '}') fputc(',', stdout);
        for (; *p; p++) /* a newline is never inside a JSON string: it and its indent are only layout */
            if (*p == '\n') p += strspn(p + 1, " ");
            else fputc(*p, stdout);
        fputc('\n', stdout);
    }
    free(text);
    return s;
}

/* A file's name as one directory name: its path, '/' as '_'. */
static void dir_name(const char *path, char *out, size_t size)
{
    while (path[0] == '.' && path[1] == '/') path += 2;
    while (*path == '/') path++;
    size_t n = (size_t)snprintf(out, size, "%s", path);
    for (size_t i = 0; i < n && i < size; i++)
        if (out[i] == '/') out[i] = '_';
    if (!strcmp(out, "") || !strcmp(out, ".") || !strcmp(out, "..")) snprintf(out, size, "history");
}

/* Where -d writes the file being checked: DIR, or with several files
 * DIR/<file>, with "-N" (its position) when another file has that name. */
static void dir_of(const cli_check *c, char *out, size_t size)
{
    if (c->n_files < 2) {
        snprintf(out, size, "%s", c->dir);
        return;
    }
    char name[1024], other[1024];
    dir_name(c->files[c->at], name, sizeof name);
    int clash = 0;
    for (int i = 0; i < c->n_files && !clash; i++)
        if (i != c->at) dir_name(c->files[i], other, sizeof other), clash = !strcmp(name, other);
    if (clash) snprintf(out, size, "%s/%s-%d", c->dir, name, c->at + 1);
    else snprintf(out, size, "%s/%s", c->dir, name);
}

/* Where --html writes the file being checked: FILE, or with several files
 * FILE (without .html) + "-<file>.html". */
static void html_of(const cli_check *c, char *out, size_t size)
{
    if (c->n_files < 2) {
        snprintf(out, size, "%s", c->html);
        return;
    }
    char name[1024];
    dir_name(c->files[c->at], name, sizeof name);
    size_t n = strlen(c->html);
    if (n > 5 && !strcmp(c->html + n - 5, ".html")) n -= 5;
    snprintf(out, size, "%.*s-%s-%d.html", (int)n, c->html, name, c->at + 1);
}

static isolde_status write_html(const cli_check *c, isolde_result *r, isolde_error *err)
{
    char path[4096];
    html_of(c, path, sizeof path);
    FILE *out = fopen(path, "w");
    if (!out) {
        snprintf(err->msg, sizeof err->msg, "--html %.400s: cannot write: %s", path, strerror(errno));
        err->file[0] = 0;
        return ISOLDE_ERR_IO;
    }
    isolde_status s = isolde_result_write_html(r, out, err);
    if (fclose(out) && !s) {
        snprintf(err->msg, sizeof err->msg, "--html %.400s: cannot write: %s", path, strerror(errno));
        err->file[0] = 0;
        s = ISOLDE_ERR_IO;
    }
    return s;
}

int cli_check_failed(const cli_check *c, const isolde_error *err)
{
    cli_print_error(err);
    if (!c->json || c->n_files < 2) return EXIT_ERROR;
    char line[1024];
    isolde_error_text(err, line, sizeof line);
    fputs("{\"file\":", stdout);
    cli_json_string(stdout, c->files[c->at]);
    fputs(",\"error\":", stdout);
    cli_json_string(stdout, line);
    fputs("}\n", stdout);
    fflush(stdout);
    return EXIT_ERROR;
}

int cli_check_history(cli_check *c, const isolde_history *h)
{
    const char *name = c->files[c->at];
    isolde_result *r = NULL;
    isolde_error err;
    cli_print_warnings(h);
    isolde_check_opts o;
    char *block = cli_library_opts(c, &o);
    if (!block) return EXIT_ERROR;
    isolde_status rc = isolde_check(h, &o, &r, &err);
    free(block);
    if (rc) {
        if (!err.file[0] && name) snprintf(err.file, sizeof err.file, "%s", name);
        return cli_check_failed(c, &err);
    }
    if (c->opts.workload == ISOLDE_WORKLOAD_AUTO) warn_ignored(c, isolde_result_workload(r), name);
    isolde_status s = c->json && c->n_files > 1 ? write_json_line(r, name, &err)
                    : c->json ? isolde_result_write_json(r, stdout, &err)
                              : isolde_result_write_text(r, stdout, &c->report, &err);
    char dir[4096];
    if (!s && c->dir) dir_of(c, dir, sizeof dir), s = isolde_result_write_dir(r, dir, &err);
    if (!s && c->html) s = write_html(c, r, &err);
    isolde_validity v = isolde_result_validity(r);
    isolde_result_free(r);
    if (s) clearerr(stdout); /* a report stdout did not take is said once, here */
    return s ? cli_check_failed(c, &err) : cli_stdout_flushed() ? EXIT_ERROR : (int)v;
}

int cli_check_file(cli_check *c)
{
    isolde_history *h = NULL;
    isolde_error err;
    if (isolde_history_read_file(c->files[c->at], &c->read, &h, &err)) return cli_check_failed(c, &err);
    int status = cli_check_history(c, h);
    isolde_history_free(h);
    return status;
}
