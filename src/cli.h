/*
 * cli.h -- what the subcommands share: one option mechanism (tables of
 * options with offsets into the command's settings, parsed and printed as
 * help by the same code), the check options (parsed the same way by
 * `check` and `run`), running a check and printing its report, and the
 * one error printer.
 *
 * src/ uses only the public header, isolde.h.
 */
#ifndef ISO_CLI_H
#define ISO_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "isolde.h"

/* Exit statuses: a verdict (isolde_validity), or an error. */
enum { EXIT_ERROR = 3 };

/* ---- option tables (options.c) ---- */

enum cli_opt_type {
    CLI_FLAG,   /* no value: stores the row's flag value (an int) */
    CLI_STRING, /* stores the value (const char *, borrowed from argv) */
    CLI_LONG,   /* stores a long in [lo, hi] */
    CLI_DOUBLE, /* stores a double in [lo, hi] */
    CLI_CALL    /* call(target + off, value): 0, or -1 having printed why */
};

typedef struct cli_opt {
    char short_name;            /* 0: none */
    const char *long_name;
    enum cli_opt_type type;
    size_t off;                 /* where the value goes in the table's target */
    const char *arg;            /* the value's word in help ("MS"); NULL: a flag */
    const char *help;           /* NULL: an alias, not shown in help */
    double lo, hi;              /* CLI_LONG, CLI_DOUBLE */
    int (*call)(void *at, const char *value);
    int flag;                   /* CLI_FLAG: the value stored */
} cli_opt;

/* A table of options and the settings it fills; heading titles its part
 * of the help (NULL: none). */
typedef struct cli_table {
    const char *heading;
    const cli_opt *opts;
    size_t n;
    void *target;
} cli_table;

/* An option no table knows: return 1 if it was taken (setting *took_value
 * when it consumed value), 0 if it is unknown too, -1 having printed why
 * it is bad. value is the next argument (or the part after '='), or NULL. */
typedef int (*cli_unknown_fn)(void *arg, const char *name, const char *value, int *took_value);

/* Parse argv[1..argc) of command cmd against the tables, in order: -x V,
 * -xV, --name V, --name=V, and -- before positional arguments, which go
 * to pos (room for argc of them; *n_pos of them found). -h and --help
 * return 1; a bad option or value prints a message and returns -1. */
int cli_parse(int argc, char **argv, const char *cmd, const cli_table *tables, size_t n_tables,
              cli_unknown_fn unknown, void *unknown_arg, const char **pos, int *n_pos);
/* The tables' options as help lines. */
void cli_help(FILE *out, const cli_table *tables, size_t n_tables);
/* A number option's value: 0, or -1 having printed why it is not one. */
int cli_long(const char *cmd, const char *opt, const char *v, double lo, double hi, long *out);
int cli_double(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out);

/* ---- checking and reporting (cli_check.c) ---- */

typedef struct cli_check {
    isolde_check_opts opts;
    isolde_report_opts report;
    isolde_read_opts read;     /* -f/--format */
    int json;                  /* --json: print the result as JSON */
    const char *dir;           /* -d/--directory: one text file per anomaly type */
} cli_check;

void cli_check_init(cli_check *c);
/* The check options' table, filling c. */
cli_table cli_check_table(cli_check *c);
/* The models and anomalies c names, checked before anything is read: 0,
 * or -1 having printed why they are bad. */
int cli_check_validate(const cli_check *c);
/* Check h, print the report to stdout as the options ask, write -d files;
 * returns the exit status (a verdict, or EXIT_ERROR). */
int cli_check_history(cli_check *c, const char *name, const isolde_history *h);
/* Print an error as file:line:col: message, or isolde: message. */
void cli_print_error(const isolde_error *e);

/* ---- subcommands: argv[0] is the subcommand's name ---- */
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_repair(int argc, char **argv);

#endif
