/* main.c -- the isolde command: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"

static const char usage[] =
    "usage: isolde <command> [options]\n"
    "\n"
    "commands:\n"
    "  check [options] FILE...   check recorded histories (isolde check --help)\n"
    "  run BACKEND [options]     drive a database, record a history, check it\n"
    "                            (isolde run --help)\n"
    "\n"
    "  --help, -h                this text\n"
    "  --version                 print the version\n"
    "\n"
    "exit status: 0 valid, 1 anomalies found, 2 unknown, 3 error\n";

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

int main(int argc, char **argv)
{
    tune_allocator();
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 3 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("isolde %s\n", iso_version());
        return 0;
    }
    if (!strcmp(argv[1], "check")) return cmd_check(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run")) return cmd_run(argc - 1, argv + 1);
    fprintf(stderr, "isolde: unknown command '%s'\n%s", argv[1], usage);
    return 3;
}
