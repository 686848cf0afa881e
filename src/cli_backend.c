/*
 * cli_backend.c -- what the commands that drive a database share (run,
 * scenario, campaign): their command line (cli_backend_parse), the
 * backend named on it, its endpoints (--url, repeated), its own options
 * (from its table, isolde_backend_option, as --name VALUE, kept as
 * "name=value") and their help, the faults a run injects (the nemesis
 * options), and the directory their histories go to. The strings it
 * keeps are its own until cli_backend_free. A URL's password is
 * overwritten in argv once copied, so that no other user sees it in the
 * process list.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int is_arg(const char *a, const char *short_name, const char *long_name)
{
    return !strcmp(a, short_name) || !strcmp(a, long_name);
}

/* Whether argv[1..lead] are there, none an option. */
static int has_lead(int argc, char **argv, int lead)
{
    for (int i = 1; i <= lead; i++)
        if (i >= argc || argv[i][0] == '-') return 0;
    return 1;
}

int cli_backend_parse(cli_backend *b, int argc, char **argv, int lead, const cli_table *tables,
                      size_t n_tables, cli_usage_fn *usage, void *cmd)
{
    int asked = argc >= 2 && is_arg(argv[1], "-h", "--help");
    if (argc >= 2 && is_arg(argv[1], "-V", "--version")) return cli_version(), 0;
    if (asked || !has_lead(argc, argv, lead)) {
        usage(asked ? stdout : stderr, CLI_TEXT, cmd, NULL);
        return asked ? 0 : -1;
    }
    b->cmd = argv[0];
    b->name = argv[lead];
    const char **pos = malloc((size_t)argc * sizeof *pos);
    if (!pos) return fprintf(stderr, "isolde %s: out of memory\n", b->cmd), -1;
    int n_pos = 0;
    int rc = cli_parse(argc - lead, argv + lead, b->cmd, tables, n_tables, cli_backend_option, b, pos, &n_pos);
    if (rc == CLI_HELP) usage(stdout, CLI_TEXT, cmd, b->name);
    if (rc == CLI_VERSION) cli_version();
    if (rc == 0 && n_pos) {
        fprintf(stderr, "isolde %s: unexpected argument '%s' (see isolde %s --help)\n", b->cmd, pos[0], b->cmd);
        rc = -1;
    }
    free(pos);
    return rc < 0 ? -1 : rc > 0 ? 0 : 1;
}

char *cli_take_url(const char *cmd, const char *v)
{
    char *copy = strdup(v);
    if (!copy) return fprintf(stderr, "isolde %s: out of memory\n", cmd), NULL;
    isolde_url_hide_password((char *)v); /* argv's text: it may be written */
    return copy;
}

int cli_add_url(void *at, const char *v)
{
    cli_backend *b = at;
    if (b->n_urls == CLI_MAX_URLS) return fprintf(stderr, "isolde %s: at most %d --url\n", b->cmd, CLI_MAX_URLS), -1;
    if (!(b->urls[b->n_urls] = cli_take_url(b->cmd, v))) return -1;
    b->n_urls++;
    return 0;
}

int cli_backend_option(void *arg, const char *name, const char *value, int *took_value)
{
    cli_backend *b = arg;
    for (size_t i = 0;; i++) {
        const isolde_option *o = isolde_backend_option(b->name, i);
        if (!o) return 0;
        if (strcmp(o->name, name) != 0) continue;
        int flag = o->type == ISOLDE_OPTION_FLAG;
        if (!flag && !value) return fprintf(stderr, "isolde %s: --%s needs a value\n", b->cmd, name), -1;
        if (b->n_opts == CLI_MAX_BACKEND_OPTS) return fprintf(stderr, "isolde %s: too many options\n", b->cmd), -1;
        size_t n = strlen(name) + (flag ? 2 : strlen(value)) + 2;
        char *kv = malloc(n);
        if (!kv) return fprintf(stderr, "isolde %s: out of memory\n", b->cmd), -1;
        snprintf(kv, n, "%s=%s", name, flag ? "1" : value);
        b->opts[b->n_opts++] = kv;
        *took_value = !flag;
        return 1;
    }
}

const isolde_backend *cli_backend_named(const char *name)
{
    for (size_t i = 0; name && isolde_backend_at(i); i++)
        if (strcmp(isolde_backend_at(i)->name, name) == 0) return isolde_backend_at(i);
    return NULL;
}

static const char *backend_at(size_t i, void *arg)
{
    (void)arg;
    return isolde_backend_at(i) ? isolde_backend_at(i)->name : NULL;
}

const isolde_backend *cli_backend_find(const char *cmd, const char *name)
{
    const isolde_backend *b = cli_backend_named(name);
    if (b) return b;
    fprintf(stderr, "isolde %s: unknown backend '%s'", cmd, name ? name : "");
    cli_suggest(stderr, name ? name : "", backend_at, NULL);
    fputc('\n', stderr);
    return NULL;
}

void cli_waiting(void *arg, const char *what)
{
    const cli_wait *w = arg;
    if (w->on_line) fprintf(stderr, "\r\033[K  %s", what);
    else fprintf(stderr, "isolde %s: %s\n", w->cmd, what);
}

void cli_backend_apply(const cli_backend *b, isolde_run_opts *o)
{
    o->backend = b->name;
    o->urls = (const char *const *)b->urls;
    o->n_urls = b->n_urls;
    o->backend_opts = (const char *const *)b->opts;
    o->n_backend_opts = b->n_opts;
}

void cli_backend_free(cli_backend *b)
{
    for (size_t i = 0; i < b->n_opts; i++) free(b->opts[i]);
    for (size_t i = 0; i < b->n_urls; i++) free(b->urls[i]);
    b->n_opts = b->n_urls = 0;
}

/* "-i L": the default level first, then the others. */
static void levels_help(FILE *out, cli_style st, const isolde_backend *b)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%s (default)", b->isolation);
    for (const char *const *l = b->levels; l && *l && n < (int)sizeof line; l++)
        if (strcmp(*l, b->isolation) != 0) n += snprintf(line + n, sizeof line - (size_t)n, ", %s", *l);
    cli_doc_item(out, st, "-i L", line);
}

static void options_help(FILE *out, cli_style st, const isolde_backend *b)
{
    for (size_t j = 0;; j++) {
        const isolde_option *o = isolde_backend_option(b->name, j);
        if (!o) break;
        char left[64], line[1024];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        snprintf(line, sizeof line, "%s%s%s%s", o->help, o->dflt ? " (" : "", o->dflt ? o->dflt : "",
                 o->dflt ? ")" : "");
        cli_doc_item(out, st, left, line);
    }
}

void cli_backend_help(FILE *out, cli_style st, const char *name)
{
    for (size_t i = 0;; i++) {
        const isolde_backend *b = isolde_backend_at(i);
        if (!b) break;
        if (name && strcmp(b->name, name) != 0) continue;
        char line[1024];
        snprintf(line, sizeof line, "%s: %s\n", b->name, b->help);
        cli_doc_text(out, st, line);
        if (b->url_help) cli_doc_item(out, st, "--url U", b->url_help);
        if (b->isolation) levels_help(out, st, b);
        options_help(out, st, b);
    }
}

int cli_make_dir(const char *cmd, const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "isolde %s: cannot make %s: %s\n", cmd, dir, strerror(errno));
    return -1;
}

/* --peer: o->faults.peers is the command's array (CLI_MAX_URLS). */
static int add_peer(void *at, const char *v)
{
    isolde_run_opts *o = at;
    if (!o->faults.peers || o->faults.n_peers == CLI_MAX_URLS)
        return fprintf(stderr, "isolde: at most %d --peer\n", CLI_MAX_URLS), -1;
    ((const char **)o->faults.peers)[o->faults.n_peers++] = v;
    return 0;
}

#define F(f) offsetof(isolde_run_opts, f)
static const cli_opt fault_opts[] = {
    {0, "nemesis", CLI_STRING, F(faults.nemesis), "K,K",
     "faults beside the clients: command, kill, pause, partition, latency, drop", 0, 0, NULL, 0},
    {0, "fault-every", CLI_DOUBLE, F(faults.every), "S", "mean seconds between faults (5)", 1e-6, 1e6, NULL, 0},
    {0, "fault-for", CLI_DOUBLE, F(faults.duration), "S", "seconds each fault lasts before its heal (2)", 0, 1e6,
     NULL, 0},
    {0, "fault", CLI_STRING, F(faults.fault_cmd), "CMD", "command nemesis: the fault (sh -c)", 0, 0, NULL, 0},
    {0, "heal", CLI_STRING, F(faults.heal_cmd), "CMD", "command nemesis: the heal (sh -c)", 0, 0, NULL, 0},
    {0, "restart", CLI_STRING, F(faults.restart_cmd), "CMD", "kill nemesis: how the server comes back (sh -c)", 0,
     0, NULL, 0},
    {0, "pid-file", CLI_STRING, F(faults.pid_file), "F", "kill and pause nemeses: the server's pid file", 0, 0, NULL,
     0},
    {0, "pid", CLI_LONG, F(faults.pid), "N", "kill and pause nemeses: the server's pid", 1, 4194304, NULL, 0},
    {0, "txn-timeout", CLI_LONG, F(txn_timeout_ms), "MS",
     "give up a statement unanswered after MS (0: wait)", 0, INT_MAX, NULL, 0},
    {0, "proxy", CLI_FLAG, F(faults.proxy), NULL,
     "clients reach each --url through isolde's fault proxy (node nI: the I-th --url)", 0, 0, NULL, 1},
    {0, "peer", CLI_CALL, 0, "FROM>TO@L=T",
     "a link of the cluster's own traffic through the run's proxy (isolde proxy --link)", 0, 0, add_peer, 0},
    {0, "proxy-control", CLI_STRING, F(faults.proxy_control), "HOST:PORT",
     "another isolde proxy's control port: partition, latency and drop reach its links too", 0, 0, NULL, 0},
    {0, "latency", CLI_LONG, F(faults.latency_ms), "MS", "latency nemesis: bytes held MS ms (100)", 1, 600000, NULL, 0},
};
#undef F

cli_table cli_fault_table(isolde_run_opts *o)
{
    return (cli_table){"fault options", fault_opts, sizeof fault_opts / sizeof fault_opts[0], o};
}

/* ---- a nemesis that never fired ---- */

/* Faults of every kind o->faults.nemesis names name[0..len) at, from position 0;
 * -1 when an earlier position names it too (it is counted there). */
static long kind_faults(const isolde_run_opts *o, const isolde_run_stats *st, int at, const char *name,
                        size_t len)
{
    long n = 0;
    int i = 0;
    for (const char *s = o->faults.nemesis; *s && i < ISOLDE_RUN_MAX_KINDS; i++) {
        size_t l = strcspn(s, ",");
        if (l == len && !strncmp(s, name, len)) {
            if (i < at) return -1;
            n += st->kind_faults[i];
        }
        s += l + (s[l] == ',');
    }
    return n;
}

/* Why kind name[0..len) never fired, on stderr. */
static void warn_idle(const char *cmd, const char *what, const isolde_run_opts *o, const isolde_run_stats *st,
                      const char *name, size_t len)
{
    fprintf(stderr, "isolde %s: warning: %s%s--nemesis %.*s never fired: ", cmd, what ? what : "",
            what ? ": " : "", (int)len, name);
    if (st->faults) {
        fprintf(stderr, "each fault's kind is drawn at random, and the run's %ld fault%s drew %s (a longer run "
                        "draws more)\n", st->faults, st->faults == 1 ? "" : "s", st->faults == 1 ? "another" : "others");
        return;
    }
    int sim = !strcmp(o->backend, "sim");
    fprintf(stderr, "the run ended after %.3g s%s, before its first fault was due at ~%.3g s (raise %s or lower "
                    "--fault-every)\n", st->nemesis_seconds, sim ? " of simulated time" : "", st->first_fault_due,
            st->time_limited ? "--time-limit" : "-n");
}

void cli_warn_idle_nemesis(const char *cmd, const char *what, const isolde_run_opts *o, const isolde_run_stats *st)
{
    int i = 0;
    for (const char *s = o->faults.nemesis; s && *s && i < ISOLDE_RUN_MAX_KINDS; i++) {
        size_t len = strcspn(s, ",");
        if (kind_faults(o, st, i, s, len) == 0) warn_idle(cmd, what, o, st, s, len);
        s += len + (s[len] == ',');
    }
}
