/*
 * fuzz/fuzz_exec_reply.c -- exec-reply: the input as the one reply line a
 * client of `isolde run exec` sends back (run/drivers/exec_reply.c, an
 * internal entry point), to a list-append and to a register transaction
 * whose keys and values include the extremes of 64 bits.
 *
 * Promises checked: the parser answers ok, fail, info or "garbage" (-1);
 * a reply's id is none (-1) or not negative; an ok fills in a result for
 * every read, within the elements it kept; the error text is a string of
 * its array.
 */
#include "fuzz.h"
#include "core/alloc.h"
#include "run/drivers/exec.h"

#include <string.h>

static const txn_mop list_mops[] = {
    {.f = TXN_APPEND, .nil = 1, .key = 3, .value = 7},
    {.f = TXN_R, .nil = 1, .key = 4, .value = 0},
    {.f = TXN_R, .nil = 1, .key = INT64_MIN, .value = 0},
    {.f = TXN_APPEND, .nil = 1, .key = INT64_MAX, .value = INT64_MIN},
};
static const txn_mop register_mops[] = {
    {.f = TXN_W, .nil = 1, .key = 3, .value = 7},
    {.f = TXN_R, .nil = 1, .key = 4, .value = 0},
    {.f = TXN_W, .nil = 1, .key = INT64_MIN, .value = INT64_MAX},
};

struct reply_call {
    const char *line;
    size_t len;
    txn *t;
    int outcome;
    int64_t id;
};

static int parse(void *arg)
{
    struct reply_call *c = arg;
    c->outcome = exec_parse_reply(c->line, c->len, c->t, &c->id);
    return 0;
}

static void check_reads(const txn *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const txn_mop *m = &t->mops[i];
        if (m->f != TXN_R || m->nil || !t->list_append) continue;
        if ((size_t)m->off + m->len > t->n_res)
            fuzz_fail("read %u keeps elements [%u, %u) of %zu", i, m->off, m->off + m->len, t->n_res);
    }
}

static void reply_to(const char *line, size_t len, const txn_mop *mops, uint32_t n, int list_append)
{
    txn t;
    memset(&t, 0, sizeof t);
    memcpy(t.mops, mops, n * sizeof *mops);
    t.n = n;
    t.list_append = list_append;
    struct reply_call c = {line, len, &t, 0, 0};
    isolde_error err = {0};
    if (iso_guarded(parse, &c, &err) != 0) fuzz_fail("exec_parse_reply: %s", err.msg);
    if (c.outcome < -1 || c.outcome > TXN_INFO) fuzz_fail("exec_parse_reply returned %d", c.outcome);
    if (c.outcome >= 0 && c.id < -1) fuzz_fail("reply id %lld", (long long)c.id);
    if (c.outcome == TXN_OK) check_reads(&t);
    if (!memchr(t.error, 0, sizeof t.error)) fuzz_fail("the error text is not terminated");
    txn_release(&t);
}

static void test(const uint8_t *data, size_t len)
{
    const char *line = (const char *)data;
    reply_to(line, len, list_mops, sizeof list_mops / sizeof *list_mops, 1);
    reply_to(line, len, register_mops, sizeof register_mops / sizeof *register_mops, 0);
}

const struct fuzz_kind fuzz_exec_reply_kind = {"exec-reply", NULL, NULL, test};
