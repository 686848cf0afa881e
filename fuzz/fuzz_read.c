/*
 * fuzz/fuzz_read.c -- read-<format>: the input read as one history of
 * that format (auto: detected), through the public calls.
 *
 * Promises checked: a read returns a history or a clean error
 * (fuzz_check_error); a forced format is the history's format; a history
 * grown by two appends (the input cut at a line near its middle) has the
 * ops of the whole read when both reads succeed, and a failed append
 * leaves the history as it was; the two-thread reader of one-op-per-line
 * formats, cut anywhere, agrees with the sequential one op for op (an
 * internal entry point: the public call takes it only for inputs of a MiB
 * and more); a history read is written as Plume's text and as dbcop's
 * bincode, or refused with a clean error, and what is written reads back
 * and, once its sessions are numbered densely (a second round), writes back
 * to the same bytes.
 */
#include "fuzz.h"
#include "core/alloc.h"
#include "history/read_edn.h"
#include "history/read_json.h"
#include "history/split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static isolde_format format;

static const char *arg_at(size_t i)
{
    const char *name = isolde_format_name((isolde_format)i);
    return strcmp(name, "?") == 0 ? NULL : name;
}

static int select_format(const char *arg)
{
    return isolde_format_parse(arg, &format) == ISOLDE_OK ? 0 : -1;
}

/* ---- appends ---------------------------------------------------------- */

/* Where to cut data for two appends: after the first newline at or past
 * the middle (len: no newline there). */
static size_t cut_at(const char *data, size_t len)
{
    const char *nl = memchr(data + len / 2, '\n', len - len / 2);
    return nl ? (size_t)(nl - data) + 1 : len;
}

/* Append data[0, n) to h; whether it succeeded (h unchanged if not). */
static int append(isolde_history *h, const char *data, size_t n)
{
    size_t before = isolde_history_op_count(h);
    isolde_error err = {0};
    isolde_status s = isolde_history_append_mem(h, data, n, &err);
    if (s == ISOLDE_OK) return 1;
    fuzz_check_error("isolde_history_append_mem", s, &err, NULL);
    if (isolde_history_op_count(h) != before)
        fuzz_fail("a failed append changed the history: %zu ops, %zu before",
                  isolde_history_op_count(h), before);
    return 0;
}

/* The input as two appends; whole: the ops of the whole read, or -1. */
static void appends_agree(const char *data, size_t len, long whole)
{
    isolde_read_opts o;
    isolde_read_opts_init(&o);
    o.format = format;
    isolde_history *h = NULL;
    isolde_error err = {0};
    isolde_status s = isolde_history_new("fuzz", &o, &h, &err);
    if (s != ISOLDE_OK) { /* a format not read by lines */
        fuzz_check_error("isolde_history_new", s, &err, h);
        return;
    }
    size_t cut = cut_at(data, len);
    int ok = append(h, data, cut) && append(h, data + cut, len - cut);
    if (ok && whole >= 0 && isolde_history_op_count(h) != (size_t)whole)
        fuzz_fail("two appends read %zu ops, the whole input %ld", isolde_history_op_count(h), whole);
    isolde_history_free(h);
}

/* ---- the two-thread reader ------------------------------------------ */

static const struct { isolde_format format; iso_lines_fn read_lines; } line_readers[] = {
    {ISOLDE_FORMAT_EDN, iso_edn_lines},
    {ISOLDE_FORMAT_JSONL, iso_json_lines},
};

static void ops_text(const isolde_history *h, iso_buf *b)
{
    for (size_t i = 0; i < h->n_ops; i++) {
        iso_op_json(h, &h->ops[i], b);
        iso_buf_printf(b, " @%u:%u\n", h->ops[i].line, h->ops[i].col);
    }
}

struct split_call {
    const char *data;
    size_t len;
    iso_lines_fn read_lines;
};

static int split_agrees(void *arg)
{
    struct split_call *c = arg;
    isolde_history *seq = iso_history_new("f", format), *par = iso_history_new("f", format);
    isolde_error e1 = {0}, e2 = {0};
    size_t lines;
    int r1 = c->read_lines(seq, c->data, c->len, &lines, &e1);
    int r2 = iso_read_split(par, c->data, c->len, 0, c->read_lines, &e2);
    if (r1 != r2 || (r1 && strcmp(e1.msg, e2.msg) != 0))
        fuzz_fail("two-thread read %d (%s), sequential %d (%s)", r2, e2.msg, r1, e1.msg);
    iso_buf a = {0}, b = {0};
    ops_text(seq, &a);
    ops_text(par, &b);
    if (!r1 && strcmp(iso_buf_cstr(&a), iso_buf_cstr(&b)) != 0)
        fuzz_fail("two-thread read differs:\n%s\nsequential:\n%s", iso_buf_cstr(&b), iso_buf_cstr(&a));
    iso_buf_free(&a);
    iso_buf_free(&b);
    isolde_history_free(seq);
    isolde_history_free(par);
    return 0;
}

static void split_reader_agrees(const char *data, size_t len)
{
    for (size_t i = 0; i < sizeof line_readers / sizeof line_readers[0]; i++) {
        if (line_readers[i].format != format) continue;
        struct split_call c = {data, len, line_readers[i].read_lines};
        isolde_error err = {0};
        if (iso_guarded(split_agrees, &c, &err) != 0) fuzz_fail("two-thread read: %s", err.msg);
    }
}

/* ---- the writers ------------------------------------------------------ */

/* h written in f into a new block (*n bytes; free it), or NULL with the
 * error checked. */
static char *written(const isolde_history *h, isolde_format f, size_t *n)
{
    char *p = NULL;
    FILE *m = open_memstream(&p, n);
    if (!m) fuzz_fail("open_memstream failed");
    isolde_error err = {0};
    isolde_status s = isolde_history_write(h, f, m, &err);
    fclose(m);
    if (s == ISOLDE_OK) return p;
    fuzz_check_error("isolde_history_write", s, &err, NULL);
    free(p);
    return NULL;
}

/* data[0, n) read as f and written again (NULL when it was refused). */
static char *rewritten(const char *data, size_t n, isolde_format f, size_t *out_n)
{
    isolde_read_opts o;
    isolde_read_opts_init(&o);
    o.format = f;
    isolde_history *h = NULL;
    isolde_error err = {0};
    isolde_status s = isolde_history_read_mem("fuzz-written", data, n, &o, &h, &err);
    if (s != ISOLDE_OK)
        fuzz_fail("%s written by isolde does not read back: %ld:%ld: %s", isolde_format_name(f), err.line, err.col,
                  err.msg);
    char *p = written(h, f, out_n);
    isolde_history_free(h);
    if (!p) fuzz_fail("%s written by isolde, read back, is refused", isolde_format_name(f));
    return p;
}

static void writers_agree(const isolde_history *h)
{
    static const isolde_format targets[] = {ISOLDE_FORMAT_PLUME, ISOLDE_FORMAT_DBCOP};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        size_t n1, n2, n3;
        char *a = written(h, targets[i], &n1);
        if (!a) continue;
        char *b = rewritten(a, n1, targets[i], &n2), *c = rewritten(b, n2, targets[i], &n3);
        if (n2 != n3 || memcmp(b, c, n2) != 0)
            fuzz_fail("%s written, read and written twice differs (%zu bytes, then %zu)", isolde_format_name(targets[i]),
                      n2, n3);
        free(a);
        free(b);
        free(c);
    }
}

/* ---- the target ------------------------------------------------------- */

static void test(const uint8_t *bytes, size_t len)
{
    const char *data = (const char *)bytes;
    isolde_read_opts o;
    isolde_read_opts_init(&o);
    o.format = format;
    isolde_history *h = (isolde_history *)&o; /* must be set either way */
    isolde_error err = {0};
    isolde_status s = isolde_history_read_mem("fuzz", data, len, &o, &h, &err);
    long whole = -1;
    if (s != ISOLDE_OK) {
        fuzz_check_error("isolde_history_read_mem", s, &err, h);
    } else {
        isolde_format f = isolde_history_format(h);
        if (f == ISOLDE_FORMAT_AUTO || (format != ISOLDE_FORMAT_AUTO && f != format))
            fuzz_fail("read as %s, asked for %s", isolde_format_name(f), isolde_format_name(format));
        whole = (long)isolde_history_op_count(h);
        writers_agree(h);
        isolde_history_free(h);
    }
    appends_agree(data, len, whole);
    split_reader_agrees(data, len);
}

const struct fuzz_kind fuzz_read_kind = {"read", arg_at, select_format, test};
