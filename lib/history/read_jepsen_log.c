/*
 * history/read_jepsen_log.c -- op lines of old jepsen.log files:
 *   INFO  jepsen.util - 2	:invoke	:write	4
 * After "jepsen.util" come the process, the type, f and an optional EDN
 * value (":timed-out" on an info completion means unknown: nil). Lines
 * that are not op lines are skipped; ops get dense indices and no time.
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

/* Read one form, quietly: failure means "not an op line". */
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
    if (iso_tag(v) != ISO_TAG_KW) return -1;
    size_t n;
    const char *p = iso_atom_text(s, v, &n);
    for (int i = 0; i < 4; i++)
        if (strlen(names[i]) == n && memcmp(names[i], p, n) == 0) return i;
    return -1;
}

/* The line [rd->pos, rd->len); returns -1 only on a bad value. */
static int op_line(iso_rd *rd)
{
    isolde_history *h = rd->h;
    const char *at = find(rd->p + rd->pos, rd->len - rd->pos, "jepsen.util");
    if (!at) return 0;
    rd->pos = (size_t)(at - rd->p) + 11;
    while (rd->pos < rd->len && (rd->p[rd->pos] == ' ' || rd->p[rd->pos] == '\t')) rd->pos++;
    if (rd->pos < rd->len && (rd->p[rd->pos] == '-' || rd->p[rd->pos] == ':')) rd->pos++;
    iso_op op = {.index = (int64_t)h->n_ops, .time = -1, .line = iso_rd_u32(rd->line), .col = 1};
    iso_val type, f;
    if (probe(rd, &op.process) || (!iso_is_int(op.process) && iso_tag(op.process) != ISO_TAG_KW) ||
        probe(rd, &type) || op_type(&h->store, type) < 0 || probe(rd, &f))
        return 0;
    op.type = (uint8_t)op_type(&h->store, type);
    int r = iso_edn_form(rd, &op.value);
    if (r == 2) return iso_rd_unexpected(rd, "a value");
    if (r < 0) return -1;
    if (r == 0) op.value = ISO_NIL;
    if (op.type == ISO_OP_INFO && iso_tag(op.value) == ISO_TAG_KW) {
        size_t n;
        const char *p = iso_atom_text(&h->store, op.value, &n);
        if (n == 9 && memcmp(p, "timed-out", 9) == 0) op.value = ISO_NIL;
    }
    iso_history_add_op(h, &op, f, ISO_NIL);
    return 0;
}

int iso_read_jepsen_log(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    iso_rd rd;
    iso_rd_init(&rd, h, buf, len, err);
    h->dense_index = 1;
    int r = 0;
    for (size_t start = 0, line = h->line_base + 1; start < len && r == 0; line++) {
        const char *nl = memchr(buf + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - buf) : len;
        rd.pos = rd.line_start = start;
        rd.line = line;
        rd.len = end;
        r = op_line(&rd);
        start = end + 1;
    }
    iso_rd_release(&rd);
    return r;
}
