/*
 * cmd_scenario.c -- `isolde scenario NAME|all BACKEND [options] [check
 * options]`: run a directed scenario (isolde_scenario_run) at each level
 * of the backend (or the one -i names), print whether the database
 * committed each transaction (ok, or fail / info with the error's class
 * and code; "waited" when a statement blocked on a lock), then check the
 * history it wrote as `check` does, and exit with the worst status. The
 * histories go to DIR/isolde-NAME-LEVEL.jsonl (-o DIR; default the current
 * directory). With --json, stdout has one JSON result per line (each with
 * its "file") and the outcomes go to stderr.
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

static void usage(FILE *out, cli_style st, struct scen_cli *r, const char *backend)
{
    cli_table t[2] = {{"scenario options", scen_opts, sizeof scen_opts / sizeof scen_opts[0], r},
                      cli_check_table(&r->check)};
    cli_doc_usage(out, st, "isolde scenario NAME|all BACKEND [options] [check options]");
    cli_doc_text(out, st, "Runs a classic interleaving deterministically: each transaction on a client of\n"
                          "its own, the statements handed out in the script's order, a statement that\n"
                          "blocks on a lock left to finish when the lock is released. For each level it\n"
                          "prints whether each transaction committed, then checks the history (a setup\n"
                          "transaction first, the final reads of every key last) as check does.\n"
                          "Keys x, y are keys 1, 2 in the history; the setup appends 1 to x and 2 to y.\n");
    cli_doc_heading(out, st, "scenarios (the anomaly each provokes, and its script)");
    for (size_t i = 0; isolde_scenario_at(i); i++) {
        const isolde_scenario *s = isolde_scenario_at(i);
        char line[1024];
        snprintf(line, sizeof line, "%s (%s): %s", s->help, s->anomaly, s->script);
        cli_doc_item(out, st, s->name, line);
    }
    cli_help(out, st, t, 2);
    cli_doc_item(out, st, "-h, --help", "this text (isolde scenario NAME BACKEND --help: that backend's)");
    cli_doc_heading(out, st, "backends and their own options");
    cli_backend_help(out, st, backend);
    cli_doc_text(out, st, "exit status: the worst over the runs: 0 valid, 1 anomalies found, 2 unknown, 3 error\n");
}

void cmd_scenario_help(FILE *out, cli_style st)
{
    static struct scen_cli r; /* for the tables' offsets only */
    usage(out, st, &r, NULL);
}

/* 1 to run, 0 after help, -1 on a bad argument. */
static int parse_args(struct scen_cli *r, int argc, char **argv, const char **name)
{
    int help = argc < 3 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");
    if (help || argv[1][0] == '-' || argv[2][0] == '-') {
        int asked = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
        usage(asked ? stdout : stderr, CLI_TEXT, r, NULL);
        return asked ? 0 : -1;
    }
    *name = argv[1];
    r->be.name = argv[2];
    r->be.cmd = "scenario";
    cli_table t[2] = {{"scenario options", scen_opts, sizeof scen_opts / sizeof scen_opts[0], r},
                      cli_check_table(&r->check)};
    const char **pos = malloc((size_t)argc * sizeof *pos);
    int n_pos = 0, rc = cli_parse(argc - 2, argv + 2, "scenario", t, 2, cli_backend_option, &r->be, pos, &n_pos);
    if (rc == CLI_HELP) usage(stdout, CLI_TEXT, r, r->be.name);
    if (rc == CLI_VERSION) cli_version();
    if (rc == 0 && n_pos) {
        fprintf(stderr, "isolde scenario: unexpected argument '%s' (see isolde scenario --help)\n", pos[0]);
        rc = -1;
    }
    free(pos);
    cli_backend_apply(&r->be, &r->o);
    if (r->reconnect >= 0) r->o.reconnect_ms = r->reconnect;
    if (rc == 0 && cli_check_validate(&r->check, ISOLDE_WORKLOAD_LIST_APPEND)) rc = -1;
    return rc < 0 ? -1 : rc > 0 ? 0 : 1;
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

/* One scenario at one level; its history is r->check.files[r->check.at].
 * A usage error (a URL the backend refuses, credentials it denies) ends
 * the plan (*give_up): every other run would fail the same way. */
static int run_one(struct scen_cli *r, const char *name, int *give_up)
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
    int status = cli_check_file(&r->check);
    if (!r->check.json) putchar('\n');
    return status;
}

/* The runs: every scenario (or the one named) x every level (or -i's). */
struct plan {
    const char *names[32], *levels[32];
    int n_names, n_levels;
    char **paths;
};

static int plan_of(struct scen_cli *r, const char *name, struct plan *p)
{
    const isolde_backend *b = cli_backend_named(r->be.name);
    if (!b) return fprintf(stderr, "isolde scenario: unknown backend '%s'\n", r->be.name), -1;
    for (size_t i = 0; isolde_scenario_at(i) && p->n_names < 32; i++)
        if (!strcmp(name, "all") || !strcmp(name, isolde_scenario_at(i)->name))
            p->names[p->n_names++] = isolde_scenario_at(i)->name;
    if (!p->n_names) return fprintf(stderr, "isolde scenario: unknown scenario '%s' (see isolde scenario --help)\n", name), -1;
    if (r->o.isolation) p->levels[p->n_levels++] = r->o.isolation;
    for (const char *const *l = b->levels; !r->o.isolation && l && *l && p->n_levels < 32; l++)
        p->levels[p->n_levels++] = *l;
    if (!p->n_levels) p->levels[p->n_levels++] = b->isolation;
    if (cli_make_dir("scenario", r->dir)) return -1;
    int n = p->n_names * p->n_levels;
    p->paths = calloc((size_t)n, sizeof *p->paths);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(r->dir) + 64 + strlen(p->levels[i % p->n_levels]);
        if (!p->paths || !(p->paths[i] = malloc(len)))
            return fprintf(stderr, "isolde scenario: out of memory\n"), -1;
        snprintf(p->paths[i], len, "%s/isolde-%s-%s.jsonl", r->dir, p->names[i / p->n_levels],
                 p->levels[i % p->n_levels]);
    }
    return 0;
}

static int run_plan(struct scen_cli *r, const struct plan *p)
{
    int n = p->n_names * p->n_levels, status = ISOLDE_VALID, give_up = 0;
    r->check.files = (const char *const *)p->paths;
    r->check.n_files = n;
    for (r->check.at = 0; r->check.at < n && !give_up; r->check.at++) {
        r->o.isolation = p->levels[r->check.at % p->n_levels];
        status = cli_worse(status, run_one(r, p->names[r->check.at / p->n_levels], &give_up));
    }
    return status;
}

int cmd_scenario(int argc, char **argv)
{
    static struct scen_cli r;
    memset(&r, 0, sizeof r);
    isolde_run_opts_init(&r.o);
    static cli_wait wait = {"scenario", 0};
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
    cli_backend_free(&r.be);
    return status;
}
