/*
 * readtest.h -- helpers for the reader tests: render values and ops as
 * EDN text, and check that a malformed input fails at an exact position
 * with a given message (and that one whose last line, without a newline,
 * ends inside a value reads without that line, with a warning: a line
 * cut short), one input or a table of them (tests/data/read/malformed.tsv,
 * read by tests/tools/case.h).
 */
#ifndef ISO_READTEST_H
#define ISO_READTEST_H

#include "testutil.h"
#include "../tools/case.h"
#include "history/history.h"

/* EDN text of v (a static buffer, valid until the next call). */
static inline const char *rt_edn(const isolde_history *h, iso_val v)
{
    static char out[4096];
    iso_buf b = {0};
    iso_val_edn(&h->store, v, &b);
    snprintf(out, sizeof out, "%s", iso_buf_cstr(&b));
    iso_buf_free(&b);
    return out;
}

/* The :value of op i as EDN text. */
static inline const char *rt_value(const isolde_history *h, size_t i)
{
    assert_true(i < h->n_ops);
    return rt_edn(h, h->ops[i].value);
}

/* Elle's printing of op i. */
static inline const char *rt_op(const isolde_history *h, size_t i, int json)
{
    static char out[4096];
    iso_buf b = {0};
    (json ? iso_op_json : iso_op_edn)(h, &h->ops[i], &b);
    snprintf(out, sizeof out, "%s", iso_buf_cstr(&b));
    iso_buf_free(&b);
    return out;
}

/* The same ops written two ways (the fast paths' way and, with a newline
 * after a value's '[', the general parser's way) must read to the same
 * values, op by op. */
static inline void rt_expect_same_values(const char *fast, const char *slow, isolde_format f)
{
    isolde_history *a = tu_read(fast, f), *b = tu_read(slow, f);
    assert_int_equal(a->n_ops, b->n_ops);
    for (size_t i = 0; i < a->n_ops; i++) {
        char va[4096];
        snprintf(va, sizeof va, "%s", rt_value(a, i));
        if (strcmp(va, rt_value(b, i)) != 0) fail_msg("%s, op %zu: %s vs %s", fast, i, va, rt_value(b, i));
    }
    isolde_history_free(a);
    isolde_history_free(b);
}

/* A malformed input and where and why it must fail. */
struct rt_bad {
    const char *text;
    isolde_format format;
    long line, col;
    const char *msg;   /* a substring of the message */
    const char *where; /* its row in a table, for messages; NULL: none */
};

#define RT_WHERE(c) ((c)->where ? (c)->where : "input")

/* c, whose last line, without a newline after it, ends inside a value (a
 * line cut short): read, that line is left out with a warning that says
 * msg; appended (complete lines), it fails as c says. */
static inline void rt_expect_cut(const struct rt_bad *c)
{
    isolde_history *h = NULL;
    isolde_error err = {0}, w[4];
    size_t n = 0, len = strlen(c->text);
    if (isolde_history_read_mem("bad", c->text, len, tu_fmt(c->format), &h, &err))
        fail_msg("%s: read of %s (cut short): %ld:%ld: %s", RT_WHERE(c), c->text, err.line, err.col, err.msg);
    assert_int_equal(isolde_history_warnings(h, w, 4, &n, &err), ISOLDE_OK);
    if (n < 1 || w[0].line != c->line || !strstr(w[0].msg, "cut short") || !strstr(w[0].msg, c->msg))
        fail_msg("%s: read of %s (cut short): %zu warnings, the first at %ld: %s", RT_WHERE(c), c->text, n,
                 w[0].line, n ? w[0].msg : "");
    isolde_history_free(h);
    assert_int_equal(isolde_history_new("bad", tu_fmt(c->format), &h, &err), ISOLDE_OK);
    if (isolde_history_append_mem(h, c->text, len, &err) != ISOLDE_ERR_PARSE || err.line != c->line ||
        err.col != c->col || !strstr(err.msg, c->msg))
        fail_msg("%s: append of %s: %ld:%ld: %s, expected %ld:%ld: ...%s...", RT_WHERE(c), c->text, err.line,
                 err.col, err.msg, c->line, c->col, c->msg);
    isolde_history_free(h);
}

/* The read fails with status (ISOLDE_ERR_PARSE, or _LIMIT) as c says. */
static inline void rt_expect_status(const struct rt_bad *c, isolde_status status)
{
    isolde_history *h = (isolde_history *)1;
    isolde_error err = {0};
    isolde_status r = isolde_history_read_mem("bad", c->text, strlen(c->text), tu_fmt(c->format), &h, &err);
    if (r != status || h != NULL)
        fail_msg("%s: read of %s gave status %d, expected %ld:%ld: %s", RT_WHERE(c), c->text, (int)r, c->line,
                 c->col, c->msg);
    if (err.line != c->line || err.col != c->col || !strstr(err.msg, c->msg) ||
        strcmp(err.file, "bad") != 0)
        fail_msg("%s: input %s: got %s:%ld:%ld: %s, expected bad:%ld:%ld: ...%s...", RT_WHERE(c), c->text,
                 err.file, err.line, err.col, err.msg, c->line, c->col, c->msg);
}

/* Every row of a table of malformed inputs (tests/data/read/malformed.tsv)
 * fails, or is cut short, as the row says; a failure names TABLE:LINE. */
static inline void rt_expect_rows(const char *table)
{
    FILE *f = fopen(table, "r");
    case_row r;
    char err[512], where[600];
    int line = 0, got, n = 0;
    if (!f) fail_msg("cannot open %s (run from the repository root)", table);
    while ((got = case_row_next(f, table, &line, &r, err, sizeof err)) == 1) {
        snprintf(where, sizeof where, "%s:%d", table, r.line);
        struct rt_bad c = {r.input, ISOLDE_FORMAT_AUTO, r.at_line, r.at_col, r.msg, where};
        if (isolde_format_parse(r.format, &c.format)) fail_msg("%s: no format %s", where, r.format);
        if (strcmp(r.kind, "cut") == 0) rt_expect_cut(&c);
        else rt_expect_status(&c, strcmp(r.kind, "limit") == 0 ? ISOLDE_ERR_LIMIT : ISOLDE_ERR_PARSE);
        n++;
    }
    fclose(f);
    if (got < 0) fail_msg("%s", err);
    if (n == 0) fail_msg("%s: no rows", table);
}

#endif
