/* cmd_check.c -- `isolde check [options] FILE...`: read histories, check
 * them, report; the worst verdict is the exit status. With several files,
 * a text report per file under "### FILE", or with --json one JSON object
 * per line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cmd_check_help(FILE *out, cli_style st)
{
    cli_check c;
    cli_follow f;
    cli_check_init(&c);
    cli_follow_init(&f);
    cli_table t[2] = {cli_check_table(&c), cli_follow_table(&f)};
    cli_doc_usage(out, st, "isolde check [options] FILE...");
    cli_doc_text(out, st, "Reads each history (Jepsen EDN or history.txt, elle-cli JSON, JSON lines, OneLite,\n"
                          "IsoCheck, jepsen.log; gzip-compressed too; - for standard input), checks it and\n"
                          "prints the verdict with a proof of every anomaly.\n");
    cli_help(out, st, t, 2);
    cli_doc_item(out, st, "-h, --help", "this text");
    cli_doc_item(out, st, "-V, --version", "print the version");
    cli_doc_text(out, st, "exit status: 0 valid, 1 anomalies found, 2 unknown, 3 error (the worst of\n"
                          "all files)\n");
}

int cmd_check(int argc, char **argv)
{
    cli_check c;
    cli_follow f;
    cli_check_init(&c);
    cli_follow_init(&f);
    cli_table t[2] = {cli_check_table(&c), cli_follow_table(&f)};
    const char **files = malloc((size_t)argc * sizeof *files);
    int n = 0, rc = cli_parse(argc, argv, "check", t, 2, NULL, NULL, files, &n);
    if (rc == CLI_PARSED && n && cli_check_validate(&c, ISOLDE_WORKLOAD_AUTO)) rc = -1;
    if (rc == CLI_PARSED && f.on && n != 1) rc = -1, fprintf(stderr, "isolde: check --follow takes one FILE\n");
    if (rc == CLI_VERSION) cli_version();
    else if (rc == CLI_HELP || (!rc && !n)) cmd_check_help(rc ? stdout : stderr, CLI_TEXT);
    int status = rc > 0 ? 0 : rc < 0 || !n ? EXIT_ERROR : ISOLDE_VALID;
    c.files = files;
    c.n_files = n;
    for (c.at = 0; !rc && c.at < n; c.at++) {
        if (n > 1 && !c.json) printf("%s### %s\n", c.at ? "\n" : "", files[c.at]);
        status = cli_worse(status, f.on ? cli_follow_file(&c, &f) : cli_check_file(&c));
    }
    free(files);
    return status;
}
