/*
 * readtest.h -- helpers for the reader tests: render values and ops as
 * EDN text, and check that a malformed input fails at an exact position
 * with a given message (and that one whose last line, without a newline,
 * ends inside a value reads without that line, with a warning: a line
 * cut short).
 */
#ifndef ISO_READTEST_H
#define ISO_READTEST_H

#include "testutil.h"
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
    const char *msg; /* a substring of the message */
};

/* The read fails with status (ISOLDE_ERR_PARSE, or _LIMIT) as c says. */
static inline void rt_expect_status(const struct rt_bad *c, isolde_status status)
{
    isolde_history *h = (isolde_history *)1;
    isolde_error err = {0};
    isolde_status r = isolde_history_read_mem("bad", c->text, strlen(c->text), tu_fmt(c->format), &h, &err);
    if (r != status || h != NULL)
        fail_msg("read of %s gave status %d, expected %ld:%ld: %s", c->text, (int)r, c->line, c->col, c->msg);
    if (err.line != c->line || err.col != c->col || !strstr(err.msg, c->msg) ||
        strcmp(err.file, "bad") != 0)
        fail_msg("input %s: got %s:%ld:%ld: %s, expected bad:%ld:%ld: ...%s...", c->text,
                 err.file, err.line, err.col, err.msg, c->line, c->col, c->msg);
}

/* Whether text's last line is its only one but for blank and comment lines. */
static inline int rt_only_line(const char *text)
{
    const char *last = strrchr(text, '\n');
    for (const char *p = text; last && p < last; p = strchr(p, '\n') + 1) {
        const char *q = p + strspn(p, " \t\r");
        if (*q != '\n' && *q != '#' && *q != ';') return 0;
    }
    return 1;
}

/* c, whose last line, without a newline after it, ends inside a value (a
 * line cut short): read, that line is left out with a warning that says
 * msg -- unless it is the only line, which fails as c says (nothing else to
 * check: its error says more); appended (complete lines), it fails as c says. */
static inline void rt_expect_cut(const struct rt_bad *c)
{
    isolde_history *h = NULL;
    isolde_error err = {0}, w[4];
    size_t n = 0, len = strlen(c->text);
    if (rt_only_line(c->text)) {
        rt_expect_status(c, ISOLDE_ERR_PARSE);
    } else {
        if (isolde_history_read_mem("bad", c->text, len, tu_fmt(c->format), &h, &err))
            fail_msg("read of %s (cut short): %ld:%ld: %s", c->text, err.line, err.col, err.msg);
        assert_int_equal(isolde_history_warnings(h, w, 4, &n, &err), ISOLDE_OK);
        if (n < 1 || w[0].line != c->line || !strstr(w[0].msg, "cut short") || !strstr(w[0].msg, c->msg))
            fail_msg("read of %s (cut short): %zu warnings, the first at %ld: %s", c->text, n, w[0].line,
                     n ? w[0].msg : "");
        isolde_history_free(h);
    }
    assert_int_equal(isolde_history_new("bad", tu_fmt(c->format), &h, &err), ISOLDE_OK);
    if (isolde_history_append_mem(h, c->text, len, &err) != ISOLDE_ERR_PARSE || err.line != c->line ||
        err.col != c->col || !strstr(err.msg, c->msg))
        fail_msg("append of %s: %ld:%ld: %s, expected %ld:%ld: ...%s...", c->text, err.line, err.col, err.msg,
                 c->line, c->col, c->msg);
    isolde_history_free(h);
}


static inline void rt_expect_fail(const struct rt_bad *c) { rt_expect_status(c, ISOLDE_ERR_PARSE); }

static inline void rt_expect_fails(const struct rt_bad *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) rt_expect_fail(&cases[i]);
}

static inline void rt_expect_cuts(const struct rt_bad *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) rt_expect_cut(&cases[i]);
}

#endif
