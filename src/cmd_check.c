/* cmd_check.c -- `isolde check`: read histories, check them, report. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out, "usage: isolde check [options] FILE...\n\n"
                 "Reads each history (Jepsen EDN, elle-cli JSON, JSON lines, OneLite, IsoCheck,\n"
                 "jepsen.log), checks it and prints the verdict with a proof of every anomaly.\n\n"
                 "options:\n%s  -h, --help                  this text\n\n"
                 "exit status: 0 valid, 1 anomalies found, 2 unknown, 3 error\n",
            cli_check_help);
}

/* The worst status of several files: error > invalid > unknown > valid. */
static int worse(int a, int b)
{
    static const int rank[] = {0, 2, 1, 3};
    return rank[b] > rank[a] ? b : a;
}

int cmd_check(int argc, char **argv)
{
    cli_check c;
    cli_check_init(&c);
    const char *files[argc];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { help(stdout); return 0; }
        int r = cli_check_option(&c, argc, argv, &i);
        if (r < 0) return ISO_ERROR;
        if (r > 0) continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "isolde check: unknown option '%s' (see isolde check --help)\n", argv[i]);
            return ISO_ERROR;
        }
        files[n++] = argv[i];
    }
    if (!n) { help(stderr); return ISO_ERROR; }
    int status = ISO_VALID;
    for (int i = 0; i < n; i++) {
        iso_history *h = NULL;
        iso_error err = {0};
        if (n > 1) printf("%s### %s\n", i ? "\n" : "", files[i]);
        if (iso_history_read_file(files[i], c.format, &h, &err)) {
            cli_print_error(&err);
            status = worse(status, ISO_ERROR);
            continue;
        }
        status = worse(status, cli_check_history(&c, files[i], h));
        iso_history_free(h);
    }
    return status;
}
