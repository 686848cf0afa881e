/*
 * history/read_json.c -- JSON histories: one array of op objects (elle-cli), or one
 * object per line (JSON lines; IsoCheck adds '#' comment lines).
 *
 * The value parser is an explicit-stack state machine (no recursion, depth
 * bounded by ISO_MAX_DEPTH). Strings stay strings (ISO_TAG_STR), integers
 * are kept exactly, other numbers become FLOAT atoms as written.
 */
#include "history/read_json.h"
#include "history/mop.h"
#include "history/read.h"
#include "history/split.h"

#include <string.h>

enum { J_ARRAY, J_OBJECT };

void iso_json_skip_slow(iso_rd *rd, int comments)
{
    while (rd->pos < rd->len) {
        char c = rd->p[rd->pos];
        if (c == '\n') {
            iso_rd_newline(rd);
        } else if (c == '#' && comments) {
            const char *nl = memchr(rd->p + rd->pos, '\n', rd->len - rd->pos);
            rd->pos = nl ? (size_t)(nl - rd->p) : rd->len;
            continue;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        rd->pos++;
    }
}

static size_t digits(const char *p, size_t i, size_t len)
{
    while (i < len && p[i] >= '0' && p[i] <= '9') i++;
    return i;
}

/* A plain non-negative integer of up to 17 digits (the common case);
 * 0 when the full grammar is needed. */
static int json_small_int(iso_rd *rd, iso_val *out)
{
    const char *p = rd->p;
    size_t i = rd->pos, end = rd->len - i > 17 ? i + 17 : rd->len;
    int64_t v = 0;
    while (i < end && p[i] >= '0' && p[i] <= '9') v = v * 10 + (p[i++] - '0');
    char c = i < rd->len ? (char)(p[i] | 0x20) : 0; /* lower case */
    if (c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) return 0;
    if (p[rd->pos] == '0' && i > rd->pos + 1) return 0;
    rd->pos = i;
    *out = iso_int(v);
    return 1;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(iso_rd *rd, iso_val *out)
{
    if (rd->p[rd->pos] != '-' && json_small_int(rd, out)) return 0;
    const char *p = rd->p;
    size_t start = rd->pos, i = start + (p[start] == '-'), len = rd->len;
    size_t j = digits(p, i, len), want = i; /* where a digit was wanted, when one was */
    int is_float = 0;
    if (j == i || (p[i] == '0' && j > i + 1)) goto bad;
    if (j < len && p[j] == '.') {
        size_t k = digits(p, want = j + 1, len);
        if (k == j + 1) goto bad;
        j = k;
        is_float = 1;
    }
    if (j < len && (p[j] == 'e' || p[j] == 'E')) {
        size_t k = j + 1 + (j + 1 < len && (p[j + 1] == '+' || p[j + 1] == '-'));
        size_t m = digits(p, want = k, len);
        if (m == k) goto bad;
        j = m;
        is_float = 1;
    }
    want = SIZE_MAX;
    if (j < len && ((p[j] >= 'a' && p[j] <= 'z') || (p[j] >= 'A' && p[j] <= 'Z') || p[j] == '.'))
        goto bad;
    if (iso_rd_atom_fits(rd, j - start)) return -1;
    if (is_float) *out = iso_rd_atom(rd, ISO_TAG_FLOAT, p + start, j - start);
    else *out = iso_rd_int(rd, p + start, j - start);
    rd->pos = j;
    return 0;
bad:
    rd->ran_out = want == len; /* "-", "1.", "1e" cut short */
    return iso_rd_fail(rd, "invalid number");
}

static int json_literal(iso_rd *rd, iso_val *out)
{
    static const struct { const char *text; iso_val v; } lits[] = {
        {"true", ISO_TRUE}, {"false", ISO_FALSE}, {"null", ISO_NIL}};
    size_t left = rd->len - rd->pos;
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(lits[i].text);
        if (left >= n && memcmp(rd->p + rd->pos, lits[i].text, n) == 0) {
            rd->pos += n;
            *out = lits[i].v;
            return 0;
        }
        rd->ran_out |= left < n && memcmp(rd->p + rd->pos, lits[i].text, left) == 0; /* "tru" cut short */
    }
    return iso_rd_unexpected(rd, "a JSON value");
}

/* A scalar, or the opening of a composite (then returns 1). */
static int json_start(iso_rd *rd, size_t base, iso_val *out)
{
    char c = rd->p[rd->pos];
    if (c == '{' || c == '[') {
        if (iso_rd_open(rd, base, c == '{' ? J_OBJECT : J_ARRAY) != 0) return -1;
        rd->pos++;
        return 1;
    }
    if (c == '"') return iso_rd_string(rd, out, 1);
    if (c == '-' || (c >= '0' && c <= '9')) return json_number(rd, out);
    return json_literal(rd, out);
}

/* The key at the cursor, the place-th of its object: when it is the key
 * that stood at this place in the previous object, its atom without
 * scanning or hashing; else the key read in full, remembered. */
static int key_at(iso_rd *rd, size_t place, iso_val *k)
{
    size_t n;
    if (iso_rd_place_hit(rd, place, &n, k)) {
        rd->pos += n;
        return 0;
    }
    const char *p = rd->p + rd->pos;
    if (iso_rd_string(rd, k, 1) != 0) return -1;
    n = (size_t)(rd->p + rd->pos - p); /* with both quotes */
    if (!memchr(p, '\\', n)) iso_rd_place_keep(rd, place, p, n, *k);
    return 0;
}

static int json_key_text(iso_rd *rd, iso_val *k)
{
    return key_at(rd, (rd->n_items - rd->frames[rd->n_frames - 1].items) / 2, k);
}

/* After '{' or ',' in an object: a key, then ':'. */
static int json_key(iso_rd *rd)
{
    iso_val k;
    iso_json_skip(rd, 0);
    if (iso_rd_eof(rd) || rd->p[rd->pos] != '"')
        return iso_rd_unexpected(rd, "a string key in object");
    if (json_key_text(rd, &k) != 0) return -1;
    iso_rd_item(rd, k);
    iso_json_skip(rd, 0);
    if (iso_rd_eof(rd) || rd->p[rd->pos] != ':')
        return iso_rd_unexpected(rd, "':' after object key");
    rd->pos++;
    return 0;
}

/* Parser states between steps of iso_json_value. */
enum { S_VALUE, S_DONE, S_AFTER }; /* want a value; v is complete; item pushed */

/* After an item of the top frame: ',' (S_VALUE), or the closer (S_DONE
 * with *out the closed composite). */
static int json_after_item(iso_rd *rd, iso_val *out)
{
    struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
    int obj = f->kind == J_OBJECT;
    iso_json_skip(rd, 0);
    char c = iso_rd_eof(rd) ? 0 : rd->p[rd->pos];
    if (c == ',') {
        rd->pos++;
        return obj ? json_key(rd) : S_VALUE;
    }
    if (c == (obj ? '}' : ']')) {
        rd->pos++;
        return iso_rd_close(rd, obj ? ISO_SEQ_MAP : ISO_SEQ_VEC, 1, out) ? -1 : S_DONE;
    }
    return iso_rd_unexpected(rd, obj ? "',' or '}' in object" : "',' or ']' in array");
}

/* Right after an opener: the empty composite (S_DONE), or S_VALUE. */
static int json_after_open(iso_rd *rd, iso_val *out)
{
    struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
    int obj = f->kind == J_OBJECT;
    iso_json_skip(rd, 0);
    if (!iso_rd_eof(rd) && rd->p[rd->pos] == (obj ? '}' : ']')) {
        rd->pos++;
        return iso_rd_close(rd, obj ? ISO_SEQ_MAP : ISO_SEQ_VEC, 1, out) ? -1 : S_DONE;
    }
    return obj ? json_key(rd) : S_VALUE;
}

/* A run of small integers in an array ("[1,2,3]", the bulk of list-append
 * reads), without the general machinery. Returns S_VALUE having consumed
 * nothing, S_AFTER after pushing items, or S_DONE when the array closed. */
static int json_int_run(iso_rd *rd, iso_val *out)
{
    int state = S_VALUE;
    iso_val v;
    while (rd->pos < rd->len && rd->p[rd->pos] >= '0' && rd->p[rd->pos] <= '9' &&
           json_small_int(rd, &v)) {
        iso_rd_item(rd, v);
        state = S_AFTER;
        char c = rd->pos < rd->len ? rd->p[rd->pos] : 0;
        if (c == ']') {
            rd->pos++;
            return iso_rd_close(rd, ISO_SEQ_VEC, 1, out) ? -1 : S_DONE;
        }
        if (c != ',' || rd->pos + 1 == rd->len) break;
        rd->pos++;
        state = S_VALUE;
    }
    return state;
}

/* The start of a value: a scalar (S_DONE), or an opener (S_VALUE, or
 * S_DONE when empty); in arrays, integer runs may go further. */
static int json_next(iso_rd *rd, size_t base, iso_val *out)
{
    iso_json_skip(rd, 0);
    if (iso_rd_eof(rd)) return iso_rd_unexpected(rd, "a JSON value");
    if (rd->n_frames > base && rd->frames[rd->n_frames - 1].kind == J_ARRAY) {
        int r = json_int_run(rd, out);
        if (r != S_VALUE) return r;
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd)) return iso_rd_unexpected(rd, "a JSON value");
        if (rd->p[rd->pos] == '[' && rd->n_frames - base + 2 <= ISO_MAX_DEPTH && iso_mop_read(rd, out, 1, 0))
            return S_DONE;
    }
    int r = json_start(rd, base, out);
    if (r == 1) return json_after_open(rd, out);
    return r < 0 ? -1 : S_DONE;
}

int iso_json_value(iso_rd *rd, iso_val *out)
{
    size_t base = rd->n_frames;
    iso_val v = ISO_NIL;
    int state = S_VALUE;
    while (state >= 0) {
        if (state == S_VALUE) {
            state = json_next(rd, base, &v);
            continue;
        }
        if (state == S_DONE) {
            if (rd->n_frames == base) {
                *out = v;
                return 0;
            }
            iso_rd_item(rd, v);
        }
        state = json_after_item(rd, &v);
    }
    return -1;
}

/* ---- op objects ------------------------------------------------------------ */

/* A field's value: strings, plain integers and lists of micro-ops
 * directly, anything else through the general parser. */
static int json_field_value(iso_rd *rd, iso_val *v)
{
    char c = rd->p[rd->pos];
    if (c == '"') return iso_rd_string(rd, v, 1);
    if (c >= '0' && c <= '9' && json_small_int(rd, v)) return 0;
    if (c == '[' && rd->pos + 1 < rd->len && rd->p[rd->pos + 1] == '[' && iso_mop_value(rd, v, 1)) return 0;
    return iso_json_value(rd, v);
}

/* At '{': an op object read field by field straight into the op, with no
 * map built. Returns 1 when the op was added, -1 when it breaks the op
 * rules, and 0 having consumed nothing when the object is not well formed
 * or names a key twice (the general parser then reads it, and reports the
 * error exactly). */
static int json_op_fields(iso_rd *rd, uint32_t line, uint32_t col)
{
    iso_rd_mark m = iso_rd_save(rd);
    iso_val fields[ISO_OP_FIELDS] = {0};
    uint8_t have[8] = {0}; /* ISO_OP_FIELDS of them, for iso_rd_keys_distinct */
    iso_rd_keys keys;
    keys.n_other = 0;
    size_t place = 0;
    rd->pos++;
    for (;; place++) {
        iso_val k, v;
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd) || rd->p[rd->pos] != '"' || key_at(rd, place, &k) != 0)
            return iso_rd_restore(rd, &m);
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd) || rd->p[rd->pos] != ':') return iso_rd_restore(rd, &m);
        rd->pos++;
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd) || json_field_value(rd, &v) != 0) return iso_rd_restore(rd, &m);
        int f = iso_history_field(k);
        if (f >= 0) {
            fields[f] = v;
            have[f] = 1;
        } else if (!iso_rd_other_key_new(&keys, k)) {
            return iso_rd_restore(rd, &m);
        }
        iso_json_skip(rd, 0);
        char c = iso_rd_eof(rd) ? 0 : rd->p[rd->pos++];
        if (c == '}') break;
        if (c != ',') return iso_rd_restore(rd, &m);
    }
    if (!iso_rd_keys_distinct(have, &keys, place + 1)) return iso_rd_restore(rd, &m);
    if (iso_history_add_op_fields(rd->h, fields, have, line, col, rd->err) != 0) return -1;
    iso_rd_consumed(rd);
    return 1;
}

/* One op object at the cursor. */
static int json_op(iso_rd *rd)
{
    uint32_t line = iso_rd_u32(rd->line), col = iso_rd_u32((size_t)iso_rd_col(rd));
    int r = rd->p[rd->pos] == '{' ? json_op_fields(rd, line, col) : 0;
    if (r) return r < 0 ? -1 : 0;
    iso_val v;
    if (iso_json_value(rd, &v) != 0) return -1;
    return iso_rd_add_op(rd, v, line, col);
}

/* The op objects of an array up to its closing ']' (not consumed). */
static int json_array_items(iso_rd *rd)
{
    iso_json_skip(rd, 0);
    if (!iso_rd_eof(rd) && rd->p[rd->pos] == ']') return 0;
    for (;;) {
        iso_json_skip(rd, 0);
        if (iso_rd_eof(rd)) return iso_rd_unexpected(rd, "an op object");
        if (json_op(rd) != 0) return -1;
        iso_json_skip(rd, 0);
        char c = iso_rd_eof(rd) ? 0 : rd->p[rd->pos];
        if (c == ']') return 0;
        if (c != ',') return iso_rd_unexpected(rd, "',' or ']' in array");
        rd->pos++;
    }
}

/* A history that is one array: nothing may follow it, not even after an
 * empty one. */
static int json_array(iso_rd *rd)
{
    rd->pos++;
    if (json_array_items(rd) != 0) return -1;
    rd->pos++;
    iso_json_skip(rd, 0);
    return iso_rd_eof(rd) ? 0 : iso_rd_unexpected(rd, "end of input after the array");
}

int iso_json_lines(isolde_history *h, const char *buf, size_t len, size_t *lines, isolde_error *err)
{
    iso_rd rd;
    iso_rd_init(&rd, h, buf, len, err);
    int r = 0;
    for (;;) {
        iso_json_skip(&rd, 1);
        if (iso_rd_eof(&rd) || (r = json_op(&rd)) != 0) break;
    }
    *lines = rd.line - 1;
    iso_rd_release(&rd);
    return r;
}

int iso_read_json(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    iso_rd rd;
    iso_rd_init(&rd, h, buf, len, err);
    iso_json_skip(&rd, 1);
    int array = !iso_rd_eof(&rd) && rd.p[rd.pos] == '[';
    int r = array ? json_array(&rd) : iso_read_split(h, buf, len, ISO_SPLIT_MIN, iso_json_lines, err);
    iso_rd_release(&rd);
    return r;
}

int iso_json_document(iso_store *s, const char *name, const char *buf, size_t len, iso_val *out,
                      isolde_error *err)
{
    iso_rd rd;
    iso_rd_init_store(&rd, s, name, buf, len, err);
    iso_json_skip(&rd, 0);
    int rc = iso_json_value(&rd, out);
    if (rc == 0) {
        iso_json_skip(&rd, 0);
        if (!iso_rd_eof(&rd)) rc = iso_rd_unexpected(&rd, "the end of the input");
    }
    iso_rd_release(&rd);
    return rc;
}

int iso_json_cut(const char *name, const char *buf, size_t len, isolde_error *err)
{
    iso_store s;
    iso_store_init(&s);
    iso_rd rd;
    iso_rd_init_store(&rd, &s, name, buf, len, err);
    iso_val v;
    int rc = 0;
    for (iso_json_skip(&rd, 1); rc == 0 && !iso_rd_eof(&rd); iso_json_skip(&rd, 1)) rc = iso_json_value(&rd, &v);
    iso_rd_release(&rd);
    iso_store_free(&s);
    return rc < 0 && rd.ran_out && err->code == ISOLDE_ERR_PARSE;
}
