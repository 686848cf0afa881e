/*
 * cmd_convert.c -- `isolde convert IN -t FORMAT [-o OUT]`: a history read in
 * any format isolde reads (-f, or detected), written in another: Elle's JSON
 * lines, elle-cli's JSON, Jepsen's EDN, Plume's text, dbcop's bincode
 * (isolde_history_write). What the target cannot hold is refused with the
 * op and what it is (exit 3), and nothing is left at OUT: the history goes
 * to a file beside it, renamed to OUT once it is all written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct convert {
    isolde_read_opts read;
    isolde_format to;
    const char *out;
};

#define C(field) offsetof(struct convert, field)
static const cli_opt opts[] = {
    {'t', "to", CLI_CALL, C(to), "FORMAT", "the format to write: jsonl, json, edn, plume or dbcop (required)", 0, 0,
     cli_set_format, 0},
    {'o', "output", CLI_STRING, C(out), "OUT", "where to write it (default: standard output)", 0, 0, NULL, 0},
    {'f', "format", CLI_CALL, C(read.format), "F", "the format IN is read as (default: detected), as check -f takes it",
     0, 0, cli_set_format, 0},
};
#undef C

void cmd_convert_help(FILE *out, cli_style st)
{
    struct convert c;
    const cli_table t = {NULL, opts, sizeof opts / sizeof opts[0], &c};
    cli_doc_usage(out, st, "isolde convert IN -t FORMAT [-o OUT] [-f F]");
    cli_doc_text(out, st,
                 "Writes the history IN (any format isolde check reads; - for standard input) in another\n"
                 "format: jsonl (Elle's JSON lines), json (elle-cli's array), edn (Jepsen's, one op a\n"
                 "line), plume (Plume's text: r(KEY,VALUE,SESSION,TXN) lines) or dbcop (dbcop's and\n"
                 "PolySI's bincode). Plume and dbcop hold committed and aborted transactions of reads and\n"
                 "writes of integer registers in sessions (processes), and no time: what they cannot hold\n"
                 "(an unknown outcome, an append, a value of 0, their initial value) is refused with the op\n"
                 "and why, and nothing is written (docs/FORMATS.md).\n");
    cli_help(out, st, &t, 1);
    cli_doc_item(out, st, "-h, --help", "this text");
    cli_doc_text(out, st, "exit status: 0 written, 3 error\n");
}

/* Write h to path (NULL: standard output) through a file beside it. */
static int write_out(const isolde_history *h, const struct convert *c)
{
    isolde_error err;
    if (!c->out) {
        if (isolde_history_write(h, c->to, stdout, &err) == ISOLDE_OK) return cli_stdout_flushed() ? EXIT_ERROR : 0;
        return cli_print_error(&err), EXIT_ERROR;
    }
    size_t n = strlen(c->out) + 32;
    char *tmp = malloc(n);
    if (!tmp) return fprintf(stderr, "isolde convert: out of memory\n"), EXIT_ERROR;
    snprintf(tmp, n, "%s.tmp-%ld", c->out, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int rc = EXIT_ERROR;
    if (!f) {
        fprintf(stderr, "isolde convert: cannot write %s: %s\n", tmp, strerror(errno));
    } else if (isolde_history_write(h, c->to, f, &err) != ISOLDE_OK) {
        cli_print_error(&err);
        fclose(f);
    } else if (fclose(f) != 0 || rename(tmp, c->out) != 0) {
        fprintf(stderr, "isolde convert: cannot write %s: %s\n", c->out, strerror(errno));
    } else {
        rc = 0;
    }
    if (rc) remove(tmp);
    free(tmp);
    return rc;
}

static int convert(const char *in, const struct convert *c)
{
    isolde_history *h = NULL;
    isolde_error err;
    if (isolde_history_read_file(in, &c->read, &h, &err) != ISOLDE_OK) return cli_print_error(&err), EXIT_ERROR;
    cli_print_warnings(h);
    int rc = write_out(h, c);
    isolde_history_free(h);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    struct convert c = {.to = ISOLDE_FORMAT_AUTO};
    isolde_read_opts_init(&c.read);
    const cli_table t = {NULL, opts, sizeof opts / sizeof opts[0], &c};
    const char **files = malloc((size_t)argc * sizeof *files);
    int n = 0, rc = files ? cli_parse(argc, argv, "convert", &t, 1, NULL, NULL, files, &n) : -1;
    int status = EXIT_ERROR;
    if (rc == CLI_VERSION) cli_version(), status = 0;
    else if (rc == CLI_HELP) cmd_convert_help(stdout, CLI_TEXT), status = 0;
    else if (rc == 0 && n != 1) fprintf(stderr, "isolde convert: give one history (IN), not %d\n", n);
    else if (rc == 0 && c.to == ISOLDE_FORMAT_AUTO) fprintf(stderr, "isolde convert: give the format to write (-t FORMAT)\n");
    else if (rc == 0) status = convert(files[0], &c);
    free(files);
    return status;
}
