/* cmd_check.c -- `isolde check [options] FILE...`: read histories, check
 * them, report; the worst verdict is the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void help(FILE *out, const cli_table *t)
{
    fprintf(out, "usage: isolde check [options] FILE...\n\n"
                 "Reads each history (Jepsen EDN, elle-cli JSON, JSON lines, OneLite, IsoCheck,\n"
                 "jepsen.log), checks it and prints the verdict with a proof of every anomaly.\n\n");
    cli_help(out, t, 1);
    fprintf(out, "  -h, --help                     this text\n\n"
                 "exit status: 0 valid, 1 anomalies found, 2 unknown, 3 error\n");
}

/* The worst status of several files: error > invalid > unknown > valid. */
static int worse(int a, int b)
{
    static const int rank[] = {0, 2, 1, 3};
    return rank[b] > rank[a] ? b : a;
}

static int check_file(cli_check *c, const char *path)
{
    isolde_history *h = NULL;
    isolde_error err;
    if (isolde_history_read_file(path, &c->read, &h, &err)) {
        cli_print_error(&err);
        return EXIT_ERROR;
    }
    int status = cli_check_history(c, path, h);
    isolde_history_free(h);
    return status;
}

int cmd_check(int argc, char **argv)
{
    cli_check c;
    cli_check_init(&c);
    cli_table t = cli_check_table(&c);
    const char **files = malloc((size_t)argc * sizeof *files);
    int n = 0, rc = cli_parse(argc, argv, "check", &t, 1, NULL, NULL, files, &n);
    if (rc == 0 && n && cli_check_validate(&c)) rc = -1;
    if (rc > 0 || (!rc && !n)) help(rc > 0 ? stdout : stderr, &t);
    int status = rc > 0 ? 0 : rc < 0 || !n ? EXIT_ERROR : ISOLDE_VALID;
    for (int i = 0; !rc && i < n; i++) {
        if (n > 1) printf("%s### %s\n", i ? "\n" : "", files[i]);
        status = worse(status, check_file(&c, files[i]));
    }
    free(files);
    return status;
}
