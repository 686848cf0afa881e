/*
 * cli.h -- what the subcommands share: the check options (parsed the same
 * way by `check` and `run`), running a check and printing its report.
 */
#ifndef ISO_CLI_H
#define ISO_CLI_H

#include "isolde.h"

typedef struct cli_check {
    iso_check_opts opts;
    iso_report_opts report;
    iso_format format; /* -f/--format; AUTO by default */
    int json;          /* --json: print the result as JSON */
    const char *dir;   /* -d/--directory: one text file per anomaly type */
} cli_check;

void cli_check_init(cli_check *c);
/* If argv[*i] is a check option, consume it (and its argument, advancing
 * *i) and return 1; return 0 if it is not one; print a message to stderr
 * and return -1 on a bad value. */
int cli_check_option(cli_check *c, int argc, char **argv, int *i);
/* Check h, print the report to stdout as the options ask, write -d files;
 * returns the exit status (0 valid, 1 invalid, 2 unknown, 3 error). */
int cli_check_history(const cli_check *c, const char *name, const iso_history *h);
/* Print an error as file:line:col: message. */
void cli_print_error(const iso_error *e);
/* Help text for the check options, one per line. */
extern const char cli_check_help[];

/* Subcommands: argv[0] is the subcommand name. */
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);

#endif
