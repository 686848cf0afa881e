/*
 * run/drivers/exec_reply.c -- reading one reply line of the exec protocol
 * (docs/FORMATS.md section 7):
 *   {"type":"ok","value":[["append",3,7],["r",4,[1,7]]]}
 *   {"type":"fail","error":"serialization failure"}
 * and the request's "id" if the client echoes it, with the history
 * readers' JSON value parser (history/read_json.h), into a
 * store of the reply's own. An ok reply must repeat the request's
 * micro-ops (same function, key and written value) and fills in the
 * reads; integers must fit in 64 bits. Anything else is garbage, which the
 * driver records as info.
 */
#include <stdlib.h>
#include <string.h>
#include "history/read_json.h"
#include "run/drivers/exec.h"

static int is_seq_of(const iso_store *s, iso_val v, enum iso_seq_kind kind)
{
    return iso_is_seq(v) && iso_seq_kind(s, v) == kind;
}

/* A read's result: null, a register's value or a list of elements. */
static int read_result(const iso_store *s, iso_val v, txn *t, uint32_t i)
{
    txn_mop *m = &t->mops[i];
    if (iso_is_nil(v)) return 1;
    if (!t->list_append) {
        if (!iso_val_int64(s, v, &m->value)) return 0;
        m->nil = 0;
        return 1;
    }
    if (!is_seq_of(s, v, ISO_SEQ_VEC)) return 0;
    txn_read_begin(t, i);
    size_t n = iso_seq_len(s, v);
    iso_val buf[3];
    const iso_val *e = iso_seq_items(s, v, buf);
    for (size_t j = 0; j < n; j++) {
        int64_t x;
        if (!iso_val_int64(s, e[j], &x)) return 0;
        txn_read_elem(t, i, x);
    }
    return 1;
}

/* Micro-op i of the reply: the request's, with a read's result. */
static int mop(const iso_store *s, iso_val v, txn *t, uint32_t i)
{
    static const char *const names[] = {"r", "append", "w", "add"};
    const txn_mop *m = &t->mops[i];
    if (!is_seq_of(s, v, ISO_SEQ_VEC) || iso_seq_len(s, v) != 3) return 0;
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, v, buf);
    int64_t key, val;
    if (iso_tag(it[0]) != ISO_TAG_STR || !iso_name_is(s, it[0], names[m->f])) return 0;
    if (!iso_val_int64(s, it[1], &key) || key != m->key) return 0;
    if (m->f == TXN_R) return read_result(s, it[2], t, i);
    return iso_val_int64(s, it[2], &val) && val == m->value;
}

static int value(const iso_store *s, iso_val v, txn *t)
{
    txn_clear_reads(t);
    if (!is_seq_of(s, v, ISO_SEQ_VEC) || iso_seq_len(s, v) != t->n) return 0;
    iso_val buf[3];
    const iso_val *it = iso_seq_items(s, v, buf);
    for (uint32_t i = 0; i < t->n; i++)
        if (!mop(s, it[i], t, i)) return 0;
    return 1;
}

static int outcome_of(const iso_store *s, iso_val type)
{
    if (iso_tag(type) != ISO_TAG_STR) return -1;
    if (iso_name_is(s, type, "ok")) return TXN_OK;
    if (iso_name_is(s, type, "fail")) return TXN_FAIL;
    if (iso_name_is(s, type, "info")) return TXN_INFO;
    return -1;
}

/* The reply's "id" into *id (-1: none); 0 if it is there but not a
 * non-negative integer. */
static int reply_id(const iso_store *s, iso_val obj, int64_t *id)
{
    int has_id;
    iso_val v = iso_map_get(s, obj, "id", &has_id);
    *id = -1;
    return !has_id || (iso_val_int64(s, v, id) && *id >= 0);
}

/* The reply's outcome, with t's reads and error filled in; -1 if it is
 * not a well-formed reply to t. */
static int reply(const iso_store *s, iso_val obj, txn *t, int64_t *id)
{
    int has_type, has_error, has_value;
    if (!is_seq_of(s, obj, ISO_SEQ_MAP) || !reply_id(s, obj, id)) return -1;
    int outcome = outcome_of(s, iso_map_get(s, obj, "type", &has_type));
    iso_val e = iso_map_get(s, obj, "error", &has_error), v = iso_map_get(s, obj, "value", &has_value);
    if (!has_type || outcome < 0 || (has_error && !iso_is_nil(e) && iso_tag(e) != ISO_TAG_STR)) return -1;
    if (outcome == TXN_OK && (!has_value || !value(s, v, t))) return -1;
    size_t n = 0;
    const char *text = has_error && !iso_is_nil(e) ? iso_atom_text(s, e, &n) : "";
    snprintf(t->error, sizeof t->error, "%.*s", (int)n, text);
    return outcome;
}

int exec_parse_reply(const char *line, size_t len, txn *t, int64_t *id)
{
    iso_store s;
    iso_store_init(&s);
    iso_val obj;
    int64_t ignored;
    id = id ? id : &ignored;
    *id = -1;
    int outcome = iso_json_document(&s, "reply", line, len, &obj, NULL) == 0 ? reply(&s, obj, t, id) : -1;
    iso_store_free(&s);
    return outcome;
}
