/*
 * main.c -- the isolde command: the table of subcommands, the global
 * options, the exit statuses (0 valid, 1 anomalies found, 2 unknown,
 * 3 error), and the man page (isolde --man), made from the same help
 * calls and option tables as every --help. A new subcommand is a
 * cmd_<name>.c and a row in commands[]. Whatever a command wrote to stdout
 * is flushed before it exits, and output that was not all taken (a full
 * disk) is an error, exit 3: no status says success of output lost.
 */
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"

static const struct command {
    const char *name, *args, *summary;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *out, cli_style st);
} commands[] = {
    {"check", "[options] FILE...", "check recorded histories", cmd_check, cmd_check_help},
    {"run", "BACKEND [options]", "drive a database, record a history, check it", cmd_run, cmd_run_help},
    {"scenario", "NAME BACKEND [options]", "run a classic interleaving at each level, check it", cmd_scenario,
     cmd_scenario_help},
    {"campaign", "BACKEND [options]", "every level x workload x seed, checked against the ladder of models",
     cmd_campaign, cmd_campaign_help},
    {"convert", "IN -t FORMAT [-o OUT]", "a history in another format (Elle's, Plume's, dbcop's)", cmd_convert,
     cmd_convert_help},
    {"models", "[NAME...]", "the model and anomaly names; what each one forbids", cmd_models,
     cmd_models_help},
    {"proxy", "--link L=T... [--control A]", "a TCP proxy with faults (partition, delay, drop)", cmd_proxy,
     cmd_proxy_help},
    {"serve", "DIR [--port N]", "the files under DIR over HTTP on 127.0.0.1 (the playground: web/)", cmd_serve,
     cmd_serve_help},
    {"shrink", "[options] FILE", "the smallest history that still shows an anomaly", cmd_shrink,
     cmd_shrink_help},
    {"repair", "FILE...", "make a killed run's history whole (filler, a cut line)", cmd_repair,
     cmd_repair_help},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char exit_status[] =
    "0 valid, 1 anomalies found, 2 unknown (e.g. an empty transaction graph, a search out of\n"
    "budget), 3 error (unreadable input, reported as file:line:col: message, bad arguments, or\n"
    "output that could not be written).\n";

static void usage(FILE *out)
{
    cli_doc_usage(out, CLI_TEXT, "isolde <command> [options]");
    cli_doc_heading(out, CLI_TEXT, "commands");
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", commands[i].name, commands[i].args);
        cli_doc_item(out, CLI_TEXT, left, commands[i].summary);
    }
    fputc('\n', out);
    cli_doc_item(out, CLI_TEXT, "--help, -h", "this text (isolde COMMAND --help: that command's)");
    cli_doc_item(out, CLI_TEXT, "--version, -V", "print the version and the optional libraries built in");
    cli_doc_item(out, CLI_TEXT, "--man", "print the manual page (roff)");
    fprintf(out, "\nexit status: %s", exit_status);
}

/* The manual page: every command's help as roff, between a head and the
 * sections that hold for all. */
static void man(void)
{
    printf(".TH ISOLDE 1 \"\" \"isolde %s\" \"User Commands\"\n"
           ".SH NAME\nisolde \\- black\\-box checker of transactional isolation and linearizability\n"
           ".SH SYNOPSIS\n.nf\n", isolde_version());
    for (size_t i = 0; i < N_COMMANDS; i++) printf("\\fBisolde %s\\fR %s\n", commands[i].name, commands[i].args);
    printf(".fi\n.SH DESCRIPTION\n");
    cli_doc_text(stdout, CLI_ROFF,
                 "isolde reads the history that clients recorded against a database (every transaction\n"
                 "as the client saw it: invoked, committed, failed or unknown), infers the dependency\n"
                 "graph between transactions from that history alone (Adya's ww, wr and rw edges, the\n"
                 "method of Jepsen's Elle), finds the cycles and other anomalies each isolation level\n"
                 "forbids, and proves every violation. It also checks linearizability (Knossos and\n"
                 "Porcupine models), and drives databases with concurrent clients to record such\n"
                 "histories.\n");
    printf(".SH COMMANDS\n");
    for (size_t i = 0; i < N_COMMANDS; i++) commands[i].help(stdout, CLI_ROFF);
    printf(".SH OPTIONS\n");
    cli_doc_item(stdout, CLI_ROFF, "-h, --help", "the commands (isolde COMMAND --help: that command's options)");
    cli_doc_item(stdout, CLI_ROFF, "-V, --version", "print the version and the optional libraries built in");
    cli_doc_item(stdout, CLI_ROFF, "--man", "print this manual page");
    printf(".SH EXIT STATUS\n");
    cli_doc_text(stdout, CLI_ROFF, exit_status);
    printf(".SH ENVIRONMENT\n");
    cli_doc_item(stdout, CLI_ROFF, "ISOLDE_TIMING",
                 "set: each phase of a read or a check prints its time, the resident memory after it "
                 "and the peak so far to stderr");
    cli_doc_item(stdout, CLI_ROFF, "TMPDIR", "where isolde run sqlite without --url keeps its database");
    cli_doc_item(stdout, CLI_ROFF, "ISOLDE_RUN_ID, ISOLDE_CLIENT, ISOLDE_ISOLATION",
                 "what isolde run exec gives each client: the run, the client's index, the level asked for");
    printf(".SH SEE ALSO\n");
    cli_doc_text(stdout, CLI_ROFF, "The project's README.md and docs/: FORMATS.md (history formats, what a "
                                   "run leaves, the exec protocol), DEVIATIONS.md, LINEARIZABILITY.md.\n");
}

/* Blocks of 1 MiB and more come straight from mmap and go back to the
 * system when freed: a check allocates large arrays phase by phase, and
 * glibc's adaptive threshold would otherwise keep freed ones resident in
 * the heap (about 20 MB more at the peak of a 1M-transaction check). */
static void tune_allocator(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

static const char *command_at(size_t i, void *arg)
{
    (void)arg;
    return i < N_COMMANDS ? commands[i].name : NULL;
}

static const struct command *command_named(const char *name)
{
    for (size_t i = 0; name && i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* What the command asked for, run: its exit status, or EXIT_ERROR when
 * stdout did not take all it wrote (a full disk, /dev/full). */
static int run(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_ERROR : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) return cli_version(), 0;
    if (!strcmp(argv[1], "--man")) return man(), 0;
    if (!strcmp(argv[1], "help")) { /* isolde help [COMMAND] */
        const struct command *c = command_named(argc > 2 ? argv[2] : NULL);
        if (c) c->help(stdout, CLI_TEXT);
        else usage(argc > 2 ? stderr : stdout);
        return c || argc == 2 ? 0 : EXIT_ERROR;
    }
    const struct command *c = command_named(argv[1]);
    if (c) return c->run(argc - 1, argv + 1);
    fprintf(stderr, "isolde: unknown command '%s'", argv[1]);
    if (!cli_suggest(stderr, argv[1], command_at, NULL)) fputs("\n\n", stderr), usage(stderr);
    else fputc('\n', stderr);
    return EXIT_ERROR;
}

int main(int argc, char **argv)
{
    tune_allocator();
    int status = run(argc, argv);
    return cli_stdout_flushed() ? EXIT_ERROR : status;
}
