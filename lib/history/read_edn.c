/*
 * history/read_edn.c -- EDN histories (Jepsen's history.edn): op maps one per line,
 * or inside top-level vectors / lists.
 *
 * The form parser keeps its open collections, '#_' discards and '#tag'
 * prefixes on an explicit stack (no recursion; depth bounded). A tag before
 * a collection yields the collection (records such as
 * #jepsen.history.Op{...} read as their map); a tag before a scalar yields
 * a FORM atom holding the text as written ("#inst \"...\"").
 */
#include "history/read_edn.h"
#include "history/mop.h"
#include "history/read.h"
#include "history/split.h"

#include <string.h>

enum { E_VEC = ISO_SEQ_VEC, E_LIST = ISO_SEQ_LIST, E_SET = ISO_SEQ_SET,
       E_MAP = ISO_SEQ_MAP, E_DISCARD, E_TAG };

static const char closer_of[] = {']', ')', '}', '}'};
static const char *const kind_name[] = {"vector", "list", "set", "map"};

/* Bytes that end a token: whitespace and control bytes, and , ( ) [ ] { }
 * " ; \ ^ @ ` ~ DEL. */
const uint8_t iso_edn_delim[256] = {
    [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1,
    [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,
    [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1,
    [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1, [','] = 1, ['('] = 1, [')'] = 1, ['['] = 1,
    [']'] = 1, ['{'] = 1, ['}'] = 1, ['"'] = 1, [';'] = 1, ['\\'] = 1, ['^'] = 1, ['@'] = 1,
    ['`'] = 1, ['~'] = 1, [127] = 1,
};

static int is_delim(unsigned char c) { return iso_edn_delim[c]; }

void iso_edn_skip_slow(iso_rd *rd)
{
    while (rd->pos < rd->len) {
        char c = rd->p[rd->pos];
        if (c == '\n') {
            iso_rd_newline(rd);
        } else if (c == ';') {
            const char *nl = memchr(rd->p + rd->pos, '\n', rd->len - rd->pos);
            rd->pos = nl ? (size_t)(nl - rd->p) : rd->len;
            continue;
        } else if (c != ' ' && c != ',' && c != '\t' && c != '\r' && c != '\f') {
            return;
        }
        rd->pos++;
    }
}

static size_t token_end(const iso_rd *rd, size_t i)
{
    while (i < rd->len && !is_delim((unsigned char)rd->p[i])) i++;
    return i;
}

static size_t skip_digits(const char *p, size_t i, size_t end)
{
    while (i < end && p[i] >= '0' && p[i] <= '9') i++;
    return i;
}

/* A plain non-negative integer of up to 17 digits ending at a delimiter
 * (the common case); 0 when the full grammar is needed. */
static int edn_small_int(iso_rd *rd, iso_val *out)
{
    const char *p = rd->p;
    size_t i = rd->pos, end = rd->len - i > 17 ? i + 17 : rd->len;
    int64_t v = 0;
    while (i < end && p[i] >= '0' && p[i] <= '9') v = v * 10 + (p[i++] - '0');
    if (i < rd->len && !is_delim((unsigned char)p[i])) return 0;
    rd->pos = i;
    *out = iso_int(v);
    return 1;
}

/* Numbers: [+-]d+N? integers; [+-]d+(.d*)?([eE][+-]?d+)?M? floats;
 * [+-]d+/d+ ratios (kept as FLOAT atoms, as written). */
static int edn_number(iso_rd *rd, iso_val *out)
{
    if (edn_small_int(rd, out)) return 0;
    const char *p = rd->p;
    size_t start = rd->pos, end = token_end(rd, start);
    if (iso_rd_atom_fits(rd, end - start)) return -1;
    size_t i = start + (p[start] == '+' || p[start] == '-');
    size_t j = skip_digits(p, i, end);
    if (j == end || (j + 1 == end && p[j] == 'N')) {
        *out = iso_rd_int(rd, p + start, j - start);
    } else if (p[j] == '/' && skip_digits(p, j + 1, end) == end && j + 1 < end) {
        *out = iso_rd_atom(rd, ISO_TAG_FLOAT, p + start, end - start);
    } else {
        if (p[j] == '.') j = skip_digits(p, j + 1, end);
        if (j < end && (p[j] == 'e' || p[j] == 'E')) {
            size_t k = j + 1 + (j + 1 < end && (p[j + 1] == '+' || p[j + 1] == '-'));
            j = skip_digits(p, k, end) > k ? skip_digits(p, k, end) : end + 1;
        }
        if (j < end && p[j] == 'M') j++;
        if (j != end) /* ran out: "1e" cut short */
            return rd->ran_out = end == rd->len, iso_rd_fail(rd, "invalid number '%.*s'", (int)(end - start > 40 ? 40 : end - start),
                               p + start);
        *out = iso_rd_atom(rd, ISO_TAG_FLOAT, p + start, end - start);
    }
    rd->pos = end;
    return 0;
}

static int edn_symbol(iso_rd *rd, iso_val *out)
{
    size_t start = rd->pos, end = token_end(rd, start), n = end - start;
    const char *p = rd->p + start;
    if (iso_rd_atom_fits(rd, n)) return -1;
    rd->pos = end;
    if (n == 3 && memcmp(p, "nil", 3) == 0) *out = ISO_NIL;
    else if (n == 4 && memcmp(p, "true", 4) == 0) *out = ISO_TRUE;
    else if (n == 5 && memcmp(p, "false", 5) == 0) *out = ISO_FALSE;
    else *out = iso_rd_atom(rd, ISO_TAG_SYM, p, n);
    return 0;
}

static int edn_keyword(iso_rd *rd, iso_val *out)
{
    size_t start = rd->pos + 1, end = token_end(rd, start);
    if (end == start) return rd->ran_out = start == rd->len, iso_rd_fail(rd, "empty keyword");
    if (iso_rd_atom_fits(rd, end - start)) return -1;
    *out = iso_rd_atom(rd, ISO_TAG_KW, rd->p + start, end - start);
    rd->pos = end;
    return 0;
}

/* \c, \newline, \space, \tab, \return, \backspace, \formfeed, \uXXXX,
 * \oNNN; the atom keeps the text after the backslash. */
static int edn_char(iso_rd *rd, iso_val *out)
{
    static const char *const names[] = {"newline", "space", "tab", "return",
                                        "backspace", "formfeed"};
    size_t start = rd->pos + 1;
    if (start >= rd->len || (unsigned char)rd->p[start] <= ' ')
        return rd->ran_out = start >= rd->len, iso_rd_fail(rd, "invalid character literal");
    size_t end = start + 1;
    while (end < rd->len && ((unsigned char)rd->p[end] & 0xc0) == 0x80) end++; /* UTF-8 */
    if (end == start + 1) end = token_end(rd, end);
    size_t n = end - start;
    const char *p = rd->p + start;
    int ok = n == 1 || (unsigned char)p[0] >= 0x80;
    for (size_t i = 0; !ok && i < sizeof names / sizeof names[0]; i++)
        ok = strlen(names[i]) == n && memcmp(names[i], p, n) == 0;
    if (!ok && p[0] == 'u' && n == 5) ok = iso_rd_hex4(p + 1) >= 0;
    if (!ok && p[0] == 'o' && n >= 2 && n <= 4) ok = skip_digits(p, 1, n) == n;
    if (!ok) /* ran out: "\\newl" cut short */
        return rd->ran_out = end == rd->len,
               iso_rd_fail(rd, "invalid character literal '\\%.*s'", (int)(n > 20 ? 20 : n), p);
    *out = iso_rd_atom(rd, ISO_TAG_CHAR, p, n);
    rd->pos = end;
    return 0;
}

/* '#' dispatch: sets, discards, tags (frames, returns 1) or ##Inf (0). */
static int edn_dispatch(iso_rd *rd, size_t base, iso_val *out)
{
    char c = rd->pos + 1 < rd->len ? rd->p[rd->pos + 1] : 0;
    if (c == '{' || c == '_') {
        if (iso_rd_open(rd, base, c == '{' ? E_SET : E_DISCARD) != 0) return -1;
        rd->pos += 2;
        return 1;
    }
    if (c == '#') { /* ##Inf ##-Inf ##NaN */
        size_t end = token_end(rd, rd->pos + 2), n = end - rd->pos;
        const char *p = rd->p + rd->pos;
        if (!((n == 5 && (memcmp(p, "##Inf", 5) == 0 || memcmp(p, "##NaN", 5) == 0)) ||
              (n == 6 && memcmp(p, "##-Inf", 6) == 0))) /* ran out: "##In" cut short */
            return rd->ran_out = end == rd->len, iso_rd_fail(rd, "invalid symbolic value '%.*s'", (int)(n > 20 ? 20 : n), p);
        *out = iso_rd_atom(rd, ISO_TAG_FLOAT, p, n);
        rd->pos = end;
        return 0;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        size_t end = token_end(rd, rd->pos + 1);
        if (iso_rd_atom_fits(rd, end - rd->pos) || iso_rd_open(rd, base, E_TAG) != 0) return -1;
        rd->pos = end;
        return 1;
    }
    if (!c) return rd->ran_out = 1, iso_rd_fail(rd, "unexpected end of input after '#'");
    return iso_rd_fail(rd, "unsupported dispatch '#%c'", c);
}

/* A scalar (returns 0), or the opening of a frame (returns 1). */
static int edn_start(iso_rd *rd, size_t base, iso_val *out)
{
    unsigned char c = (unsigned char)rd->p[rd->pos];
    char n = rd->pos + 1 < rd->len ? rd->p[rd->pos + 1] : 0;
    switch (c) {
    case '[': case '(': case '{':
        if (iso_rd_open(rd, base, c == '[' ? E_VEC : c == '(' ? E_LIST : E_MAP) != 0) return -1;
        rd->pos++;
        return 1;
    case '"': return iso_rd_string(rd, out, 0);
    case ':': return edn_keyword(rd, out);
    case '\\': return edn_char(rd, out);
    case '#': return edn_dispatch(rd, base, out);
    case '+': case '-':
        return n >= '0' && n <= '9' ? edn_number(rd, out) : edn_symbol(rd, out);
    default:
        if (c >= '0' && c <= '9') return edn_number(rd, out);
        if (!is_delim(c) && c != '#' && c != '\'') return edn_symbol(rd, out);
        return iso_rd_unexpected(rd, "a form");
    }
}

/* A closing delimiter at pos: close the top frame into *out (1), or tell
 * the caller it closes one of its own (2). */
static int edn_close(iso_rd *rd, size_t base, iso_val *out)
{
    char c = rd->p[rd->pos];
    if (rd->n_frames == base) return 2;
    struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
    if (f->kind == E_DISCARD || f->kind == E_TAG)
        return iso_rd_fail(rd, "expected a form after '#%s', got '%c'",
                           f->kind == E_DISCARD ? "_" : "tag", c);
    if (c != closer_of[f->kind])
        return iso_rd_fail(rd, "expected '%c' to close the %s opened at %u:%u, got '%c'",
                           closer_of[f->kind], kind_name[f->kind], f->line, f->col, c);
    if (f->kind == E_MAP && ((rd->n_items - f->items) & 1))
        return iso_rd_fail_at(rd, f->line, f->col, "map literal must contain an even number of forms");
    rd->pos++;
    return iso_rd_close(rd, (enum iso_seq_kind)f->kind, 0, out) ? -1 : 1;
}

/* v is complete: apply pending prefixes, then add it to its collection.
 * Returns 1 when v is the finished form, 0 to read on. */
static int edn_complete(iso_rd *rd, size_t base, iso_val *v)
{
    while (rd->n_frames > base) {
        struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
        if (f->kind == E_DISCARD) {
            rd->n_frames--;
            return 0;
        }
        if (f->kind != E_TAG) {
            iso_rd_item(rd, *v);
            return 0;
        }
        rd->n_frames--;
        if (!iso_is_seq(*v))
            *v = iso_rd_atom(rd, ISO_TAG_FORM, rd->p + f->start, rd->pos - f->start);
    }
    return 1;
}

static int edn_unterminated(iso_rd *rd, size_t base)
{
    if (rd->n_frames == base) return 0;
    struct iso_rd_frame *f = &rd->frames[rd->n_frames - 1];
    rd->ran_out = 1;
    if (f->kind >= E_DISCARD)
        return iso_rd_fail(rd, "unexpected end of input, expected a form after '#%s'",
                           f->kind == E_DISCARD ? "_" : "tag");
    return iso_rd_fail_at(rd, f->line, f->col, "unterminated %s (no closing '%c')",
                          kind_name[f->kind], closer_of[f->kind]);
}

/* Inside a vector, a micro-op the fast path (mop.h) may read. */
static int mop_here(iso_rd *rd, size_t base, char c)
{
    return c == '[' && rd->n_frames > base && rd->frames[rd->n_frames - 1].kind == E_VEC &&
           rd->n_frames - base + 2 <= ISO_MAX_DEPTH;
}

int iso_edn_form(iso_rd *rd, iso_val *out)
{
    size_t base = rd->n_frames;
    for (;;) {
        iso_edn_skip(rd);
        if (iso_rd_eof(rd)) return edn_unterminated(rd, base);
        char c = rd->p[rd->pos];
        if (rd->n_frames == base) {
            rd->form_line = rd->line;
            rd->form_col = (size_t)iso_rd_col(rd);
        }
        iso_val v;
        int r = 0;
        if (!mop_here(rd, base, c) || !iso_mop_read(rd, &v, 0, 0)) {
            r = c == ')' || c == ']' || c == '}' ? edn_close(rd, base, &v) : edn_start(rd, base, &v);
            if (r < 0 || r == 2) return r;
            if (r == 1 && !(c == ')' || c == ']' || c == '}')) continue; /* opened */
        }
        if (edn_complete(rd, base, &v)) {
            *out = v;
            return 1;
        }
    }
}

/* ---- op maps ----------------------------------------------------------------- */

/* A field's value: keywords, plain integers and vectors of micro-ops
 * directly, any other form through the general parser. 0 when read. */
static int edn_field_value(iso_rd *rd, iso_val *v)
{
    char c = rd->p[rd->pos];
    if (c == ':') return edn_keyword(rd, v);
    if (c >= '0' && c <= '9' && edn_small_int(rd, v)) return 0;
    if (c == '[' && rd->pos + 1 < rd->len && rd->p[rd->pos + 1] == '[' && iso_mop_value(rd, v, 0)) return 0;
    return iso_edn_form(rd, v) == 1 ? 0 : -1;
}


/* The keyword key at the cursor, the place-th of its map: when its text and
 * the separator after it are those at this place in the previous map, its
 * atom without scanning or hashing; else read in full, remembered. */
static int edn_key_at(iso_rd *rd, size_t place, iso_val *k)
{
    size_t n;
    if (iso_rd_place_hit(rd, place, &n, k)) {
        rd->pos += n - 1; /* the separator stays */
        return 0;
    }
    const char *p = rd->p + rd->pos;
    if (edn_keyword(rd, k) != 0) return -1;
    if (rd->pos < rd->len && (rd->p[rd->pos] == ' ' || rd->p[rd->pos] == ','))
        iso_rd_place_keep(rd, place, p, (size_t)(rd->p + rd->pos - p) + 1, *k); /* with the separator */
    return 0;
}

/* At '{': an op map of keyword keys read field by field straight into the
 * op, with no map built. Returns 1 when the op was added, -1 when it breaks
 * the op rules, and 0 having consumed nothing when the map holds anything
 * else or a key twice (the general parser then reads it, and reports any
 * error exactly). */
static int edn_op_fields(iso_rd *rd, uint32_t line, uint32_t col)
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
        iso_edn_skip(rd);
        if (iso_rd_eof(rd)) return iso_rd_restore(rd, &m);
        if (rd->p[rd->pos] == '}') {
            rd->pos++;
            break;
        }
        if (rd->p[rd->pos] != ':' || edn_key_at(rd, place, &k) != 0) return iso_rd_restore(rd, &m);
        iso_edn_skip(rd);
        if (iso_rd_eof(rd) || edn_field_value(rd, &v) != 0) return iso_rd_restore(rd, &m);
        int f = iso_history_field(k);
        if (f >= 0) {
            fields[f] = v;
            have[f] = 1;
        } else if (!iso_rd_other_key_new(&keys, k)) {
            return iso_rd_restore(rd, &m);
        }
    }
    if (!iso_rd_keys_distinct(have, &keys, place)) return iso_rd_restore(rd, &m);
    if (iso_history_add_op_fields(rd->h, fields, have, line, col, rd->err) != 0) return -1;
    iso_rd_consumed(rd);
    return 1;
}

/* The top level: forms that are op maps, or vectors / lists of them. */
int iso_edn_lines(isolde_history *h, const char *buf, size_t len, size_t *lines, isolde_error *err)
{
    iso_rd rd;
    iso_rd_init(&rd, h, buf, len, err);
    char closer = 0; /* of the top-level sequence being read */
    int r;
    for (;;) {
        iso_edn_skip(&rd);
        if (iso_rd_eof(&rd)) {
            r = closer ? iso_rd_fail(&rd, "unexpected end of input, expected '%c'", closer) : 0;
            break;
        }
        char c = rd.p[rd.pos];
        if (!closer && (c == '[' || c == '(')) {
            closer = c == '[' ? ']' : ')';
            rd.pos++;
            continue;
        }
        if (closer && c == closer) {
            closer = 0;
            rd.pos++;
            continue;
        }
        if (c == '{' && (r = edn_op_fields(&rd, iso_rd_u32(rd.line), iso_rd_u32((size_t)iso_rd_col(&rd)))) != 0) {
            if (r < 0) break;
            continue;
        }
        iso_val v;
        r = iso_edn_form(&rd, &v);
        if (r == 2) r = iso_rd_unexpected(&rd, closer ? "an op map" : "an op map (unbalanced)");
        if (r == 0) continue; /* only discarded forms before the end */
        if (r < 0 || iso_rd_add_op(&rd, v, iso_rd_u32(rd.form_line), iso_rd_u32(rd.form_col)) != 0) {
            r = -1;
            break;
        }
    }
    *lines = rd.line - 1;
    iso_rd_release(&rd);
    return r;
}

int iso_edn_cut(const char *name, const char *buf, size_t len, isolde_error *err)
{
    iso_store s;
    iso_store_init(&s);
    iso_rd rd;
    iso_rd_init_store(&rd, &s, name, buf, len, err);
    iso_val v;
    int r;
    while ((r = iso_edn_form(&rd, &v)) == 1) continue;
    if (r == 2) r = iso_rd_unexpected(&rd, "a form");
    iso_rd_release(&rd);
    iso_store_free(&s);
    return r < 0 && rd.ran_out && err->code == ISOLDE_ERR_PARSE;
}

int iso_read_edn(isolde_history *h, const char *buf, size_t len, isolde_error *err)
{
    return iso_read_split(h, buf, len, ISO_SPLIT_MIN, iso_edn_lines, err);
}
