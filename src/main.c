/*
 * main.c -- the isolde command: the table of subcommands, the global
 * options, and the exit statuses (0 valid, 1 anomalies found, 2 unknown,
 * 3 error). A new subcommand is a cmd_<name>.c and a row in commands[].
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
} commands[] = {
    {"check", "[options] FILE...", "check recorded histories", cmd_check},
    {"run", "BACKEND [options]", "drive a database, record a history, check it", cmd_run},
    {"models", "[NAME...]", "the model and anomaly names; what each one forbids", cmd_models},
    {"repair", "FILE...", "make a killed run's history whole (filler, a cut line)", cmd_repair},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: isolde <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", commands[i].name, commands[i].args);
        fprintf(out, "  %-26s %s (isolde %s --help)\n", left, commands[i].summary, commands[i].name);
    }
    fprintf(out, "\n  --help, -h                 this text\n"
                 "  --version, -V              print the version\n\n"
                 "exit status: 0 valid, 1 anomalies found, 2 unknown, 3 error\n");
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

static const struct command *command_named(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    tune_allocator();
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_ERROR : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("isolde %s\n", isolde_version());
        return 0;
    }
    if (!strcmp(argv[1], "help")) { /* isolde help [COMMAND] */
        const struct command *c = argc > 2 ? command_named(argv[2]) : NULL;
        if (!c) usage(stdout);
        char *args[] = {argv[2], "--help", NULL};
        return c ? c->run(2, args) : 0;
    }
    const struct command *c = command_named(argv[1]);
    if (c) return c->run(argc - 1, argv + 1);
    fprintf(stderr, "isolde: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_ERROR;
}
