/*
 * history/read_jepsen_log.c -- Jepsen's text op lines, as jepsen.print's
 * prn-op writes them: PROCESS TAB TYPE TAB F TAB VALUE, then TAB and the
 * error when there is one, each an EDN form (the error as `print` wrote
 * it, kept as text). Two formats are made of them:
 *
 *   jepsen-txt  history.txt, which every Jepsen store writes beside
 *               history.edn: every non-blank line is an op line
 *                 3	:invoke	:read	nil
 *   jepsen-log  old jepsen.log files: op lines after "jepsen.util", among
 *               other log lines, which are skipped
 *                 INFO  jepsen.util - 2	:invoke	:write	4
 *
 * ":timed-out" as the value of an info completion means unknown (nil).
 * Ops get dense indices and no time (history order is file order).
 */
#include "history/read_edn.h"
#include "history/read.h"

#include <string.h>

static const char *find(const char *p, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (p[i] == s[0] && memcmp(p + i, s, m) == 0) return p + i;
    return NULL;
}

/* One form of the line, quietly: failure means "not an op line". */
static int probe(iso_rd *rd, iso_val *out)
{
    isolde_error *err = rd->err, scratch;
    rd->err = &scratch;
    int r = iso_edn_form(rd, out);
    rd->err = err;
    if (r != 1) rd->n_frames = rd->n_items = 0;
    return r == 1 ? 0 : -1;
}

static int op_type(const iso_store *s, iso_val v)
{
    static const char *const names[] = {"invoke", "ok", "fail", "info"};
    for (int i = 0; i < 4; i++)
        if (iso_tag(v) == ISO_TAG_KW && iso_name_is(s, v, names[i])) return i;
    return -1;
}

/* The error after the value: the rest of the line, trimmed, as a string
 * (Jepsen prints it with `print`, which is not always EDN); nil if none. */
static int error_text(iso_rd *rd, iso_val *out)
{
    size_t a = rd->pos, b = rd->len;
    while (a < b && (rd->p[a] == ' ' || rd->p[a] == '\t')) a++;
    while (b > a && (rd->p[b - 1] == ' ' || rd->p[b - 1] == '\t' || rd->p[b - 1] == '\r')) b--;
    *out = ISO_NIL;
    if (a == b) return 0;
    rd->pos = a;
    if (iso_rd_atom_fits(rd, b - a)) return -1;
    *out = iso_rd_atom(rd, ISO_TAG_STR, rd->p + a, b - a);
    rd->pos = rd->len;
    return 0;
}

/* The value, then the error: -1 on a malformed value. */
static int value_and_error(iso_rd *rd, iso_op *op, iso_val *error)
{
    int r = iso_edn_form(rd, &op->value);
    if (r == 2) return iso_rd_unexpected(rd, "a value");
    if (r < 0) return -1;
    if (r == 0) op->value = ISO_NIL;
    if (op->type == ISO_OP_INFO && iso_tag(op->value) == ISO_TAG_KW && iso_name_is(rd->store, op->value, "timed-out"))
        op->value = ISO_NIL;
    return error_text(rd, error);
}

/* history.txt's first fields, where a line must be an op line. */
static int strict_head(iso_rd *rd, iso_val *process, iso_val *type, iso_val *f)
{
    static const char *const expect[] = {
        "the process (an op line is PROCESS TAB TYPE TAB F TAB VALUE)",
        "the type (:invoke, :ok, :fail or :info)", "the op's f"};
    iso_val *field[] = {process, type, f};
    for (int i = 0; i < 3; i++) {
        iso_edn_skip(rd);
        size_t col = (size_t)iso_rd_col(rd);
        int r = iso_edn_form(rd, field[i]);
        if (r < 0) return -1;
        if (r == 0) return iso_rd_fail(rd, "the line ends before %s", expect[i]);
        if (r != 1) return iso_rd_unexpected(rd, expect[i]);
        if (i == 1 && op_type(rd->store, *type) < 0) {
            char d[40];
            iso_buf b = {0};
            iso_val_edn(rd->store, *type, &b);
            snprintf(d, sizeof d, "%s", iso_buf_cstr(&b));
            iso_buf_free(&b);
            return iso_rd_fail_at(rd, rd->line, col, "expected %s, got %s", expect[1], d);
        }
    }
    return 0;
}

/* The op line [rd->pos, rd->len): 1 when it was one, 0 when it was not
 * (skipped: log lines only), -1 on an error. */
static int op_line(iso_rd *rd, int log)
{
    isolde_history *h = rd->h;
    if (log) {
        const char *at = find(rd->p + rd->pos, rd->len - rd->pos, "jepsen.util");
        if (!at) return 0;
        rd->pos = (size_t)(at - rd->p) + 11;
        while (rd->pos < rd->len && (rd->p[rd->pos] == ' ' || rd->p[rd->pos] == '\t')) rd->pos++;
        if (rd->pos < rd->len && (rd->p[rd->pos] == '-' || rd->p[rd->pos] == ':')) rd->pos++;
    }
    iso_edn_skip(rd);
    if (!log && iso_rd_eof(rd)) return 0; /* a blank line */
    iso_op op = {.index = (int64_t)h->n_ops, .time = -1, .line = iso_rd_u32(rd->line),
                 .col = iso_rd_u32((size_t)iso_rd_col(rd))};
    iso_val process, type, f, error = ISO_NIL;
    if (log && (probe(rd, &process) || (!iso_is_integer(process) && iso_tag(process) != ISO_TAG_KW) ||
                probe(rd, &type) || op_type(&h->store, type) < 0 || probe(rd, &f)))
        return 0;
    if (!log && strict_head(rd, &process, &type, &f)) return -1;
    op.type = (uint8_t)op_type(&h->store, type);
    if (value_and_error(rd, &op, &error)) return -1;
    return iso_history_add_op(h, &op, process, f, error, rd->err) ? -1 : 1;
}

/* Every line of buf, each cut off at its newline. */
static int read_lines(isolde_history *h, const char *buf, size_t len, int log, isolde_error *err)
{
    iso_rd rd;
    iso_rd_init(&rd, h, buf, len, err);
    h->dense_index = 1;
    int r = 0;
    for (size_t start = 0, line = h->line_base + 1; start < len && r >= 0; line++) {
        const char *nl = memchr(buf + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - buf) : len;
        rd.pos = rd.line_start = start;
        rd.line = line;
        rd.len = end;
        r = op_line(&rd, log);
        start = end + 1;
    }
    iso_rd_release(&rd);
    return r < 0 ? -1 : 0;
}

int iso_read_jepsen_log(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    return read_lines(h, buf, len, 1, err);
}

int iso_read_jepsen_txt(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    return read_lines(h, buf, len, 0, err);
}
