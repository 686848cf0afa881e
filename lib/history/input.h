/*
 * history/input.h -- the bytes of a history file (input.c): "-" is
 * standard input; a regular file is mapped, anything else (a pipe, a
 * device) read; gzip data is inflated. The bytes are checked for what no
 * history format can be (UTF-16 and UTF-32, binary data) before any
 * reader sees them. A directory is read as Cobra's logs (input_dir.c).
 */
#ifndef ISO_HISTORY_INPUT_H
#define ISO_HISTORY_INPUT_H

#include "history/history.h"

typedef struct iso_input {
    const char *name;  /* for messages: the path, or "<stdin>" */
    const char *what;  /* what it should be, for messages: "a history" */
    char *buf;         /* the bytes: a private mapping of the file, or memory */
    size_t len;
    int mapped;        /* buf is a mapping (munmap it after the call) */
    int bus_guard;     /* the calling guard catches bus faults while it reads buf */
    int dir;           /* buf is a directory's logs (iso_input_dir) */
} iso_input;

/* Open path, which should hold what ("a history", for messages), into in
 * (under a guard: a read buffer is the call's memory,
 * a mapping the caller's to unmap with iso_input_unmap). While
 * in->bus_guard, a file that shrinks under the mapping fails the call
 * with ISOLDE_ERR_IO instead of SIGBUS. 0, or -1 with err. */
int iso_input_open(const char *path, const char *what, iso_input *in, isolde_error *err);
/* The reading is over: stop catching bus faults. */
void iso_input_done(iso_input *in);
/* A directory's logs (Cobra's: a session a ".log" file) as frames of
 * ISO_DIR_MARK (2 bytes), the name's length (4 bytes, little-endian), the name, the
 * file's length (8 bytes) and its bytes, into in (memory, in->buf of the
 * calling guard; in->len its length, from 0). 0, or -1 with err (a directory
 * without logs is an IO error: "is a directory"). */
#define ISO_DIR_MARK "\xff\0" /* 2 bytes: no text begins so, nor a UTF-16 mark */
int iso_input_dir(const char *dir, iso_input *in, isolde_error *err);
/* After the call: unmap a mapping (a no-op otherwise). */
void iso_input_unmap(iso_input *in);

/* in's bytes, gzip data, inflated into *out[0, *n) (the calling guard's
 * memory), refused when they inflate past a stream's limit or like a
 * compression bomb, or their first bytes are not text (iso_input_text).
 * 0, or -1 with err (USAGE when built without zlib). */
int iso_input_inflate(const iso_input *in, char **out, size_t *n, isolde_error *err);

/* What no history (nor any text isolde reads) is, in buf's first bytes: a
 * UTF-16 or UTF-32 byte order mark or text, a NUL byte (binary data, "not
 * <what>"). 0, or -1 with err. */
int iso_input_text(const char *name, const char *what, const char *buf, size_t len, isolde_error *err);

#endif
