/*
 * cmd_shrink.c -- `isolde shrink [check options] FILE [-o OUT]`: the
 * smallest history that still shows one of FILE's anomalies under the
 * same check options (isolde_shrink; docs/SHRINK.md), written with a
 * header in tests/data's convention (how to check it, the exit status and
 * type to expect) so that it re-checks alone and can become a regression
 * case. Exit: 0 written, 1 FILE has no such anomaly (nothing written),
 * 3 error.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct cli_shrink {
    const char *anomaly, *out;
    long instance;
    double time_limit;
} cli_shrink;

#define F(f) offsetof(cli_shrink, f)
static const cli_opt shrink_opts[] = {
    {0, "anomaly", CLI_STRING, F(anomaly), "TYPE",
     "the anomaly type to keep (default: the check's first type, by name)", 0, 0, NULL, 0},
    {0, "instance", CLI_LONG, F(instance), "N",
     "start from the transactions of the type's N-th finding (0, the first)", 0, 1e9, NULL, 0},
    {'o', "output", CLI_STRING, F(out), "OUT", "write the shrunk history to OUT (default: standard output)", 0, 0,
     NULL, 0},
    {0, "time-limit", CLI_DOUBLE, F(time_limit), "S",
     "start no check after S seconds (60; 0: none); the history found by then is written, said not minimal", 0,
     1e6, NULL, 0},
};
#undef F

static cli_table shrink_table(cli_shrink *s)
{
    return (cli_table){"shrink", shrink_opts, sizeof shrink_opts / sizeof shrink_opts[0], s};
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    char *p = NULL;
    FILE *m = f ? open_memstream(&p, len) : NULL;
    char block[65536];
    for (size_t n; m && (n = fread(block, 1, sizeof block, f)) > 0;) fwrite(block, 1, n, m);
    int bad = !f || ferror(f);
    if (m) fclose(m);
    if (f && f != stdin) fclose(f);
    if (bad) free(p);
    return bad ? NULL : p;
}

/* The header: where it came from, and the tests/data lines that say how
 * to check it and what to expect. args: the check options as given. */
static char *header(const char *file, const isolde_shrink_stats *st, int argc, char **argv, int file_at)
{
    char *h = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&h, &n);
    fprintf(m, "%s: isolde shrink of %s: %zu of its %zu ops (%zu of %zu transactions and lone ops), %s\n",
            st->anomaly, file, st->ops_after, st->ops_before, st->units_after, st->units_before,
            st->minimal ? "1-minimal: no one transaction can go" : "not minimal: the time limit came first");
    fprintf(m, "check:");
    for (int i = 1; i < argc; i++) {
        if (i == file_at) continue;
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") || !strcmp(argv[i], "--anomaly") ||
            !strcmp(argv[i], "--instance") || !strcmp(argv[i], "--time-limit")) {
            i++;
            continue;
        }
        if (!strncmp(argv[i], "--anomaly=", 10) || !strncmp(argv[i], "--instance=", 11) ||
            !strncmp(argv[i], "--output=", 9) || !strncmp(argv[i], "--time-limit=", 13))
            continue;
        fprintf(m, strchr(argv[i], ' ') ? " '%s'" : " %s", argv[i]);
    }
    fprintf(m, "\nstatus: 1\ntypes: %s\n", st->types);
    fclose(m);
    return h;
}

/* header's lines as comments, then the body, to path (NULL: stdout). */
static int write_shrunk(const char *path, char mark, const char *header, const char *body, size_t len)
{
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out) return fprintf(stderr, "isolde shrink: %s: cannot write it\n", path), EXIT_ERROR;
    for (const char *p = header; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(out, "%c %.*s\n", mark, (int)n, p);
        p += n + (nl != NULL);
    }
    fwrite(body, 1, len, out);
    int bad = fflush(out) != 0 || ferror(out);
    if (out != stdout) bad |= fclose(out) != 0;
    if (bad) fprintf(stderr, "isolde shrink: %s: cannot write it\n", path ? path : "standard output");
    return bad ? EXIT_ERROR : 0;
}

static int shrink_file(const cli_check *c, const cli_shrink *s, const char *file, int argc, char **argv,
                       int file_at)
{
    size_t len = 0;
    char *text = slurp(file, &len);
    if (!text) return fprintf(stderr, "isolde shrink: %s: cannot read it\n", file), EXIT_ERROR;
    isolde_check_opts co;
    isolde_shrink_opts so;
    isolde_shrink_stats st;
    isolde_error err;
    char *block = cli_library_opts(c, &co);
    isolde_shrink_opts_init(&so);
    so.anomaly = s->anomaly;
    so.instance = (size_t)s->instance;
    so.time_limit_s = s->time_limit;
    char *body = NULL;
    size_t body_len = 0;
    FILE *m = open_memstream(&body, &body_len);
    isolde_status rc = block && m ? isolde_shrink(file, text, len, &c->read, &co, &so, m, &st, &err) : ISOLDE_ERR_NOMEM;
    if (m) fclose(m);
    int status = rc ? EXIT_ERROR : st.found ? 0 : 1;
    if (rc == ISOLDE_ERR_NOMEM && !block) fprintf(stderr, "isolde shrink: out of memory\n");
    else if (rc) cli_print_error(&err);
    if (status == 1)
        fprintf(stderr, "isolde shrink: %s: %s under these options: nothing to shrink\n", file,
                s->anomaly ? "no such anomaly" : "no anomaly");
    if (!status) {
        char *h = header(file, &st, argc, argv, file_at);
        status = write_shrunk(s->out, st.comment, h, body, body_len);
        fprintf(stderr, "isolde shrink: %s: %s kept in %zu of %zu ops (%zu checks, %.2f s)%s\n", file, st.anomaly,
                st.ops_after, st.ops_before, st.checks, st.seconds, st.minimal ? "" : "; not minimal (time limit)");
        free(h);
    }
    free(body);
    free(block);
    free(text);
    return status;
}

void cmd_shrink_help(FILE *out, cli_style st)
{
    cli_check c;
    cli_shrink s = {0};
    cli_check_init(&c);
    cli_table t[2] = {shrink_table(&s), cli_check_table(&c)};
    cli_doc_usage(out, st, "isolde shrink [options] FILE");
    cli_doc_text(out, st, "Writes the smallest history that still shows one of FILE's anomalies under the\n"
                          "same check options: transactions are left out while the check of what remains\n"
                          "still finds the anomaly's type and no type FILE did not have, until no single one\n"
                          "can go. FILE: EDN or JSON lines, one op per line. The result starts with comment\n"
                          "lines saying where it came from, how to check it and what to expect\n"
                          "(docs/SHRINK.md).\n");
    cli_help(out, st, t, 2);
    cli_doc_item(out, st, "-h, --help", "this text");
    cli_doc_item(out, st, "-V, --version", "print the version");
    cli_doc_text(out, st, "exit status: 0 written, 1 FILE has no such anomaly (nothing written), 3 error\n");
}

int cmd_shrink(int argc, char **argv)
{
    cli_check c;
    cli_shrink s = {.time_limit = 60};
    cli_check_init(&c);
    cli_table t[2] = {shrink_table(&s), cli_check_table(&c)};
    const char **files = malloc((size_t)argc * sizeof *files);
    int n = 0, rc = files ? cli_parse(argc, argv, "shrink", t, 2, NULL, NULL, files, &n) : -1;
    if (rc == CLI_PARSED && n != 1) rc = -1, fprintf(stderr, "isolde shrink takes one FILE\n");
    if (rc == CLI_PARSED && cli_check_validate(&c, ISOLDE_WORKLOAD_AUTO)) rc = -1;
    if (rc == CLI_VERSION) cli_version();
    else if (rc == CLI_HELP || rc < 0) cmd_shrink_help(rc > 0 ? stdout : stderr, CLI_TEXT);
    int status = rc > 0 ? 0 : rc < 0 ? EXIT_ERROR : 0;
    int file_at = 0;
    for (int i = 1; !rc && i < argc; i++)
        if (argv[i] == files[0]) file_at = i;
    if (!rc) status = shrink_file(&c, &s, files[0], argc, argv, file_at);
    free(files);
    return status;
}
