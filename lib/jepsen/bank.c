/*
 * jepsen/bank.c -- Jepsen's bank checker (jepsen.tests.bank, as elle-cli's
 * copy runs it): every ok :read is a map {account balance}; each is
 * checked in turn for an account the first read did not have
 * (unexpected-key), a nil balance (nil-balance), a sum other than the
 * total (wrong-total) and, unless negative balances are allowed, a
 * negative balance (negative-value): the first of these that holds is the
 * read's error. One pass, linear.
 *
 * The accounts and the total: the opening balances of an ok :setup op
 * (isolde run records the ones it sets up; Jepsen's test knows them up
 * front), else the first ok read's (elle-cli's rule); --total wins.
 *
 * Invariant: the accounts are in r->set before the first read is checked.
 */
#include "jepsen/jepsen.h"

#include <string.h>

enum { UNEXPECTED, NILS, WRONG, NEGATIVE };
static const char *const type_names[] = {"unexpected-key", "nil-balance", "wrong-total", "negative-value"};

/* Where the total comes from (r->ctx[1]). */
enum { FROM_FIRST_READ, FROM_OPTION, FROM_SETUP };

struct bank {
    jp_result *r;
    int64_t total;
    int from, allow_negative;
    uint32_t opening;  /* the setup op, ISO_NONE */
    size_t reads, errors;
    int64_t worst_badness[4]; /* per type: the worst item's badness (scaled), its position */
    size_t worst[4];
};

static const iso_val *read_map(const isolde_history *h, const iso_op *op, size_t *n)
{
    if (!iso_is_seq(op->value) || iso_seq_kind(&h->store, op->value) != ISO_SEQ_MAP) return NULL;
    *n = iso_seq_len(&h->store, op->value) / 2;
    return iso_seq_words(&h->store, op->value); /* a map: stored */
}

/* The read's error type and numbers, or -1 when it has none. */
static int check_read(struct bank *b, const iso_op *op, jp_item *it, isolde_error *err)
{
    const isolde_history *h = b->r->h;
    size_t n = 0;
    const iso_val *kv = read_map(h, op, &n);
    if (!kv) return jp_bad_op(b->r, op, "a read's value is not a map of balances:", err), -2;
    int64_t unexpected = 0, nils = 0, sum = 0, neg = 0, negsum = 0, v;
    int overflow = 0;
    for (size_t i = 0; i < n; i++) {
        unexpected += iso_keys_find(b->r->set, kv[2 * i]) == ISO_NONE;
        if (iso_is_nil(kv[2 * i + 1])) { nils++; continue; }
        if (!jp_int(h, kv[2 * i + 1], &v)) return jp_bad_op(b->r, op, "a balance is not a 64-bit integer:", err), -2;
        overflow |= __builtin_add_overflow(sum, v, &sum);
        if (v < 0) {
            neg++;
            overflow |= __builtin_add_overflow(negsum, v, &negsum);
        }
    }
    if (overflow) return jp_bad_op(b->r, op, "the balances' sum overflows 64 bits:", err), -2;
    if (unexpected) { it->a = unexpected; return UNEXPECTED; }
    if (nils) { it->a = nils; return NILS; }
    it->a = sum;
    if (sum != b->total) return WRONG;
    if (neg && !b->allow_negative) { it->a = negsum; it->b = neg; return NEGATIVE; }
    return -1;
}

/* The accounts: op's keys; and the total, their sum, unless given. */
static void accounts_of(struct bank *b, const iso_op *op)
{
    const isolde_history *h = b->r->h;
    size_t n = 0;
    const iso_val *kv = read_map(h, op, &n);
    int64_t v, sum = 0;
    for (size_t i = 0; kv && i < n; i++) {
        iso_keys_intern(b->r->set, kv[2 * i]);
        if (jp_int(h, kv[2 * i + 1], &v)) (void)__builtin_add_overflow(sum, v, &sum); /* checked before */
    }
    if (b->from != FROM_OPTION) b->total = sum;
}

/* The first ok :setup op: the opening balances, a map of integers with a
 * sum (0, or -1 with err for one that is not). */
static int find_opening(struct bank *b, isolde_error *err)
{
    const isolde_history *h = b->r->h;
    iso_name_atoms fsetup;
    iso_name_atoms_find(&h->store, "setup", &fsetup);
    for (size_t i = 0; i < h->n_ops && b->opening == ISO_NONE; i++)
        if (h->ops[i].type == ISO_OP_OK && jp_f_is(h, &h->ops[i], &fsetup)) b->opening = (uint32_t)i;
    if (b->opening == ISO_NONE) return 0;
    const iso_op *op = &h->ops[b->opening];
    size_t n;
    if (!read_map(h, op, &n)) return jp_bad_op(b->r, op, "the opening balances are not a map:", err);
    if (b->from != FROM_OPTION) b->from = FROM_SETUP;
    accounts_of(b, op);
    jp_item it = {b->opening, ISO_NONE, 0, 0, 0};
    int t = check_read(b, op, &it, err); /* a read's rules: integers, a sum in 64 bits */
    return t == NILS ? jp_bad_op(b->r, op, "an opening balance is nil:", err) : t == -2 ? -1 : 0;
}

/* Jepsen's err-badness, comparable within a type (wrong-total: distance
 * from the total). */
static int64_t badness(const struct bank *b, int type, const jp_item *it)
{
    if (type == WRONG) {
        int64_t d;
        if (b->total <= 0) return 0;
        return __builtin_sub_overflow(it->a, b->total, &d) ? INT64_MAX : d < 0 ? (d == INT64_MIN ? INT64_MAX : -d) : d;
    }
    return type != NEGATIVE ? it->a : it->a == INT64_MIN ? INT64_MAX : -it->a;
}

static void note(struct bank *b, int type, jp_item it)
{
    jp_section *s = &b->r->sec[type];
    int64_t bad = badness(b, type, &it);
    if (!s->n || bad > b->worst_badness[type]) {
        b->worst_badness[type] = bad;
        b->worst[type] = s->n;
    }
    jp_add(b->r, (size_t)type, it);
    b->errors++;
}

/* The error's map, as Jepsen's check-op builds it. */
static void error_json(const jp_result *r, int type, const jp_item *it, iso_buf *j)
{
    const isolde_history *h = r->h;
    const iso_op *op = &h->ops[it->op];
    size_t n = 0;
    const iso_val *kv = read_map(h, op, &n);
    iso_buf_printf(j, "{\"type\":\"%s\",", type_names[type]);
    if (type == WRONG) iso_buf_printf(j, "\"total\":%lld,", (long long)it->a);
    else {
        iso_buf_puts(j, type == UNEXPECTED ? "\"unexpected\":[" : type == NILS ? "\"nils\":{" : "\"negative\":[");
        int any = 0;
        for (size_t i = 0; i < n; i++) {
            iso_val k = kv[2 * i], v = kv[2 * i + 1];
            int64_t x = 0;
            int in = type == UNEXPECTED ? iso_keys_find(r->set, k) == ISO_NONE
                   : type == NILS       ? iso_is_nil(v)
                                        : jp_int(h, v, &x) && x < 0;
            if (!in) continue;
            if (any++) iso_buf_puts(j, ",");
            if (type == NILS) {
                jp_json_key(&h->store, k, j);
                iso_buf_puts(j, ":null");
            } else {
                iso_val_json(&h->store, type == NEGATIVE ? v : k, j);
            }
        }
        iso_buf_puts(j, type == NILS ? "}," : "],");
    }
    iso_buf_puts(j, "\"op\":");
    jp_op_json(r, it->op, j);
    iso_buf_puts(j, "}");
}

/* Each type's errors as findings: their maps. */
static void json_unexpected(const jp_result *r, const jp_item *it, iso_buf *j) { error_json(r, UNEXPECTED, it, j); }
static void json_nils(const jp_result *r, const jp_item *it, iso_buf *j) { error_json(r, NILS, it, j); }
static void json_wrong(const jp_result *r, const jp_item *it, iso_buf *j) { error_json(r, WRONG, it, j); }
static void json_negative(const jp_result *r, const jp_item *it, iso_buf *j) { error_json(r, NEGATIVE, it, j); }

static void type_json(const struct bank *b, int type, iso_buf *j)
{
    const jp_section *s = &b->r->sec[type];
    iso_buf_printf(j, "\"%s\":{\"count\":%zu,\"first\":", type_names[type], s->n);
    error_json(b->r, type, &s->items[0], j);
    iso_buf_puts(j, ",\"worst\":");
    error_json(b->r, type, &s->items[b->worst[type]], j);
    iso_buf_puts(j, ",\"last\":");
    error_json(b->r, type, &s->items[s->n - 1], j);
    if (type == WRONG) {
        size_t lo = 0, hi = 0;
        for (size_t i = 1; i < s->n; i++) {
            if (s->items[i].a < s->items[lo].a) lo = i;
            if (s->items[i].a > s->items[hi].a) hi = i;
        }
        iso_buf_puts(j, ",\"lowest\":");
        error_json(b->r, type, &s->items[lo], j);
        iso_buf_puts(j, ",\"highest\":");
        error_json(b->r, type, &s->items[hi], j);
    }
    iso_buf_puts(j, "}");
}

static void bank_json(const struct bank *b)
{
    jp_result *r = b->r;
    iso_buf *j = &r->json;
    iso_buf_printf(j, "{\"valid?\":%s,\"model\":\"bank\",\"read-count\":%zu,\"error-count\":%zu,"
                      "\"total\":%lld", jp_json_validity(r->validity), b->reads, b->errors, (long long)b->total);
    if (!b->reads) iso_buf_puts(j, ",\"error\":\"no ok read of the balances\"");
    int first = -1;
    for (int t = 0; t < 4; t++)
        if (r->sec[t].n && (first < 0 || r->sec[t].items[0].op < r->sec[first].items[0].op)) first = t;
    if (first >= 0) {
        iso_buf_puts(j, ",\"first-error\":");
        error_json(b->r, first, &r->sec[first].items[0], j);
    }
    iso_buf_puts(j, ",\"errors\":{");
    for (int t = 0, any = 0; t < 4; t++)
        if (r->sec[t].n) {
            if (any++) iso_buf_puts(j, ",");
            type_json(b, t, j);
        }
    iso_buf_puts(j, "}}");
}

/* ---- proofs ---- */

/* Where the total came from: "--total", "the opening balances, line 2", "the first read's sum". */
static void total_source(const jp_result *r, iso_buf *out)
{
    if (r->ctx[1] == FROM_OPTION) iso_buf_puts(out, "--total");
    else if (r->ctx[1] == FROM_FIRST_READ) iso_buf_puts(out, "the first read's sum");
    else {
        iso_buf_puts(out, "the opening balances, ");
        jp_where(r, (uint32_t)r->ctx[2], out);
    }
}

static void proof_head(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  the read ");
    jp_op_edn(r, it->op, out);
    iso_buf_puts(out, " (");
    jp_where(r, it->op, out);
    iso_buf_puts(out, ")\n");
}

static void render_unexpected(const jp_result *r, const jp_item *it, iso_buf *out)
{
    proof_head(r, it, out);
    iso_buf_printf(out, "  has %lld account%s the first read had not\n", (long long)it->a, it->a == 1 ? "" : "s");
}

static void render_nils(const jp_result *r, const jp_item *it, iso_buf *out)
{
    proof_head(r, it, out);
    iso_buf_printf(out, "  has %lld nil balance%s\n", (long long)it->a, it->a == 1 ? "" : "s");
}

static void render_wrong(const jp_result *r, const jp_item *it, iso_buf *out)
{
    int64_t d;
    proof_head(r, it, out);
    iso_buf_printf(out, "  sums to %lld, but the total is %lld (", (long long)it->a, (long long)r->ctx[0]);
    total_source(r, out);
    iso_buf_puts(out, ")");
    if (!__builtin_sub_overflow(it->a, r->ctx[0], &d)) iso_buf_printf(out, ": %+lld", (long long)d);
    iso_buf_puts(out, "\n");
}

static void render_negative(const jp_result *r, const jp_item *it, iso_buf *out)
{
    proof_head(r, it, out);
    iso_buf_printf(out, "  has %lld negative balance%s, summing to %lld\n", (long long)it->b,
                   it->b == 1 ? "" : "s", (long long)it->a);
}

static const jp_render renders[] = {render_unexpected, render_nils, render_wrong, render_negative};
static const jp_render jsons[] = {json_unexpected, json_nils, json_wrong, json_negative};

int iso_jepsen_bank(const isolde_history *h, const iso_checker_opts *co, isolde_result **out, isolde_error *err)
{
    int given = co->total != ISO_NO_TOTAL;
    struct bank b = {jp_new("bank", h), given ? co->total : 0, given ? FROM_OPTION : FROM_FIRST_READ,
                     co->allow_negative_balances, ISO_NONE, 0, 0, {0}, {0}};
    b.r->set = iso_xmalloc(sizeof *b.r->set);
    iso_keys_init(b.r->set, &h->store);
    for (int t = 0; t < 4; t++) jp_section_init(b.r, (size_t)t, type_names[t], renders[t], jsons[t]);
    iso_name_atoms fread;
    iso_name_atoms_find(&h->store, "read", &fread);
    if (find_opening(&b, err)) return jp_free(b.r), -1;
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (op->type != ISO_OP_OK || !jp_f_is(h, op, &fread)) continue;
        if (!b.reads++ && b.opening == ISO_NONE) accounts_of(&b, op);
        jp_item it = {(uint32_t)i, ISO_NONE, 0, 0, 0};
        int t = check_read(&b, op, &it, err);
        if (t == -2) return jp_free(b.r), -1;
        if (t >= 0) note(&b, t, it);
    }
    b.r->ctx[0] = b.total;
    b.r->ctx[1] = b.from;
    b.r->ctx[2] = b.opening;
    b.r->validity = !b.reads ? ISOLDE_UNKNOWN : b.errors ? ISOLDE_INVALID : ISOLDE_VALID;
    iso_buf_printf(&b.r->summary, "%zu ok read%s of the balances, %zu with an error; total %lld (", b.reads,
                   b.reads == 1 ? "" : "s", b.errors, (long long)b.total);
    total_source(b.r, &b.r->summary);
    iso_buf_puts(&b.r->summary, ")\n");
    if (!b.reads) iso_buf_puts(&b.r->summary, "unknown: no ok :read of the balances\n");
    bank_json(&b);
    *out = jp_finish(b.r);
    return 0;
}
