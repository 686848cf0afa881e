/*
 * history/history.c -- a history as read: Elle's op-field rules (once, for
 * every map-producing reader), and printing ops as Elle does.
 *
 * A new history's store interns the op field names and type names first,
 * as keywords and as strings, so that recognising a field is a comparison
 * of atom ids (see FIELD_ATOMS) rather than of text.
 */
#include "history/history.h"
#include "core/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum field { F_TYPE, F_PROCESS, F_F, F_VALUE, F_ERROR, F_TIME, F_INDEX, F_KEY, N_FIELDS };
_Static_assert(N_FIELDS == ISO_OP_FIELDS, "history.h counts the op fields");
_Static_assert(sizeof(iso_op) == 40, "an op is 40 bytes (history.h)");
static const char *const field_names[N_FIELDS] = {"type", "process", "f", "value",
                                                  "error", "time", "index", "key"};
static const char *const type_names[] = {"invoke", "ok", "fail", "info"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
static const char *const mop_names[] = {"append", "r", "w"};
/* Atom ids 0 .. FIELD_ATOMS-1 are the field names (keyword, string);
 * the next 8 are the type names, likewise, and the next 6 the names of
 * the micro-ops a reader packs (core/value.h): the same ids in every
 * history, so that a packed micro-op keeps its name when merged. */
#define FIELD_ATOMS (2 * N_FIELDS)
#define TYPE_ATOMS 8
#define FIXED_ATOMS (FIELD_ATOMS + TYPE_ATOMS + 2 * COUNT(mop_names))
_Static_assert(FIXED_ATOMS <= (1u << ISO_MOP_NAME_BITS), "a packed micro-op can name the fixed atoms");


isolde_history *iso_history_new(const char *name, isolde_format format)
{
    isolde_history *h = iso_xcalloc(1, sizeof *h);
    h->name = iso_xstrdup(name ? name : "");
    h->format = format;
    h->read_threads = 1;
    iso_store_init(&h->store);
    iso_keys_init(&h->procs, &h->store);
    for (size_t i = 0; i < N_FIELDS; i++) {
        iso_atom(&h->store, ISO_TAG_KW, field_names[i], strlen(field_names[i]));
        iso_atom(&h->store, ISO_TAG_STR, field_names[i], strlen(field_names[i]));
    }
    for (size_t i = 0; i < COUNT(type_names); i++) {
        iso_atom(&h->store, ISO_TAG_KW, type_names[i], strlen(type_names[i]));
        iso_atom(&h->store, ISO_TAG_STR, type_names[i], strlen(type_names[i]));
    }
    for (size_t i = 0; i < COUNT(mop_names); i++) {
        iso_atom(&h->store, ISO_TAG_KW, mop_names[i], strlen(mop_names[i]));
        iso_atom(&h->store, ISO_TAG_STR, mop_names[i], strlen(mop_names[i]));
    }
    h->store.mop_names = FIXED_ATOMS;
    h->store.mop_words = ISO_MOP_VAL_MAX;
    return h;
}

void iso_history_clear(isolde_history *h)
{
    h->n_ops = h->n_extras = 0;
    iso_keys_free(&h->procs);
    iso_keys_init(&h->procs, &h->store);
    memset(h->warn, 0, sizeof h->warn);
    iso_store_truncate(&h->store, FIXED_ATOMS);
}

void isolde_history_free(isolde_history *h)
{
    if (!h) return;
    iso_store_free(&h->store);
    iso_keys_free(&h->procs);
    iso_free(h->ops);
    iso_free(h->extras);
    iso_free(h->name);
    iso_free(h);
}

size_t isolde_history_op_count(const isolde_history *h) { return h ? h->n_ops : 0; }
isolde_format isolde_history_format(const isolde_history *h) { return h->format; }

/* The extras id of (f, error): the recent ones repeat. */
static uint32_t extra_of(isolde_history *h, iso_val f, iso_val error)
{
    for (size_t i = 0; i < 4 && i < h->n_extras; i++)
        if (h->extras[h->n_extras - 1 - i].f == f && h->extras[h->n_extras - 1 - i].error == error)
            return (uint32_t)(h->n_extras - 1 - i);
    ISO_PUSH(h->extras, h->n_extras, h->cap_extras, ((iso_op_extra){f, error}));
    return (uint32_t)(h->n_extras - 1);
}

int iso_history_add_op(isolde_history *h, const iso_op *op, iso_val process, iso_val f, iso_val error,
                       isolde_error *err)
{
    if (h->n_ops >= ISO_MAX_OPS)
        return iso_fail(err, ISOLDE_ERR_LIMIT, h->name, op->line, op->col,
                        "more than %zu ops in one history", ISO_MAX_OPS);
    ISO_PUSH(h->ops, h->n_ops, h->cap_ops, *op);
    iso_op *o = &h->ops[h->n_ops - 1];
    o->extra = extra_of(h, f, error); /* at most one per op: it fits */
    o->process = iso_keys_intern(&h->procs, process);
    o->client = iso_is_integer(process);
    return 0;
}

uint32_t *iso_history_per_process(const isolde_history *h)
{
    uint32_t *t = iso_xmalloc((h->procs.n + 1) * sizeof *t);
    memset(t, 0xff, (h->procs.n + 1) * sizeof *t);
    return t;
}

/* The id of a pre-interned keyword/string atom, or -1. */
static long atom_id(iso_val v, long lo, long n)
{
    unsigned t = iso_tag(v);
    if (t != ISO_TAG_KW && t != ISO_TAG_STR) return -1;
    uint64_t id = iso_payload(v);
    return id >= (uint64_t)lo && id < (uint64_t)(lo + n) ? (long)(id - (uint64_t)lo) : -1;
}

/* Messages speak the input's syntax: :type and maps in EDN (and Jepsen's
 * text formats), "type" and objects in JSON. */
static int json_words(const isolde_history *h)
{
    return h->format == ISOLDE_FORMAT_JSON || h->format == ISOLDE_FORMAT_JSONL ||
           h->format == ISOLDE_FORMAT_ISOCHECK || h->format == ISOLDE_FORMAT_ONELITE;
}

static const char *fw(const isolde_history *h, enum field f)
{
    static const char *const words[2][N_FIELDS] = {
        {":type", ":process", ":f", ":value", ":error", ":time", ":index"},
        {"\"type\"", "\"process\"", "\"f\"", "\"value\"", "\"error\"", "\"time\"", "\"index\""}};
    return words[json_words(h)][f];
}

/* Between a field and its value in a message: ":index 5", "\"index\": 5". */
static const char *fsep(const isolde_history *h) { return json_words(h) ? ": " : " "; }

/* A short rendering of v for messages, in the input's syntax. */
static const char *describe(const isolde_history *h, iso_val v, char *buf, size_t size)
{
    return iso_val_words(&h->store, v, json_words(h), buf, size);
}

static int op_type(const isolde_history *h, const iso_val *fields, const uint8_t *have,
                   iso_op *op, isolde_error *err)
{
    char d[64];
    if (!have[F_TYPE])
        return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                        "%s missing (must be one of invoke, ok, fail, info)", fw(h, F_TYPE));
    long t = atom_id(fields[F_TYPE], FIELD_ATOMS, TYPE_ATOMS);
    if (t < 0)
        return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                        "%s must be one of invoke, ok, fail, info, got %s", fw(h, F_TYPE),
                        describe(h, fields[F_TYPE], d, sizeof d));
    op->type = (uint8_t)(t / 2);
    return 0;
}

/* An integer field (:time, :index) as 64 bits, exactly; a larger integer
 * is refused with the limit, anything else as not an integer. */
static int int64_field(const isolde_history *h, enum field f, iso_val v, const iso_op *op,
                       int64_t *out, isolde_error *err)
{
    char d[64];
    if (iso_val_int64(&h->store, v, out)) return 0;
    if (iso_is_integer(v))
        return iso_fail(err, ISOLDE_ERR_LIMIT, h->name, op->line, op->col,
                        "%s%s%s does not fit in 64 bits (from %lld to %lld)", fw(h, f), fsep(h),
                        describe(h, v, d, sizeof d), (long long)INT64_MIN, (long long)INT64_MAX);
    return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col, "%s must be an integer, got %s",
                    fw(h, f), describe(h, v, d, sizeof d));
}

/* Jepsen's dense rule: ops are numbered 0, 1, 2 ... in file order, and an
 * op that has an :index anyway must have its number. */
static int dense_index(isolde_history *h, const iso_val *fields, const uint8_t *have, iso_op *op,
                       isolde_error *err)
{
    char d[64];
    int given = have[F_INDEX] && !iso_is_nil(fields[F_INDEX]);
    op->index = (int64_t)(h->index_base == SIZE_MAX ? h->n_ops : h->index_base + h->n_ops);
    int64_t i;
    if (!given || (h->index_base != SIZE_MAX && iso_val_int64(&h->store, fields[F_INDEX], &i) && i == op->index))
        return 0;
    return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                    "%s%s%s where op %lld belongs: the first op had no %s, so ops are "
                    "numbered 0, 1, 2 ... in file order",
                    fw(h, F_INDEX), fsep(h), describe(h, fields[F_INDEX], d, sizeof d), (long long)op->index,
                    fw(h, F_INDEX));
}

/* Given indices: every op has one, each greater than the one before. */
static int given_index(isolde_history *h, const iso_val *fields, const uint8_t *have, iso_op *op,
                       isolde_error *err)
{
    char d[64];
    if (!have[F_INDEX] || !iso_is_integer(fields[F_INDEX]))
        return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                        "integer %s required (the first op had one)%s%s", fw(h, F_INDEX),
                        have[F_INDEX] ? ", got " : "",
                        have[F_INDEX] ? describe(h, fields[F_INDEX], d, sizeof d) : "");
    if (int64_field(h, F_INDEX, fields[F_INDEX], op, &op->index, err)) return -1;
    const iso_op *prev = h->n_ops ? &h->ops[h->n_ops - 1] : NULL;
    if (!prev && !h->has_before) return 0;
    int64_t before = prev ? prev->index : h->before_index;
    uint32_t line = prev ? prev->line : h->before_line;
    if (op->index > before) return 0;
    if (op->index == before)
        return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                        "duplicate %s%s%lld (the op at line %u has it too): each op needs its own",
                        fw(h, F_INDEX), fsep(h), (long long)op->index, line);
    return iso_fail(err, ISOLDE_ERR_PARSE, h->name, op->line, op->col,
                    "%s%s%lld after %s%s%lld (line %u): ops must be in increasing %s order",
                    fw(h, F_INDEX), fsep(h), (long long)op->index, fw(h, F_INDEX), fsep(h), (long long)before,
                    line, fw(h, F_INDEX));
}

static int op_numbers(isolde_history *h, const iso_val *fields, const uint8_t *have,
                      iso_op *op, isolde_error *err)
{
    iso_val t = fields[F_TIME];
    op->time = -1;
    if (have[F_TIME] && !iso_is_nil(t) && int64_field(h, F_TIME, t, op, &op->time, err)) return -1;
    iso_val i = fields[F_INDEX]; /* a given :index is an integer (1.5 is no index, nor a missing one) */
    if (have[F_INDEX] && !iso_is_nil(i) && !iso_is_integer(i) && int64_field(h, F_INDEX, i, op, &op->index, err))
        return -1;
    if (h->n_ops == 0 && !h->index_fixed) h->dense_index = !(have[F_INDEX] && iso_is_integer(fields[F_INDEX]));
    return h->dense_index ? dense_index(h, fields, have, op, err) : given_index(h, fields, have, op, err);
}

int iso_history_field(iso_val key)
{
    long f = atom_id(key, 0, FIELD_ATOMS);
    return f < 0 ? -1 : (int)(f / 2);
}

int iso_history_add_op_map(isolde_history *h, iso_val map, uint32_t line, uint32_t col,
                           isolde_error *err)
{
    char d[64];
    iso_store *s = &h->store;
    if (!iso_is_seq(map) || iso_seq_kind(s, map) != ISO_SEQ_MAP)
        return iso_fail(err, ISOLDE_ERR_PARSE, h->name, line, col, "op must be %s, got %s",
                        json_words(h) ? "an object" : "a map", describe(h, map, d, sizeof d));
    iso_val fields[ISO_OP_FIELDS] = {0};
    uint8_t have[ISO_OP_FIELDS] = {0};
    size_t n = iso_seq_len(s, map);
    const iso_val *it = iso_seq_words(s, map); /* a map: stored */
    for (size_t i = 0; i < n; i += 2) {
        int f = iso_history_field(it[i]);
        if (f < 0) continue;
        fields[f] = it[i + 1];
        have[f] = 1;
    }
    return iso_history_add_op_fields(h, fields, have, line, col, err);
}

/* Porcupine's kv ops carry their key beside the value ({:f :get, :key
 * "0", :value nil}); such an op's value is read as [key value], the form
 * of Knossos's independent keys. Other ops keep their value. */
static iso_val keyed_value(isolde_history *h, const iso_val *fields, const uint8_t *have, iso_val v)
{
    if (!have[F_KEY] || !have[F_F]) return v;
    iso_val f = fields[F_F];
    if (!iso_name_is(&h->store, f, "get") && !iso_name_is(&h->store, f, "put") &&
        !iso_name_is(&h->store, f, "append"))
        return v;
    iso_val kv[2] = {fields[F_KEY], v};
    return iso_seq(&h->store, ISO_SEQ_VEC, kv, 2);
}

int iso_history_add_op_fields(isolde_history *h, const iso_val *fields, const uint8_t *have,
                              uint32_t line, uint32_t col, isolde_error *err)
{
    iso_op op = {.line = line, .col = col};
    if (op_type(h, fields, have, &op, err) != 0 || op_numbers(h, fields, have, &op, err) != 0)
        return -1;
    op.value = keyed_value(h, fields, have, have[F_VALUE] ? fields[F_VALUE] : ISO_NIL);
    return iso_history_add_op(h, &op, have[F_PROCESS] ? fields[F_PROCESS] : ISO_NIL,
                              have[F_F] ? fields[F_F] : ISO_NIL, have[F_ERROR] ? fields[F_ERROR] : ISO_NIL, err);
}

/* ---- warnings ------------------------------------------------------- */

/* ---- warnings ------------------------------------------------------- */

void iso_history_warn(isolde_history *h, enum iso_warn_kind kind, uint32_t line, uint32_t col,
                      const char *what)
{
    iso_warn *w = &h->warn[kind];
    if (!w->count++) {
        w->line = line;
        w->col = col;
        snprintf(w->what, sizeof w->what, "%s", what);
    }
}

/* The first client completion whose process had no invocation open (Elle
 * checks it as a transaction of its own), and how many there are. */
static size_t unpaired_completions(const isolde_history *h, size_t *first)
{
    uint8_t *open = iso_xcalloc(h->procs.n + 1, 1);
    size_t n = 0;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (!iso_op_is_client(op)) continue;
        if (op->type != ISO_OP_INVOKE && !open[op->process] && !n++) *first = i;
        open[op->process] = op->type == ISO_OP_INVOKE;
    }
    iso_free(open);
    return n;
}

static void warning(const isolde_history *h, isolde_error *out, uint32_t line, uint32_t col,
                    const char *fmt, const char *what, size_t count)
{
    char more[64] = "";
    if (count > 1) snprintf(more, sizeof more, " (%zu in all)", count);
    memset(out, 0, sizeof *out);
    snprintf(out->file, sizeof out->file, "%s", h->name);
    out->line = line;
    out->col = col;
    int n = snprintf(out->msg, sizeof out->msg, fmt, what);
    if (n >= 0 && (size_t)n < sizeof out->msg) snprintf(out->msg + n, sizeof out->msg - (size_t)n, "%s", more);
}

struct warn_call {
    const isolde_history *h;
    isolde_error *out;
    size_t max, *n;
};

static int list_warnings(void *arg, isolde_error *err)
{
    struct warn_call *c = arg;
    const isolde_history *h = c->h;
    size_t n = 0, first = 0, unpaired = unpaired_completions(h, &first);
    const iso_warn *cut = &h->warn[ISO_WARN_CUT_LINE];
    char words[sizeof cut->what + 256];
    snprintf(words, sizeof words, "line %u, the last, is cut short (it has no newline and does not parse: %s), "
             "as a writer killed while writing it leaves it: left out, the lines before it are checked "
             "(isolde repair removes it)", cut->line, cut->what);
    if (cut->count && n < c->max) warning(h, &c->out[n], cut->line, cut->col, "%s", words, 1);
    n += cut->count > 0;
    if (unpaired && n < c->max) {
        const iso_op *op = &h->ops[first];
        iso_buf p = {0};
        iso_val_edn(&h->store, iso_op_process(h, op), &p);
        warning(h, &c->out[n], op->line, op->col,
                "process %s completes an op it did not invoke: it is checked as a transaction of its own",
                iso_buf_cstr(&p), unpaired);
        iso_buf_free(&p);
    }
    n += unpaired > 0;
    *c->n = n;
    (void)err;
    return 0;
}

isolde_status isolde_history_warnings(const isolde_history *h, isolde_error *out, size_t max, size_t *n,
                                      isolde_error *err)
{
    struct warn_call c = {h, out, max, n};
    *n = 0;
    return iso_call(list_warnings, &c, err);
}

/* ---- nothing to check ------------------------------------------------ */

static void no_op_why(const isolde_history *h, iso_buf *why)
{
    const char *f = isolde_format_name(h->format);
    if (!h->n_lines) {
        iso_buf_puts(why, "the input is empty");
        return;
    }
    iso_buf_printf(why, "%zu line%s read as %s, and none is an op: ", h->n_lines, h->n_lines == 1 ? "" : "s", f);
    if (h->format == ISOLDE_FORMAT_JEPSEN_LOG)
        iso_buf_puts(why, "a jepsen.log op line has 'jepsen.util - PROCESS TYPE F VALUE'");
    else if (h->format == ISOLDE_FORMAT_JSON || h->format == ISOLDE_FORMAT_ISOCHECK)
        iso_buf_puts(why, "it holds an empty array, or blank or comment lines only");
    else
        iso_buf_puts(why, "every line is blank or a comment");
    if (h->looks_like != ISOLDE_FORMAT_AUTO && h->looks_like != h->format)
        iso_buf_printf(why, "; it looks like %s (leave -f out, or give -f %s)", isolde_format_name(h->looks_like),
                       isolde_format_name(h->looks_like));
}

int iso_history_no_client_op(const isolde_history *h, iso_buf *why)
{
    for (size_t i = 0; i < h->n_ops; i++)
        if (iso_op_is_client(&h->ops[i])) return 0;
    if (h->name[0]) iso_buf_printf(why, "%s: ", h->name);
    if (!h->n_ops) {
        no_op_why(h, why);
        return 1;
    }
    const iso_op *op = &h->ops[0];
    char d[64];
    iso_buf_printf(why, "%zu op%s in %zu line%s, and none is a client op (one whose %s is an integer): "
                        "the first, at %u:%u, ", h->n_ops, h->n_ops == 1 ? "" : "s", h->n_lines,
                   h->n_lines == 1 ? "" : "s", fw(h, F_PROCESS), op->line, op->col);
    iso_val p = iso_op_process(h, op);
    if (iso_is_nil(p)) iso_buf_printf(why, "has no %s", fw(h, F_PROCESS));
    else iso_buf_printf(why, "has %s%s%s", fw(h, F_PROCESS), fsep(h), describe(h, p, d, sizeof d));
    return 1;
}

/* ---- names ---------------------------------------------------------- */

const char *iso_op_type_name(int type)
{
    return type >= 0 && (size_t)type < COUNT(type_names) ? type_names[type] : "?";
}

/* ---- printing ------------------------------------------------------- */

/* EDN of a string as elle-cli reads a JSON :f or micro-op name: a keyword. */
static void print_name(const iso_store *s, iso_val v, iso_buf *out)
{
    size_t n;
    const char *p = iso_tag(v) == ISO_TAG_STR ? iso_atom_text(s, v, &n) : NULL;
    int plain = p && n;
    for (size_t i = 0; plain && i < n; i++)
        plain = p[i] > ' ' && !strchr("()[]{}\",;:#'`~@^", p[i]);
    if (!plain) {
        iso_val_edn(s, v, out);
        return;
    }
    iso_buf_put(out, ":", 1);
    iso_buf_put(out, p, n);
}

/* A transaction as EDN, micro-op names as keywords: elle-cli turns
 * ["append" "x" 1] from JSON into [:append "x" 1], and so do our reports. */
static void print_value_edn(const iso_store *s, iso_val v, iso_buf *out)
{
    int txn = iso_is_seq(v) && iso_seq_kind(s, v) <= ISO_SEQ_LIST;
    size_t n = txn ? iso_seq_len(s, v) : 0;
    iso_val buf[3], xb[3];
    const iso_val *m = txn ? iso_seq_items(s, v, buf) : NULL;
    for (size_t i = 0; txn && i < n; i++)
        txn = iso_is_seq(m[i]) && iso_seq_kind(s, m[i]) == ISO_SEQ_VEC && iso_seq_len(s, m[i]);
    if (!txn || !n) {
        iso_val_edn(s, v, out);
        return;
    }
    iso_buf_puts(out, iso_seq_kind(s, v) == ISO_SEQ_VEC ? "[" : "(");
    for (size_t i = 0; i < n; i++) {
        size_t k = iso_seq_len(s, m[i]);
        const iso_val *x = iso_seq_items(s, m[i], xb);
        iso_buf_puts(out, i ? " [" : "[");
        print_name(s, x[0], out);
        for (size_t j = 1; j < k; j++) {
            iso_buf_put(out, " ", 1);
            iso_val_edn(s, x[j], out);
        }
        iso_buf_puts(out, "]");
    }
    iso_buf_puts(out, iso_seq_kind(s, v) == ISO_SEQ_VEC ? "]" : ")");
}

static void print_op(const isolde_history *h, const iso_op *op, iso_buf *out, int json)
{
    void (*val)(const iso_store *, iso_val, iso_buf *) = json ? iso_val_json : iso_val_edn;
    const char *sep = json ? ",\"" : ", :", *eq = json ? "\":" : " ";
    iso_buf_puts(out, json ? "{\"index\":" : "{:index ");
    iso_buf_int(out, op->index);
    if (op->time != -1) { /* -1: the input had no :time */
        iso_buf_puts(out, json ? ",\"time\":" : ", :time ");
        iso_buf_int(out, op->time);
    }
    iso_buf_puts(out, json ? ",\"type\":\"" : ", :type :");
    iso_buf_puts(out, iso_op_type_name(op->type));
    if (json) iso_buf_puts(out, "\"");
    static const char *const names[] = {"process", "f", "value", "error"};
    const iso_val vals[] = {iso_op_process(h, op), iso_op_f(h, op), op->value, iso_op_error(h, op)};
    for (size_t i = 0; i < COUNT(names); i++) {
        if ((i == 1 || i == 3) && iso_is_nil(vals[i])) continue; /* no :f, no :error */
        iso_buf_puts(out, sep);
        iso_buf_puts(out, names[i]);
        iso_buf_puts(out, eq);
        if (json) val(&h->store, vals[i], out);
        else if (i == 1) print_name(&h->store, vals[i], out);
        else if (i == 2) print_value_edn(&h->store, vals[i], out);
        else val(&h->store, vals[i], out);
    }
    iso_buf_puts(out, "}");
}

void iso_op_edn(const isolde_history *h, const iso_op *op, iso_buf *out) { print_op(h, op, out, 0); }
void iso_op_json(const isolde_history *h, const iso_op *op, iso_buf *out) { print_op(h, op, out, 1); }
