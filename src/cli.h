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

#include <pthread.h>
#include <stdatomic.h>
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
    CLI_CALL,   /* call(target + off, value): 0, or -1 having printed why
                   (arg NULL: a flag, value NULL) */
    CLI_PASS    /* passed on to the library as "name=value" (a flag, arg
                   NULL: "name"; name: the long name), into the cli_pass at
                   target + off, once the value passes the row's checks:
                   [lo, hi] when lo < hi, call(NULL, value) when there is one */
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

/* Options passed on as "name=value" strings (CLI_PASS): each name and its
 * value as given (NULL: a flag), borrowed from the table and argv. */
#define CLI_MAX_PASS 32
typedef struct cli_pass {
    struct { const char *name, *value; } given[CLI_MAX_PASS];
    int n;
} cli_pass;
/* Add name and value (NULL: a flag) to p: 0, or -1 having said why not. */
int cli_pass_add(cli_pass *p, const char *cmd, const char *name, const char *value);
/* The strings "name=value" of p, in a block the caller frees (NULL when
 * memory ran out, having said so); *strings points into it. */
char *cli_pass_strings(const cli_pass *p, const char *const **strings);

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

/* What cli_parse found: arguments to act on, or a request for help or
 * for the version (the command prints it and exits 0). */
enum { CLI_PARSED = 0, CLI_HELP = 1, CLI_VERSION = 2 };

/* Parse argv[1..argc) of command cmd against the tables, in order: -x V,
 * -xV, --name V, --name=V, and -- before positional arguments, which go
 * to pos (room for argc of them; *n_pos of them found). -h and --help
 * return CLI_HELP, -V and --version CLI_VERSION; a bad option or value
 * prints a message and returns -1. */
int cli_parse(int argc, char **argv, const char *cmd, const cli_table *tables, size_t n_tables,
              cli_unknown_fn unknown, void *unknown_arg, const char **pos, int *n_pos);
/* "isolde VERSION" on stdout, then "features: " and the optional libraries
 * built in (isolde_feature), or "none". */
void cli_version(void);
/* " (did you mean NAME?)" on out when a name of name_at's (until NULL) is
 * close enough to word to be a typo of it (isolde_closest_name); 1 if so. */
int cli_suggest(FILE *out, const char *word, isolde_name_at name_at, void *arg);

/* Help is printed by the same calls as text (--help) and as roff (the
 * man page, isolde --man): a usage line, paragraphs, headings, items (an
 * option or a name, and what it does), and the tables' options. */
typedef enum cli_style { CLI_TEXT, CLI_ROFF } cli_style;
void cli_doc_usage(FILE *out, cli_style st, const char *usage);
void cli_doc_text(FILE *out, cli_style st, const char *text);
void cli_doc_heading(FILE *out, cli_style st, const char *heading);
void cli_doc_item(FILE *out, cli_style st, const char *left, const char *right);
void cli_help(FILE *out, cli_style st, const cli_table *tables, size_t n_tables);
/* s from column col, its lines (at its newlines) broken between words
 * before column 100, each line after the first indented to column indent. */
void cli_wrap(FILE *out, const char *s, size_t col, size_t indent);
/* A number option's value: 0, or -1 having printed why it is not one. */
int cli_long(const char *cmd, const char *opt, const char *v, double lo, double hi, long *out);
int cli_double(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out);

/* ---- checking and reporting (cli_check.c) ---- */

typedef struct cli_check {
    isolde_check_opts opts;
    cli_pass checker;          /* the checkers' options (--total 30: total=30) */
    isolde_report_opts report;
    isolde_read_opts read;     /* -f/--format */
    int json;                  /* --json: print the result as JSON */
    const char *dir;           /* -d/--directory: one text file per anomaly type */
    const char *html;          /* --html FILE: the self-contained HTML report */
    /* The histories the command checks (one for run) and the one being
     * checked: with several, --json prints one object per line with its
     * "file", and -d DIR writes DIR/<file>/, never one over another. */
    const char *const *files;
    int n_files, at;
} cli_check;

void cli_check_init(cli_check *c);
/* -m / -w's CLI_CALL (at: an isolde_workload): an unknown name is an
 * error naming the closest known one and every one. */
int cli_set_workload(void *at, const char *v);
/* The check options' table, filling c. */
cli_table cli_check_table(cli_check *c);
/* The options, checked before anything is read or run: the models and
 * anomalies c names, whether -d's directory can be written; options that
 * do nothing for the workload asked for (w, or c's) are warned about
 * (when neither asks for one, once the check has inferred it:
 * cli_check_history). 0, or -1 having printed why they are bad. */
int cli_check_validate(const cli_check *c, isolde_workload w);
/* Check h (c->files[c->at]), print the report to stdout as the options
 * ask, write -d files; returns the exit status (a verdict, or EXIT_ERROR). */
int cli_check_history(cli_check *c, const isolde_history *h);
/* Read c->files[c->at] (as c->read says) and check it as
 * cli_check_history does. */
int cli_check_file(cli_check *c);
/* c's options as the library takes them: its checker options as
 * "name=value" strings in a block the caller frees, which o points into
 * (NULL: out of memory, said). */
char *cli_library_opts(const cli_check *c, isolde_check_opts *o);

/* ---- isolde check --follow (cli_follow.c) ---- */

typedef struct cli_follow {
    int on;          /* --follow */
    double timeout;  /* --follow-timeout: seconds a regular file may stay idle */
} cli_follow;
void cli_follow_init(cli_follow *f);
cli_table cli_follow_table(cli_follow *f);
/* Check c->files[c->at] as it grows (docs/ONLINE.md); the exit status as
 * cli_check_history's. */
int cli_follow_file(cli_check *c, const cli_follow *f);

/* isolde run --live: the run's history checked as it is written, on a
 * thread of its own at the lowest priority (the stream is that thread's
 * alone; the run's threads read found), or, for --stop-on-anomaly, by
 * the run's progress callback itself (the run waits for each early check:
 * it stops at the first anomaly, however fast it goes). */
typedef struct cli_live {
    isolde_stream *s;
    const char *path;
    int fd;            /* -1 until the run has made the file */
    isolde_check_opts opts;
    char *block;       /* the checker options' strings opts points into */
    pthread_t thread;
    int running;
    atomic_int stop;   /* set by cli_live_close */
    atomic_size_t found; /* certain anomalies printed so far */
} cli_live;
/* Start following path, which the run writes, checked as c says: what was
 * written read, checked as due and each certain anomaly printed, on a
 * thread (threaded) or at each cli_live_found: 0, or -1 having said why
 * not. */
int cli_live_open(cli_live *l, const cli_check *c, const char *path, int threaded);
/* How many certain anomalies were printed so far (not threaded: after
 * reading and checking what was written since). */
size_t cli_live_found(cli_live *l);
/* Stop the thread (after the early check it may be in) and free. */
void cli_live_close(cli_live *l);
/* A file that could not be checked: err printed, and with several files
 * and --json, a line {"file":..., "error":...} too. Returns EXIT_ERROR. */
int cli_check_failed(const cli_check *c, const isolde_error *err);
/* The ladder of models campaign and scenario check each history against
 * once, strongest first (CLI_LADDER_N of them). */
#define CLI_LADDER_N 6
extern const char *const cli_ladder[CLI_LADDER_N];
/* Read path (JSON lines) and check it as workload w against every model of
 * the ladder (rw-register with --wfr-keys, the one version order a run
 * may assume): 0 and *out a new result (isolde_result_free), or -1 with
 * err. */
int cli_check_ladder(const char *path, isolde_workload w, isolde_result **out, isolde_error *err);
/* The anomaly type's name as the library keeps it (static), so that it
 * outlives the result that named it; "unknown-anomaly" if none. */
const char *cli_anomaly_name(const char *type);
/* Whether the anomaly type is one that model forbids (1), not (0). */
int cli_forbids(const char *model, const char *type);
/* s as a JSON string: quotes, backslashes and control characters
 * escaped, UTF-8 kept, any byte that is not UTF-8 as U+FFFD. */
void cli_json_string(FILE *out, const char *s);
/* Print an error as file:line:col: message, or isolde: message. */
void cli_print_error(const isolde_error *e);
/* The history's warnings on stderr, as file:line:col: warning: ... */
void cli_print_warnings(const isolde_history *h);
/* -f's value (a format's name) into the isolde_format at at: 0, or -1
 * having said it is none (CLI_CALL). */
int cli_set_format(void *at, const char *v);
/* Whether stdout took all that was written to it (flushed now): 0, or
 * -1 having said why not on stderr (once: its error is cleared). A
 * command that could not write its output exits EXIT_ERROR. */
int cli_stdout_flushed(void);

/* The worst of two exit statuses: error > invalid > unknown > valid. */
int cli_worse(int a, int b);

/* ---- a backend, its endpoints and its own options (cli_backend.c), for
 * the commands that drive a database ---- */

#define CLI_MAX_URLS 64
#define CLI_MAX_BACKEND_OPTS 64
typedef struct cli_backend {
    const char *cmd;                  /* the command, for messages */
    const char *name;                 /* the backend */
    char *urls[CLI_MAX_URLS];         /* --url, ours (copies: cli_take_url) */
    size_t n_urls;
    char *opts[CLI_MAX_BACKEND_OPTS]; /* "name=value", ours */
    size_t n_opts;
} cli_backend;

/* A command's help (cmd: its settings; backend: that backend's options
 * alone, NULL: every backend's). */
typedef void cli_usage_fn(FILE *out, cli_style st, void *cmd, const char *backend);
/* The command line of a command that drives a database: argv[0] the
 * command, then `lead` arguments, the backend last (scenario: NAME
 * BACKEND), then options of the tables and the backend's own (kept in b).
 * Help (-h, --help, or arguments missing: on stderr) prints
 * usage(cmd, ...); -V, --version the version. Returns 1 to run, 0 after
 * help or the version, -1 on a bad argument (said on stderr). */
int cli_backend_parse(cli_backend *b, int argc, char **argv, int lead, const cli_table *tables,
                      size_t n_tables, cli_usage_fn *usage, void *cmd);
/* --url's CLI_CALL (at: the cli_backend). */
int cli_add_url(void *at, const char *v);
/* A copy of the URL v (NULL having said why not), whose passwords are
 * then overwritten in v itself, an argument in argv: /proc/PID/cmdline
 * shows none for the whole run. */
char *cli_take_url(const char *cmd, const char *v);
/* cli_parse's unknown-option hook (arg: the cli_backend): an option of the
 * backend's table is kept as "name=value". */
int cli_backend_option(void *arg, const char *name, const char *value, int *took_value);
/* The backend called name, or NULL. */
const isolde_backend *cli_backend_named(const char *name);
/* The same, or NULL having said on stderr that command cmd knows no
 * backend called name (and the closest one's name). */
const isolde_backend *cli_backend_find(const char *cmd, const char *name);
/* How a command says that it waits for the database (isolde_run_opts'
 * waiting, with a cli_wait as its progress_arg): on the progress line
 * when the command keeps one on a terminal, else as one line of stderr. */
typedef struct cli_wait {
    const char *cmd;
    int on_line;
    const void *owner; /* the command's own state, for its progress callback */
} cli_wait;
void cli_waiting(void *arg, const char *what);
/* The backend, its endpoints and options into o. */
void cli_backend_apply(const cli_backend *b, isolde_run_opts *o);
void cli_backend_free(cli_backend *b);
/* The nemesis options (--nemesis, --fault-every, ..., --txn-timeout),
 * filling o. */
cli_table cli_fault_table(isolde_run_opts *o);
/* A line on stderr for each kind o->faults.nemesis names that never fired in
 * the run st tells of, saying why (the run ended before the first fault
 * was due, or the draws chose other kinds) and what to change; what
 * names the run among several (NULL: the only one). */
void cli_warn_idle_nemesis(const char *cmd, const char *what, const isolde_run_opts *o,
                           const isolde_run_stats *st);
/* dir made if missing: 0, or -1 having said why not. */
int cli_make_dir(const char *cmd, const char *dir);
/* Every backend (or the one called name) with its levels and options. */
void cli_backend_help(FILE *out, cli_style st, const char *name);

/* ---- subcommands: argv[0] is the subcommand's name; _help prints the
 * command's help as text or as its part of the man page ---- */
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_shrink(int argc, char **argv);
int cmd_scenario(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_proxy(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_convert(int argc, char **argv);
void cmd_check_help(FILE *out, cli_style st);
void cmd_run_help(FILE *out, cli_style st);
void cmd_models_help(FILE *out, cli_style st);
void cmd_repair_help(FILE *out, cli_style st);
void cmd_shrink_help(FILE *out, cli_style st);
void cmd_scenario_help(FILE *out, cli_style st);
void cmd_campaign_help(FILE *out, cli_style st);
void cmd_proxy_help(FILE *out, cli_style st);
void cmd_serve_help(FILE *out, cli_style st);
void cmd_convert_help(FILE *out, cli_style st);

#endif
