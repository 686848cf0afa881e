/*
 * fuzz/fuzz.c -- the table of fuzz target kinds, choosing a target by
 * name, and libFuzzer's entry points. A libFuzzer binary serves every
 * target: it is run through a link named after the target (read-edn,
 * check-kv, ...), which LLVMFuzzerInitialize reads from argv[0].
 */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct fuzz_kind *const kinds[] = {&fuzz_read_kind, &fuzz_check_kind, &fuzz_exec_reply_kind,
                                                &fuzz_gzip_kind, &fuzz_txn_order_kind};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static const struct fuzz_kind *selected;

int fuzz_select(const char *name)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        const struct fuzz_kind *k = kinds[i];
        size_t n = strlen(k->name);
        if (strncmp(name, k->name, n) != 0) continue;
        const char *arg = name[n] == '-' && k->arg_at ? name + n + 1 : NULL;
        if ((name[n] == 0 && !k->arg_at) || (arg && k->select(arg) == 0)) {
            if (!arg && k->select) k->select(NULL);
            selected = k;
            return 0;
        }
    }
    fprintf(stderr, "fuzz: no target named '%s' (targets: isolde-fuzz -list)\n", name);
    return -1;
}

void fuzz_run(const uint8_t *data, size_t len)
{
    selected->test(data, len);
}

void fuzz_list(void)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        const struct fuzz_kind *k = kinds[i];
        if (!k->arg_at) printf("%s\n", k->name);
        for (size_t j = 0; k->arg_at && k->arg_at(j); j++) printf("%s-%s\n", k->name, k->arg_at(j));
    }
}

static char scratch[256];

static void remove_scratch(void) { unlink(scratch); }

const char *fuzz_scratch_file(const uint8_t *data, size_t len)
{
    if (!scratch[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/isolde-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(scratch);
        if (fd < 0) fuzz_fail("cannot make a scratch file %s", scratch);
        close(fd);
        atexit(remove_scratch);
    }
    FILE *f = fopen(scratch, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) fuzz_fail("cannot write %s", scratch);
    return scratch;
}

long long fuzz_compressed_byte(const isolde_error *err)
{
    const char *at = strstr(err->msg, "(at compressed byte ");
    return at ? strtoll(at + strlen("(at compressed byte "), NULL, 10) : -1;
}

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: broken promise: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void fuzz_check_error(const char *call, isolde_status s, const isolde_error *err, const void *out)
{
    if (out) fuzz_fail("%s failed (%d) but left its out-pointer set", call, (int)s);
    if (err->code != s) fuzz_fail("%s returned %d, its error says %d", call, (int)s, (int)err->code);
    if (!err->msg[0]) fuzz_fail("%s failed (%d) without a message", call, (int)s);
    if (s == ISOLDE_ERR_INTERNAL) fuzz_fail("%s: internal error: %s", call, err->msg);
    if (err->line < 0 || err->col < 0) fuzz_fail("%s: position %ld:%ld", call, err->line, err->col);
}

/* ---- libFuzzer ------------------------------------------------------ */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *name = strrchr((*argv)[0], '/');
    name = name ? name + 1 : (*argv)[0];
    if (strcmp(name, "isolde-fuzz") == 0) {
        if (*argc > 1 && strcmp((*argv)[1], "-list") == 0) {
            fuzz_list();
            exit(0);
        }
        fprintf(stderr, "usage: run isolde-fuzz through a link named after a target "
                        "(isolde-fuzz -list lists them)\n");
        exit(2);
    }
    if (fuzz_select(name) != 0) exit(2);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    fuzz_run(data, len);
    return 0;
}
