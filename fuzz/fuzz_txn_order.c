/*
 * fuzz/fuzz_txn_order.c -- transaction-order: the input as a
 * --transaction-order file, parsed (elle/rw_register/txn_order.c, an
 * internal entry point) and given to a check of a small rw-register
 * history through the public calls, where it orders the writes of a key.
 *
 * Promises checked: the parser returns entries sorted by completion index,
 * each index once, no more of them than the input could spell, or a clean
 * error (fuzz_check_error); the check with the file succeeds exactly when
 * the bytes parse, else it fails with the parser's error, never a usage
 * error; bytes that are no text (binary data, UTF-16) are refused as such,
 * as a history's are.
 */
#include "fuzz.h"
#include "core/alloc.h"
#include "history/input.h"
#include "elle/rw_register/txn_order.h"

#include <string.h>

/* Three writes of one key, and reads that order none of them: the file's
 * ranks decide the version order. */
static const char history[] =
    "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"w\",1,1]]}\n"
    "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"w\",1,1]]}\n"
    "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"value\":[[\"w\",1,2]]}\n"
    "{\"index\":3,\"type\":\"ok\",\"process\":1,\"value\":[[\"w\",1,2]]}\n"
    "{\"index\":4,\"type\":\"invoke\",\"process\":2,\"value\":[[\"w\",1,3],[\"r\",2,null]]}\n"
    "{\"index\":5,\"type\":\"ok\",\"process\":2,\"value\":[[\"w\",1,3],[\"r\",2,null]]}\n"
    "{\"index\":6,\"type\":\"invoke\",\"process\":3,\"value\":[[\"r\",1,null]]}\n"
    "{\"index\":7,\"type\":\"ok\",\"process\":3,\"value\":[[\"r\",1,2]]}\n";

static isolde_history *h;

static int read_history(const char *arg)
{
    (void)arg;
    isolde_error err;
    if (isolde_history_read_mem("h", history, sizeof history - 1, NULL, &h, &err) != ISOLDE_OK)
        fuzz_fail("the history: %s", err.msg);
    return 0;
}

struct parse_call {
    const char *data;
    size_t len;
    iso_txn_rank *r;
    size_t n;
    isolde_error *err;
};

static int parse_under_guard(void *arg)
{
    struct parse_call *c = arg;
    return iso_txn_order_parse("fuzz", c->data, c->len, &c->r, &c->n, c->err);
}

/* The parser's answer, checked: 0 with entries, or -1 with err. */
static int parsed(const char *data, size_t len, isolde_error *err)
{
    struct parse_call c = {data, len, NULL, 0, err};
    memset(err, 0, sizeof *err);
    if (iso_guarded(parse_under_guard, &c, err) != 0) {
        fuzz_check_error("iso_txn_order_parse", err->code, err, c.r);
        return -1;
    }
    if (c.n && c.n * 6 >= len) fuzz_fail("%zu entries from %zu bytes", c.n, len); /* {"1":2} is 7 */
    for (size_t i = 1; i < c.n; i++)
        if (c.r[i].index <= c.r[i - 1].index)
            fuzz_fail("entry %zu: index %lld after %lld", i, (long long)c.r[i].index, (long long)c.r[i - 1].index);
    iso_free(c.r);
    return 0;
}

/* The check with the input as its --transaction-order file agrees with
 * the parser (perr: its error, NULL when it parsed). */
static void check_agrees(const char *data, size_t len, const isolde_error *perr)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = ISOLDE_WORKLOAD_RW_REGISTER;
    o.threads = 1;
    static char kv[4200];
    const char *given[] = {kv};
    snprintf(kv, sizeof kv, "transaction-order=%s", fuzz_scratch_file((const uint8_t *)data, len));
    o.checker_opts = given;
    o.n_checker_opts = 1;
    isolde_result *r = NULL;
    isolde_error err, probe;
    isolde_status s = isolde_check(h, &o, &r, &err);
    if (s != ISOLDE_OK) fuzz_check_error("isolde_check", s, &err, r);
    if (s == ISOLDE_ERR_USAGE) fuzz_fail("a transaction order is a usage error: %s", err.msg);
    isolde_result_free(r);
    if (len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b) return; /* inflated first */
    if (iso_input_text("fuzz", "a transaction order", data, len, &probe) != 0) {
        if (s != ISOLDE_ERR_PARSE || strcmp(err.msg, probe.msg) != 0)
            fuzz_fail("bytes that are no text (%s) gave status %d: %s", probe.msg, (int)s, s ? err.msg : "ok");
        return;
    }
    if ((s == ISOLDE_OK) != (perr == NULL))
        fuzz_fail("the check: %s; the parser: %s", s ? err.msg : "ok", perr ? perr->msg : "ok");
    if (perr && (strcmp(err.msg, perr->msg) != 0 || err.line != perr->line || err.col != perr->col))
        fuzz_fail("the check: %ld:%ld: %s; the parser: %ld:%ld: %s", err.line, err.col, err.msg, perr->line,
                  perr->col, perr->msg);
}

static void test(const uint8_t *bytes, size_t len)
{
    const char *data = len ? (const char *)bytes : "";
    isolde_error err;
    int rc = parsed(data, len, &err);
    check_agrees(data, len, rc ? &err : NULL);
}

const struct fuzz_kind fuzz_txn_order_kind = {"transaction-order", NULL, read_history, test};
