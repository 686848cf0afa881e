/*
 * cmd_campaign.c -- `isolde campaign BACKEND [options]`: every level of the
 * backend (or those -i lists) x {list-append, rw-register} x N seeds, each
 * run through isolde_run and its history checked once against the ladder
 * strict-serializable .. read-uncommitted; then, per model, the anomaly
 * types found that the model forbids (isolde_check_opts_forbid), with in
 * how many seeds each appeared. Prints a Markdown table (--markdown, or
 * stdout not a terminal; then stderr gets a line per run): a row per
 * level x workload, a column per model, and what the row's runs covered
 * (their transactions by outcome, contended ones, clients, keys, time,
 * the faults the nemesis injected, when the fault options ask for one);
 * a terminal gets a compact one instead, a word per model and the
 * anomalies found on a line of their own. A
 * valid cell says "no contention" when no transaction of its runs was
 * contended, and "no faults" when none was injected. Every
 * run starts on fresh tables (the backend's --fresh, where it has one). --json:
 * the same as one JSON object. Exit status 0 when every run was made and
 * checked, 3 on an error.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define N_MODELS CLI_LADDER_N
static const isolde_workload workloads[] = {ISOLDE_WORKLOAD_LIST_APPEND, ISOLDE_WORKLOAD_RW_REGISTER};
#define MAX_LEVELS 16
#define MAX_TYPES 24

struct cell {
    const char *types[MAX_TYPES]; /* found and forbidden by the model (static names) */
    int seeds[MAX_TYPES];         /* in how many seeds */
    int n, unknown;               /* types; runs whose check was unknown */
};

struct row {
    const char *level;
    isolde_workload w;
    isolde_run_stats sum;         /* ok, fail, info, contended, faults, seconds summed */
    struct cell cells[N_MODELS];
};

struct camp {
    isolde_run_opts o;
    cli_backend be;
    const char *dir, *levels_arg;
    long seeds, txns, clients, keys, reconnect;
    int json, markdown, keep;
    const char *levels[MAX_LEVELS];
    int n_levels;
    struct row rows[MAX_LEVELS * 2];
};

#define C(f) offsetof(struct camp, f)
static const cli_opt camp_opts[] = {
    {0, "url", CLI_CALL, C(be), "U", "an endpoint; several spread the clients over them", 0, 0, cli_add_url, 0},
    {'i', "isolation", CLI_STRING, C(levels_arg), "L,L", "these levels (default: every level of the backend)",
     0, 0, NULL, 0},
    {0, "seeds", CLI_LONG, C(seeds), "N", "runs per level and workload, seeds 1..N (3)", 1, 1000, NULL, 0},
    {'n', "txns", CLI_LONG, C(txns), "N", "transactions per run (1000)", 1, 1e9, NULL, 0},
    {'p', "clients", CLI_LONG, C(clients), "N", "concurrent clients (10)", 1, 4096, NULL, 0},
    {0, "keys", CLI_LONG, C(keys), "N", "hot keys (4)", 1, 1024, NULL, 0},
    {0, "reconnect", CLI_LONG, C(reconnect), "MS", "keep trying to connect for MS (30000)", 0, 2147483647.0,
     NULL, 0},
    {'o', "output", CLI_STRING, C(dir), "DIR", "keep the histories in DIR, made if missing (default: removed)", 0, 0, NULL,
     0},
    {0, "json", CLI_FLAG, C(json), NULL, "the table as one JSON object", 0, 0, NULL, 1},
    {0, "markdown", CLI_FLAG, C(markdown), NULL,
     "the table in Markdown, every cell (what stdout gets when it is not a terminal)", 0, 0, NULL, 1},
};
#undef C

static void usage(FILE *out, cli_style st, void *cmd, const char *backend)
{
    struct camp *c = cmd;
    cli_table t[2] = {{"campaign options", camp_opts, sizeof camp_opts / sizeof camp_opts[0], c},
                      cli_fault_table(&c->o)};
    cli_doc_usage(out, st, "isolde campaign BACKEND [options]");
    cli_doc_text(out, st, "Runs every level of the backend x {list-append, rw-register} x N seeds and\n"
                          "checks each history against strict-serializable, serializable,\n"
                          "snapshot-isolation, repeatable-read, read-committed and read-uncommitted.\n"
                          "Prints a table: each cell the anomaly types found that the model forbids\n"
                          "(with the share of seeds when not every one), or valid; beside each row\n"
                          "what its runs covered -- in Markdown (--markdown, or when stdout is not a\n"
                          "terminal: then stderr gets a line per run), or on a terminal compact: a word\n"
                          "per model, the anomalies found below each row. rw-register is checked with\n"
                          "--wfr-keys. The fault options inject the same faults into every run.\n");
    cli_help(out, st, t, 2);
    cli_doc_item(out, st, "-h, --help", "this text (isolde campaign BACKEND --help: that backend's)");
    cli_doc_heading(out, st, "backends and their own options");
    cli_backend_help(out, st, backend);
    cli_doc_text(out, st, "exit status: 0 when every run was made and checked, 3 on an error\n");
}

void cmd_campaign_help(FILE *out, cli_style st)
{
    static struct camp c; /* for the table's offsets only */
    usage(out, st, &c, NULL);
}

/* The levels: -i's list, or every level the backend has. */
static int levels_of(struct camp *c, char *buf, size_t size)
{
    const isolde_backend *b = cli_backend_find("campaign", c->be.name);
    if (!b) return -1;
    if (c->levels_arg) {
        snprintf(buf, size, "%s", c->levels_arg);
        char *save = NULL;
        for (char *l = strtok_r(buf, ",", &save); l && c->n_levels < MAX_LEVELS; l = strtok_r(NULL, ",", &save))
            c->levels[c->n_levels++] = l;
    }
    for (const char *const *l = b->levels; !c->levels_arg && l && *l && c->n_levels < MAX_LEVELS; l++)
        c->levels[c->n_levels++] = *l;
    if (!c->n_levels && b->isolation) c->levels[c->n_levels++] = b->isolation;
    return c->n_levels ? 0 : (fprintf(stderr, "isolde campaign: %s has no levels\n", b->name), -1);
}

/* 1 to run, 0 after help, -1 on a bad argument. */
static int parse_args(struct camp *c, int argc, char **argv)
{
    cli_table t[2] = {{"campaign options", camp_opts, sizeof camp_opts / sizeof camp_opts[0], c},
                      cli_fault_table(&c->o)};
    return cli_backend_parse(&c->be, argc, argv, 1, t, 2, usage, c);
}

/* ---- one run and its check ---- */

/* One more seed showed type: the cell's types stay sorted by name. */
static void add_type(struct cell *cell, const char *type)
{
    int i = 0;
    while (i < cell->n && strcmp(cell->types[i], type) < 0) i++;
    if (i < cell->n && !strcmp(cell->types[i], type)) return (void)cell->seeds[i]++;
    if (cell->n == MAX_TYPES) return;
    memmove(&cell->types[i + 1], &cell->types[i], (size_t)(cell->n - i) * sizeof cell->types[0]);
    memmove(&cell->seeds[i + 1], &cell->seeds[i], (size_t)(cell->n - i) * sizeof cell->seeds[0]);
    cell->types[i] = type;
    cell->seeds[i] = 1;
    cell->n++;
}

/* Each model's cell gets the types of r it forbids. */
static void tally(struct row *row, const isolde_result *r)
{
    for (size_t m = 0; m < N_MODELS; m++) {
        if (isolde_result_validity(r) == ISOLDE_UNKNOWN) row->cells[m].unknown++;
        for (size_t i = 0; i < isolde_result_type_count(r); i++)
            if (cli_forbids(cli_ladder[m], isolde_result_type(r, i)))
                add_type(&row->cells[m], cli_anomaly_name(isolde_result_type(r, i)));
    }
}

static int check_run(struct row *row, const char *path, isolde_error *err)
{
    isolde_result *r;
    if (cli_check_ladder(path, row->w, &r, err)) return -1;
    tally(row, r);
    isolde_result_free(r);
    return 0;
}

static void add_stats(isolde_run_stats *sum, const isolde_run_stats *st)
{
    sum->ok += st->ok;
    sum->fail += st->fail;
    sum->info += st->info;
    sum->contended += st->contended;
    sum->faults += st->faults;
    sum->seconds += st->seconds;
}

static int run_one(struct camp *c, struct row *row, long seed, char *path, size_t size)
{
    snprintf(path, size, "%s/%s-%s-%ld.jsonl", c->dir, row->level, isolde_workload_name(row->w), seed);
    isolde_run_opts o = c->o;
    o.isolation = row->level;
    o.workload = row->w;
    o.seed = (uint64_t)seed;
    o.history_path = path;
    isolde_run_stats st;
    isolde_error err;
    int rc = isolde_run(&o, &st, &err) || check_run(row, path, &err);
    if (rc) cli_print_error(&err);
    else add_stats(&row->sum, &st);
    char what[128];
    snprintf(what, sizeof what, "%s %s seed %ld", row->level, isolde_workload_name(row->w), seed);
    if (!rc) cli_warn_idle_nemesis("campaign", what, &o, &st);
    if (!c->keep) remove(path);
    return rc ? -1 : 0;
}

/* Which run is next, on stderr: a line each when stdout is not a
 * terminal (a file fills in silence otherwise), else one line redrawn
 * when stderr is a terminal. */
static void progress(const struct camp *c, long done, const struct row *row, long seed)
{
    long total = c->n_levels * 2 * c->seeds;
    int lines = !isatty(STDOUT_FILENO);
    if (!lines && !isatty(STDERR_FILENO)) return;
    if (!row) {
        if (!lines) fputs("\r\033[K", stderr);
        return;
    }
    fprintf(stderr, "%scampaign: run %ld of %ld: %s %s seed %ld%s", lines ? "" : "\r\033[K", done + 1, total,
            row->level, isolde_workload_name(row->w), seed, lines ? "\n" : "");
    fflush(stderr);
}

static int run_all(struct camp *c)
{
    char path[4096];
    long done = 0;
    for (int l = 0; l < c->n_levels; l++)
        for (int w = 0; w < 2; w++) {
            struct row *row = &c->rows[l * 2 + w];
            row->level = c->levels[l];
            row->w = workloads[w];
            for (long s = 1; s <= c->seeds; s++, done++) {
                progress(c, done, row, s);
                if (run_one(c, row, s, path, sizeof path)) return -1;
            }
        }
    progress(c, done, NULL, 0);
    return 0;
}

/* ---- the table ---- */

/* The plural's s, for n of a noun. */
static const char *s_if(long n) { return n == 1 ? "" : "s"; }

static void print_cell(FILE *out, const struct camp *c, const struct row *row, const struct cell *cell)
{
    for (int i = 0; i < cell->n; i++) {
        fprintf(out, "%s%s", i ? ", " : "", cell->types[i]);
        if (cell->seeds[i] < c->seeds) fprintf(out, " (%d/%ld)", cell->seeds[i], c->seeds);
    }
    if (cell->unknown) fprintf(out, "%sunknown (%d/%ld)", cell->n ? ", " : "", cell->unknown, c->seeds);
    if (cell->n || cell->unknown) return;
    const char *quiet = row->sum.contended ? "" : "no contention";
    const char *calm = row->sum.faults ? "" : "no faults";
    fprintf(out, "valid%s%s%s%s%s", *quiet || *calm ? " (" : "", quiet, *quiet && *calm ? ", " : "", calm,
            *quiet || *calm ? ")" : "");
}

/* The first line: what every run was. */
static void print_head(const struct camp *c)
{
    printf("campaign: %s, %ld seed%s x %ld txn%s, %ld client%s, %ld key%s; ", c->be.name, c->seeds, s_if(c->seeds),
           c->txns, s_if(c->txns), c->clients, s_if(c->clients), c->keys, s_if(c->keys));
    if (c->o.faults.nemesis) printf("faults: %s, one every %g s on average, each for %g s\n\n", c->o.faults.nemesis, c->o.faults.every,
                             c->o.faults.duration);
    else printf("no faults injected\n\n");
}

static void print_markdown(const struct camp *c)
{
    print_head(c);
    printf("| level | workload |");
    for (size_t m = 0; m < N_MODELS; m++) printf(" %s |", cli_ladder[m]);
    printf(" covered |\n|---|---|");
    for (size_t m = 0; m < N_MODELS; m++) printf("---|");
    printf("---|\n");
    for (int i = 0; i < c->n_levels * 2; i++) {
        const struct row *row = &c->rows[i];
        printf("| %s | %s |", row->level, isolde_workload_name(row->w));
        for (size_t m = 0; m < N_MODELS; m++) {
            putchar(' ');
            print_cell(stdout, c, row, &row->cells[m]);
            printf(" |");
        }
        printf(" %ld ok, %ld fail, %ld info; %ld contended; %ld client%s, %ld key%s; %.1f s; faults: ", row->sum.ok,
               row->sum.fail, row->sum.info, row->sum.contended, c->clients, s_if(c->clients), c->keys,
               s_if(c->keys), row->sum.seconds);
        if (row->sum.faults) printf("%ld (%s) |\n", row->sum.faults, c->o.faults.nemesis);
        else printf("none |\n");
    }
}

/* ---- the compact table, for a terminal: a word per model ---- */

static const char *const short_names[N_MODELS] = {"SS", "SER", "SI", "RR", "RC", "RU"};

/* What the row's runs found, every type any model forbids (in how many
 * seeds, when not all), and what they did not cover, into buf. */
static void found_text(const struct camp *c, const struct row *row, char *buf, size_t size)
{
    struct cell all = {0};
    for (size_t m = 0; m < N_MODELS; m++)
        for (int i = 0; i < row->cells[m].n; i++) {
            int k = 0;
            while (k < all.n && all.types[k] != row->cells[m].types[i]) k++;
            if (k == all.n) add_type(&all, row->cells[m].types[i]);
            for (k = 0; k < all.n; k++)
                if (all.types[k] == row->cells[m].types[i] && all.seeds[k] < row->cells[m].seeds[i])
                    all.seeds[k] = row->cells[m].seeds[i];
        }
    size_t n = (size_t)snprintf(buf, size, "%s", all.n ? "" : "-");
    for (int i = 0; i < all.n && n < size; i++) {
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", all.types[i]);
        if (all.seeds[i] < c->seeds && n < size) n += (size_t)snprintf(buf + n, size - n, " (%d)", all.seeds[i]);
    }
    if (!row->sum.contended && n < size) n += (size_t)snprintf(buf + n, size - n, "; no contention");
    if (c->o.faults.nemesis && n < size) snprintf(buf + n, size - n, "; %ld fault%s", row->sum.faults, s_if(row->sum.faults));
}

/* A model's word for a row: yes (no seed showed what it forbids), no, or
 * ? (a check was unknown). */
static const char *verdict(const struct cell *cell) { return cell->n ? "no" : cell->unknown ? "?" : "yes"; }

static double share(long part, long whole) { return whole ? 100.0 * (double)part / (double)whole : 0; }

static void print_compact(const struct camp *c)
{
    int lw = 5;
    for (int l = 0; l < c->n_levels; l++) lw = (int)strlen(c->levels[l]) > lw ? (int)strlen(c->levels[l]) : lw;
    print_head(c);
    printf("%-*s  %-11s", lw, "level", "workload");
    for (size_t m = 0; m < N_MODELS; m++) printf("  %-3s", short_names[m]);
    printf("    ok  cont.\n");
    for (int i = 0; i < c->n_levels * 2; i++) {
        const struct row *row = &c->rows[i];
        long n = row->sum.ok + row->sum.fail + row->sum.info;
        printf("%-*s  %-11s", lw, row->level, isolde_workload_name(row->w));
        for (size_t m = 0; m < N_MODELS; m++) printf("  %-3s", verdict(&row->cells[m]));
        printf("  %3.0f%%   %3.0f%%\n  found: ", share(row->sum.ok, n), share(row->sum.contended, n));
        char found[1024];
        found_text(c, row, found, sizeof found);
        cli_wrap(stdout, found, 9, 9);
        putchar('\n');
    }
    char legend[1024];
    snprintf(legend, sizeof legend, "\nSS strict-serializable, SER serializable, SI snapshot-isolation, RR repeatable-read, "
             "RC read-committed, RU read-uncommitted: yes when no seed showed an anomaly the model forbids, no "
             "when one did, ? when a check was unknown. ok: the transactions that committed; cont.: those that ran "
             "beside one touching a key they touched, one of the two writing it; found: every anomaly type, in how "
             "many of the %ld seeds when not all. --markdown: every cell.\n", c->seeds);
    cli_wrap(stdout, legend, 0, 0);
}

static void json_cell(const struct cell *cell, size_t m)
{
    printf("%s", m ? "," : "");
    cli_json_string(stdout, cli_ladder[m]);
    printf(":{\"valid\":%s,\"unknown\":%d,\"anomalies\":{", cell->n || cell->unknown ? "false" : "true",
           cell->unknown);
    for (int i = 0; i < cell->n; i++) {
        printf("%s", i ? "," : "");
        cli_json_string(stdout, cell->types[i]);
        printf(":%d", cell->seeds[i]);
    }
    printf("}}");
}

static void print_json(const struct camp *c)
{
    printf("{\"backend\":");
    cli_json_string(stdout, c->be.name);
    printf(",\"seeds\":%ld,\"txns\":%ld,\"clients\":%ld,\"keys\":%ld,\"nemesis\":", c->seeds, c->txns, c->clients,
           c->keys);
    if (c->o.faults.nemesis) cli_json_string(stdout, c->o.faults.nemesis);
    else printf("null");
    printf(",\"rows\":[");
    for (int i = 0; i < c->n_levels * 2; i++) {
        const struct row *row = &c->rows[i];
        printf("%s{\"level\":", i ? "," : "");
        cli_json_string(stdout, row->level);
        printf(",\"workload\":\"%s\",\"ok\":%ld,\"fail\":%ld,\"info\":%ld,\"contended\":%ld,\"faults\":%ld,"
               "\"seconds\":%.3f,\"models\":{", isolde_workload_name(row->w), row->sum.ok, row->sum.fail,
               row->sum.info, row->sum.contended, row->sum.faults, row->sum.seconds);
        for (size_t m = 0; m < N_MODELS; m++) json_cell(&row->cells[m], m);
        printf("}}");
    }
    printf("]}\n");
}

/* ---- the command ---- */

/* Each run starts on fresh tables, where the backend has --fresh. */
static void setup(struct camp *c)
{
    int took = 0;
    cli_backend_option(&c->be, "fresh", NULL, &took);
    cli_backend_apply(&c->be, &c->o);
    c->o.txns = c->txns;
    c->o.clients = (int)c->clients;
    c->o.keys = (int)c->keys;
    if (c->reconnect >= 0) c->o.reconnect_ms = c->reconnect;
}

static int campaign(struct camp *c)
{
    char levels[1024], tmp[4096];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/isolde-campaign-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (levels_of(c, levels, sizeof levels)) return EXIT_ERROR;
    c->keep = c->dir != NULL;
    if (c->keep && cli_make_dir("campaign", c->dir)) return EXIT_ERROR;
    if (!c->dir && !(c->dir = mkdtemp(tmp)))
        return fprintf(stderr, "isolde campaign: cannot make a directory for the histories\n"), EXIT_ERROR;
    setup(c);
    int rc = run_all(c);
    if (!c->keep) rmdir(c->dir);
    if (rc) return EXIT_ERROR;
    if (c->json) print_json(c);
    else if (c->markdown || !isatty(STDOUT_FILENO)) print_markdown(c);
    else print_compact(c);
    return 0;
}

int cmd_campaign(int argc, char **argv)
{
    static struct camp c;
    memset(&c, 0, sizeof c);
    isolde_run_opts_init(&c.o);
    static cli_wait wait = {"campaign", 0, NULL};
    c.o.waiting = cli_waiting;
    c.o.progress_arg = &wait;
    c.seeds = 3;
    c.txns = 1000;
    c.clients = 10;
    c.keys = 4;
    c.reconnect = -1;
    int rc = parse_args(&c, argc, argv);
    int status = rc < 0 ? EXIT_ERROR : rc == 0 ? 0 : campaign(&c);
    cli_backend_free(&c.be);
    return status;
}
