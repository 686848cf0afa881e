/*
 * fuzz/replay.c -- the fuzz targets without libFuzzer: runs one target on
 * every file named (directories: every file under them), each in a heap
 * block of its exact size, as libFuzzer would. `make check` runs it over
 * the regression corpus (tests/fuzz-regressions/<target>/) and the seed
 * files (tests/fuzz-replay.sh); any broken promise or sanitizer report
 * fails it.
 *
 *   replay -list               every target's name
 *   replay TARGET PATH...      exit 0 when every input passed; a path that
 *                              cannot be read, or no input at all, is an error
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "fuzz.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t inputs;

static int run_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (flag == FTW_D || flag == FTW_DP) return 0;
    FILE *f = flag == FTW_F ? fopen(path, "rb") : NULL;
    if (!f) {
        fprintf(stderr, "replay: cannot read %s: %s\n", path,
                flag == FTW_F ? strerror(errno) : "not a regular file or directory");
        return 1;
    }
    size_t cap = (size_t)st->st_size + 1, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0; n += got)
        if (n + got == cap) buf = realloc(buf, cap *= 2);
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return 1;
    }
    uint8_t *exact = malloc(n ? n : 1); /* exact size: ASan sees an overread */
    memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "replay: %s\n", path); /* the last one named is the culprit */
    fuzz_run(exact, n);
    free(exact);
    inputs++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "-list") == 0) {
        fuzz_list();
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: replay -list | replay TARGET PATH...\n");
        return 2;
    }
    if (fuzz_select(argv[1]) != 0) return 2;
    for (int i = 2; i < argc; i++)
        if (nftw(argv[i], run_file, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
    if (!inputs) {
        fprintf(stderr, "replay %s: no input\n", argv[1]);
        return 1;
    }
    printf("replay %s: %zu inputs passed\n", argv[1], inputs);
    return 0;
}
