/*
 * cmd_scenario.c -- `isolde scenario NAME|all BACKEND [options] [check
 * options]`: run a directed scenario (isolde_scenario_run) at each level
 * of the backend (or the one -i names), print whether the database
 * committed each transaction (ok, or fail / info with the error's class
 * and code; "waited" when a statement blocked on a lock) and what the
 * history shows (a check against the ladder of models) beside what the
 * backend's documentation promises at that level (isolde_promise_of); a
 * broken promise is proved as `check` does. Several runs end with a
 * table, a row per scenario and a column per level. The exit status says
 * whether every level kept its promise; with -c, each history is checked
 * as -c says and the status is the worst check's. The histories go to
 * DIR/isolde-NAME-LEVEL.jsonl (-o DIR; default the current directory).
 * With --json, stdout has one JSON result per line (each with its "file")
 * and the rest goes to stderr.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct scen_cli {
    isolde_run_opts o;
    cli_check check;
    cli_backend be;
    const char *dir;
    long wait_ms, reconnect;
};

#define S(f) offsetof(struct scen_cli, f)
static const cli_opt scen_opts[] = {
    {0, "url", CLI_CALL, S(be), "U", "an endpoint; the scripted transactions take them in turn", 0, 0,
     cli_add_url, 0},
    {'i', "isolation", CLI_STRING, S(o.isolation), "L", "this level only (default: every level of the backend)",
     0, 0, NULL, 0},
    {'o', "output", CLI_STRING, S(dir), "DIR", "where the histories go, made if missing (default: here)", 0, 0,
     NULL, 0},
    {0, "wait", CLI_LONG, S(wait_ms), "MS", "a statement still running after MS is blocked on a lock (300)", 1,
     600000, NULL, 0},
    {0, "reconnect", CLI_LONG, S(reconnect), "MS", "keep trying to connect for MS (30000)", 0, 2147483647.0,
     NULL, 0},
};
#undef S

/* The table of promises (every backend's, or backend's alone). */
static void promises_help(FILE *out, cli_style st, const char *backend)
{
    cli_doc_heading(out, st, "what each level is checked against: the model its documentation promises");
    for (size_t i = 0; isolde_promise_at(i); i++) {
        const isolde_promise *p = isolde_promise_at(i);
        if (backend && strcmp(backend, p->backend)) continue;
        char left[96], right[512];
        snprintf(left, sizeof left, "%s %s", p->backend, p->level);
        snprintf(right, sizeof right, "%s; allows %s (%s)", p->model, p->allows, p->source);
        cli_doc_item(out, st, left, right);
    }
}

static void usage(FILE *out, cli_style st, void *cmd, const char *backend)
{
    struct scen_cli *r = cmd;
    cli_table t[2] = {{"scenario options", scen_opts, sizeof scen_opts / sizeof scen_opts[0], r},
                      cli_check_table(&r->check)};
    cli_doc_usage(out, st, "isolde scenario NAME|all BACKEND [options] [check options]");
    cli_doc_text(out, st, "Runs a classic interleaving deterministically: each transaction on a client of\n"
                          "its own, the statements handed out in the script's order, a statement that\n"
                          "blocks on a lock left to finish when the lock is released. For each level it\n"
                          "prints whether each transaction committed and what the history (a setup\n"
                          "transaction first, the final reads of every key last) shows, beside what the\n"
                          "backend's documentation promises at that level (below); a broken promise is\n"
                          "proved as check does. Several runs end with a table: a row per scenario, a\n"
                          "column per level. With -c, each history is checked as -c says instead.\n"
                          "Keys x, y are keys 1, 2 in the history; the setup appends 1 to x and 2 to y.\n");
    cli_doc_heading(out, st, "scenarios (the anomaly each provokes, and its script)");
    for (size_t i = 0; isolde_scenario_at(i); i++) {
        const isolde_scenario *s = isolde_scenario_at(i);
        char name[128], line[1024];
        snprintf(name, sizeof name, "%s (%s)", s->name, s->anomaly);
        snprintf(line, sizeof line, "%s\nscript: %s", s->help, s->script);
        cli_doc_item(out, st, name, line);
    }
    promises_help(out, st, backend);
    cli_help(out, st, t, 2);
    cli_doc_item(out, st, "-h, --help", "this text (isolde scenario NAME BACKEND --help: that backend's)");
    cli_doc_heading(out, st, "backends and their own options");
    cli_backend_help(out, st, backend);
    cli_doc_text(out, st, "exit status: 0 when every level kept what its documentation promises, 1 when one\n"
                          "broke it (with -c: the worst check, 0 valid, 1 anomalies found, 2 unknown), 3 error\n");
}

void cmd_scenario_help(FILE *out, cli_style st)
{
    static struct scen_cli r; /* for the tables' offsets only */
    usage(out, st, &r, NULL);
}

/* 1 to run, 0 after help, -1 on a bad argument. */
static int parse_args(struct scen_cli *r, int argc, char **argv, const char **name)
{
    cli_table t[2] = {{"scenario options", scen_opts, sizeof scen_opts / sizeof scen_opts[0], r},
                      cli_check_table(&r->check)};
    int rc = cli_backend_parse(&r->be, argc, argv, 2, t, 2, usage, r);
    if (rc != 1) return rc;
    *name = argv[1];
    cli_backend_apply(&r->be, &r->o);
    if (r->reconnect >= 0) r->o.reconnect_ms = r->reconnect;
    return cli_check_validate(&r->check, ISOLDE_WORKLOAD_LIST_APPEND) ? -1 : 1;
}

/* "T1 ok, T2 fail (serialization-failure 40001: message)" */
static void print_outcome(FILE *out, const char *name, const isolde_run_opts *o, const isolde_scenario_result *res)
{
    fprintf(out, "scenario %s on %s at %s:", name, o->backend, o->isolation);
    for (int i = 0; i < res->n_txns; i++) {
        const isolde_scenario_txn *t = &res->txns[i];
        fprintf(out, "%s T%d %s%s", i ? "," : "", i + 1, t->outcome, t->waited ? " after waiting on a lock" : "");
        if (t->err_class[0] || t->error[0])
            fprintf(out, " (%s%s%s%s%s)", t->err_class, t->code[0] ? " " : "", t->code,
                    t->err_class[0] && t->error[0] ? ": " : "", t->error);
    }
    fprintf(out, "\nhistory: %s\n", o->history_path);
    fflush(out);
}

/* What one run found, for the table at the end. */
#define MAX_TYPES 16
struct found {
    const char *types[MAX_TYPES]; /* the anomaly types a check against the ladder found (static) */
    int n;
    char codes[64];               /* the codes of the transactions that did not commit: "40001" */
    int broken;                   /* a type the level's promise forbids */
    int ran;                      /* the run was made and checked */
};

/* The codes of res's transactions that did not commit, distinct, into buf. */
static void codes_of(const isolde_scenario_result *res, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < res->n_txns; i++) {
        const char *code = res->txns[i].code;
        if (!code[0] || strcmp(res->txns[i].outcome, "ok") == 0 || strstr(buf, code)) continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", code);
        if (w < 0 || (size_t)w >= size - n) break;
        n += (size_t)w;
    }
}

/* "promise: M (...); found: T, U; it forbids U: BROKEN", or kept. */
static void print_found(FILE *out, const isolde_promise *p, const struct found *f)
{
    if (p) fprintf(out, "promise: %s (%s's documentation at %s); found: ", p->model, p->backend, p->level);
    else fputs("promise: none known; found: ", out);
    for (int i = 0; i < f->n; i++) fprintf(out, "%s%s", i ? ", " : "", f->types[i]);
    if (!f->n) fputs("nothing", out);
    if (p && f->broken) {
        fputs("; it forbids", out);
        for (int i = 0, k = 0; i < f->n; i++)
            if (cli_forbids(p->model, f->types[i])) fprintf(out, "%s %s", k++ ? "," : "", f->types[i]);
        fputs(": BROKEN", out);
    } else if (p) {
        fputs(": kept", out);
    }
    fputc('\n', out);
}

/* The history checked against the whole ladder: what it shows, whatever
 * the level; f filled and said. Returns the status by the promise p. */
static int find(struct scen_cli *r, const isolde_scenario_result *res, const isolde_promise *p, struct found *f)
{
    isolde_result *result;
    isolde_error err;
    if (cli_check_ladder(r->o.history_path, ISOLDE_WORKLOAD_LIST_APPEND, &result, &err))
        return cli_print_error(&err), EXIT_ERROR;
    for (size_t i = 0; i < isolde_result_type_count(result) && f->n < MAX_TYPES; i++) {
        f->types[f->n] = cli_anomaly_name(isolde_result_type(result, i));
        f->broken |= p && cli_forbids(p->model, f->types[f->n++]);
    }
    int unknown = isolde_result_validity(result) == ISOLDE_UNKNOWN;
    isolde_result_free(result);
    codes_of(res, f->codes, sizeof f->codes);
    f->ran = 1;
    print_found(r->check.json ? stderr : stdout, p, f);
    return f->broken ? ISOLDE_INVALID : unknown ? ISOLDE_UNKNOWN : ISOLDE_VALID;
}

/* The history checked against what p promises, the report printed. */
static int check_promise(struct scen_cli *r, const isolde_promise *p)
{
    const char *asked = r->check.opts.models;
    r->check.opts.models = p->model;
    int status = cli_check_file(&r->check);
    r->check.opts.models = asked;
    return status;
}

/* One scenario at one level; its history is r->check.files[r->check.at].
 * Without -c, the status is whether the level kept its promise, and the
 * report (its proof) is printed when it did not (always with --json). A
 * usage error (a URL the backend refuses, credentials it denies) ends the
 * plan (*give_up): every other run would fail the same way. */
static int run_one(struct scen_cli *r, const char *name, struct found *f, int *give_up)
{
    isolde_scenario_result res;
    isolde_error err;
    r->o.history_path = r->check.files[r->check.at];
    if (isolde_scenario_run(&r->o, name, r->wait_ms, &res, &err) != ISOLDE_OK) {
        cli_print_error(&err);
        *give_up = err.code == ISOLDE_ERR_USAGE;
        return EXIT_ERROR;
    }
    print_outcome(r->check.json ? stderr : stdout, name, &r->o, &res);
    const isolde_promise *p = isolde_promise_of(r->o.backend, r->o.isolation);
    int status = find(r, &res, p, f);
    if (status == EXIT_ERROR) return status;
    if (r->check.opts.models || !p) status = cli_check_file(&r->check);
    else if (f->broken || r->check.json) status = check_promise(r, p);
    if (!r->check.json) putchar('\n');
    return status;
}

/* The runs: every scenario (or the one named) x every level (or -i's). */
struct plan {
    const char *names[32], *levels[32];
    int n_names, n_levels;
    char **paths;
    struct found *found; /* per run, names x levels */
};

static const char *scenario_at(size_t i, void *arg)
{
    (void)arg;
    return isolde_scenario_at(i) ? isolde_scenario_at(i)->name : NULL;
}

static int plan_of(struct scen_cli *r, const char *name, struct plan *p)
{
    const isolde_backend *b = cli_backend_find("scenario", r->be.name);
    if (!b) return -1;
    for (size_t i = 0; isolde_scenario_at(i) && p->n_names < 32; i++)
        if (!strcmp(name, "all") || !strcmp(name, isolde_scenario_at(i)->name))
            p->names[p->n_names++] = isolde_scenario_at(i)->name;
    if (!p->n_names) {
        fprintf(stderr, "isolde scenario: unknown scenario '%s'", name);
        if (!cli_suggest(stderr, name, scenario_at, NULL)) fprintf(stderr, " (see isolde scenario --help)");
        return fputc('\n', stderr), -1;
    }
    if (r->o.isolation) p->levels[p->n_levels++] = r->o.isolation;
    for (const char *const *l = b->levels; !r->o.isolation && l && *l && p->n_levels < 32; l++)
        p->levels[p->n_levels++] = *l;
    if (!p->n_levels) p->levels[p->n_levels++] = b->isolation;
    if (cli_make_dir("scenario", r->dir)) return -1;
    int n = p->n_names * p->n_levels;
    p->paths = calloc((size_t)n, sizeof *p->paths);
    p->found = calloc((size_t)n, sizeof *p->found);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(r->dir) + 64 + strlen(p->levels[i % p->n_levels]);
        if (!p->paths || !p->found || !(p->paths[i] = malloc(len)))
            return fprintf(stderr, "isolde scenario: out of memory\n"), -1;
        snprintf(p->paths[i], len, "%s/isolde-%s-%s.jsonl", r->dir, p->names[i / p->n_levels],
                 p->levels[i % p->n_levels]);
    }
    return 0;
}

/* ---- the table: a row per scenario, a column per level ---- */

/* A run's cell: the types found (a broken promise said so), or valid with
 * the codes of the transactions that did not commit. */
static void print_cell(FILE *out, const struct found *f)
{
    if (!f->ran) fputs("error", out);
    for (int i = 0; i < f->n; i++) fprintf(out, "%s%s", i ? ", " : "", f->types[i]);
    if (f->ran && !f->n) fprintf(out, "valid%s%s%s", f->codes[0] ? " (" : "", f->codes, f->codes[0] ? ")" : "");
    if (f->broken) fputs(" (BROKEN)", out);
}

/* The last line: whether every level kept its documentation's promise. */
static void print_verdict(FILE *out, const struct scen_cli *r, const struct plan *p)
{
    int n = p->n_names * p->n_levels, broken = 0, known = 0, failed = 0;
    for (int l = 0; l < p->n_levels; l++) known += isolde_promise_of(r->be.name, p->levels[l]) != NULL;
    for (int i = 0; i < n; i++) broken += p->found[i].broken, failed += !p->found[i].ran;
    if (failed) fprintf(out, "\n%d of %d runs could not be made or checked (error above)\n", failed, n);
    if (!known) fprintf(out, "\nisolde knows no documented promise of %s's levels\n", r->be.name);
    else if (failed && !broken) return;
    else if (!broken) fprintf(out, "\nevery level kept what %s's documentation promises\n", r->be.name);
    else fprintf(out, "\n%d of %d runs broke what %s's documentation promises (BROKEN above)\n", broken, n, r->be.name);
}

static void print_table(FILE *out, const struct scen_cli *r, const struct plan *p)
{
    fprintf(out, "%s on %s: the anomalies each level showed (valid: none; in parentheses the codes\n"
                 "of the transactions that did not commit), and the model its documentation promises\n\n"
                 "| scenario |",
            p->n_names > 1 ? "scenarios" : p->names[0], r->be.name);
    for (int l = 0; l < p->n_levels; l++) fprintf(out, " %s |", p->levels[l]);
    fputs("\n|---|", out);
    for (int l = 0; l < p->n_levels; l++) fputs("---|", out);
    for (int s = 0; s < p->n_names; s++) {
        fprintf(out, "\n| %s |", p->names[s]);
        for (int l = 0; l < p->n_levels; l++) {
            fputc(' ', out);
            print_cell(out, &p->found[s * p->n_levels + l]);
            fputs(" |", out);
        }
    }
    fputs("\n| promise |", out);
    for (int l = 0; l < p->n_levels; l++) {
        const isolde_promise *pr = isolde_promise_of(r->be.name, p->levels[l]);
        fprintf(out, " %s |", pr ? pr->model : "none known");
    }
    fputc('\n', out);
    print_verdict(out, r, p);
}

static int run_plan(struct scen_cli *r, const struct plan *p)
{
    int n = p->n_names * p->n_levels, status = ISOLDE_VALID, give_up = 0;
    r->check.files = (const char *const *)p->paths;
    r->check.n_files = n;
    for (r->check.at = 0; r->check.at < n && !give_up; r->check.at++) {
        r->o.isolation = p->levels[r->check.at % p->n_levels];
        status = cli_worse(status, run_one(r, p->names[r->check.at / p->n_levels], &p->found[r->check.at], &give_up));
    }
    if (n > 1) print_table(r->check.json ? stderr : stdout, r, p);
    return status;
}

int cmd_scenario(int argc, char **argv)
{
    static struct scen_cli r;
    memset(&r, 0, sizeof r);
    isolde_run_opts_init(&r.o);
    static cli_wait wait = {"scenario", 0, NULL};
    r.o.waiting = cli_waiting;
    r.o.progress_arg = &wait;
    cli_check_init(&r.check);
    r.dir = ".";
    r.reconnect = -1;
    const char *name = NULL;
    int rc = parse_args(&r, argc, argv, &name), status = rc < 0 ? EXIT_ERROR : 0;
    r.check.opts.workload = ISOLDE_WORKLOAD_LIST_APPEND;
    r.check.read.format = ISOLDE_FORMAT_JSONL;
    struct plan p = {0};
    if (rc > 0) status = plan_of(&r, name, &p) ? EXIT_ERROR : run_plan(&r, &p);
    for (int i = 0; p.paths && i < p.n_names * p.n_levels; i++) free(p.paths[i]);
    free(p.paths);
    free(p.found);
    cli_backend_free(&r.be);
    return status;
}
