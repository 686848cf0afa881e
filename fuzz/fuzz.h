/*
 * fuzz/fuzz.h -- the fuzz targets' shared face (fuzz.c): the table of
 * target kinds and what each kind's file fills in.
 *
 * A target is named KIND or KIND-ARG: read-<format> (every format of the
 * library's format table, "auto" included), check-<workload> (every row of
 * the checker table), exec-reply, gzip (a history file's gzip data),
 * transaction-order (the --transaction-order file). One kind is one file and one row of
 * fuzz.c's table; its arguments come from the library's own tables, so a
 * new format or workload is a new target without touching fuzz/.
 *
 * A target's test returns normally for any input the library handles as
 * it promises, and calls fuzz_fail (which aborts: libFuzzer keeps the input
 * as a crash, the replay driver fails) when a promise is broken. The same
 * test runs under libFuzzer (fuzz.c's LLVMFuzzerTestOneInput) and under
 * replay.c's main(), which `make check` uses on the regression corpus.
 */
#ifndef ISO_FUZZ_H
#define ISO_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "isolde.h"

struct fuzz_kind {
    const char *name;                /* "read", "check", "exec-reply" */
    /* Its arguments by index, NULL past the last; NULL: it takes none. */
    const char *(*arg_at)(size_t i);
    /* Select the argument (NULL when it takes none); 0, or -1 if unknown. */
    int (*select)(const char *arg);
    void (*test)(const uint8_t *data, size_t len);
};

extern const struct fuzz_kind fuzz_read_kind, fuzz_check_kind, fuzz_exec_reply_kind, fuzz_gzip_kind,
    fuzz_txn_order_kind;

/* Select target name ("read-edn"); 0, or -1 (with a message) if unknown. */
int fuzz_select(const char *name);
/* Run the selected target on one input. */
void fuzz_run(const uint8_t *data, size_t len);
/* Print every target's name, one per line. */
void fuzz_list(void);

/* The path of a file that holds data[0, len) (the same file every call,
 * in $TMPDIR, removed at exit), for the calls that read files. */
const char *fuzz_scratch_file(const uint8_t *data, size_t len);
/* The compressed byte an error of inflating names ("at compressed byte
 * N"), or -1 when it names none. */
long long fuzz_compressed_byte(const isolde_error *err);

/* A broken promise: print why (printf-style) and abort. */
__attribute__((noreturn, format(printf, 1, 2))) void fuzz_fail(const char *fmt, ...);
/* The checks every failed public call must pass: status is err's code, a
 * message says why, the out-pointer was set to NULL, and it is not an
 * internal error (a broken invariant, i.e. a bug). */
void fuzz_check_error(const char *call, isolde_status s, const isolde_error *err, const void *out);

#endif
