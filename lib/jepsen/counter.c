/*
 * jepsen/counter.c -- Jepsen's counter checker (jepsen.checker/counter): a
 * counter starts at 0 and :add ops raise it by their (non-negative)
 * value; every ok :read must lie between the sum of the adds acknowledged
 * when the read was invoked (lower) and the sum of the adds attempted and
 * not failed when it returned (upper). One pass in history order, linear.
 *
 * Invariant: lower counts ok adds up to the op at hand, upper every add
 * invoked so far whose completion is not a fail.
 */
#include "jepsen/jepsen.h"

struct counter {
    jp_result *r;
    uint32_t *partner;
    int64_t lower, upper;
    int64_t *pending;     /* per read invocation (position): lower when it was invoked */
    uint8_t *invoked_read; /* per position: a read's invocation */
    size_t reads, ops;
    iso_buf reads_json, errors_json;
};

static int amount(struct counter *c, const iso_op *op, int64_t *v, isolde_error *err)
{
    if (!jp_int(c->r->h, op->value, v)) return jp_bad_op(c->r, op, "an :add's value is not a 64-bit integer:", err);
    if (*v < 0) return jp_bad_op(c->r, op, "an :add of a negative amount (the counter only grows):", err);
    return 0;
}

static int add_op(struct counter *c, size_t i, isolde_error *err)
{
    const iso_op *op = &c->r->h->ops[i];
    int64_t v;
    if (op->type == ISO_OP_INVOKE) {
        uint32_t done = c->partner[i];
        if (done != ISO_NONE && c->r->h->ops[done].type == ISO_OP_FAIL) return 0;
        if (amount(c, op, &v, err)) return -1;
        if (__builtin_add_overflow(c->upper, v, &c->upper)) return jp_bad_op(c->r, op, "the sum overflows:", err);
    } else if (op->type == ISO_OP_OK) {
        if (amount(c, op, &v, err)) return -1;
        if (__builtin_add_overflow(c->lower, v, &c->lower)) return jp_bad_op(c->r, op, "the sum overflows:", err);
    }
    return 0;
}

static void triple(iso_buf *b, const jp_item *it)
{
    if (b->n > 1) iso_buf_puts(b, ",");
    iso_buf_printf(b, "[%lld,%lld,%lld]", (long long)it->a, (long long)it->b, (long long)it->c);
}

static int read_op(struct counter *c, size_t i, isolde_error *err)
{
    const iso_op *op = &c->r->h->ops[i];
    uint32_t other = c->partner[i];
    if (op->type == ISO_OP_INVOKE) {
        c->pending[i] = c->lower;
        c->invoked_read[i] = 1;
        return 0;
    }
    if (op->type != ISO_OP_OK || other == ISO_NONE || !c->invoked_read[other])
        return 0; /* Jepsen: no read invocation, no bounds */
    jp_item it = {(uint32_t)i, other, c->pending[other], 0, c->upper};
    if (!jp_int(c->r->h, op->value, &it.b)) return jp_bad_op(c->r, op, "a :read's value is not a 64-bit integer:", err);
    c->reads++;
    triple(&c->reads_json, &it);
    if (it.a <= it.b && it.b <= it.c) return 0;
    triple(&c->errors_json, &it);
    jp_add(c->r, 0, it);
    return 0;
}

static void render(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  the read ");
    jp_op_edn(r, it->op, out);
    iso_buf_puts(out, " (");
    jp_where(r, it->op, out);
    iso_buf_printf(out, ") returned %lld;\n  when it was invoked (", (long long)it->b);
    jp_where(r, it->op2, out);
    iso_buf_printf(out, ") the acknowledged adds summed to %lld, and when it returned the adds\n"
                        "  attempted and not failed summed to %lld: %lld is %s\n",
                   (long long)it->a, (long long)it->c, (long long)it->b,
                   it->b < it->a ? "below the lowest possible value" : "above the highest possible value");
}

static int scan(struct counter *c, isolde_error *err)
{
    const isolde_history *h = c->r->h;
    iso_name_atoms fadd, fread;
    iso_name_atoms_find(&h->store, "add", &fadd);
    iso_name_atoms_find(&h->store, "read", &fread);
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        int is_add = jp_f_is(h, op, &fadd), is_read = !is_add && jp_f_is(h, op, &fread);
        c->ops += is_add || is_read;
        if ((is_add && add_op(c, i, err)) || (is_read && read_op(c, i, err))) return -1;
    }
    return 0;
}

int iso_jepsen_counter(const isolde_history *h, const iso_checker_opts *co, isolde_result **out,
                       isolde_error *err)
{
    (void)co;
    struct counter c = {.r = jp_new("counter", h)};
    jp_section_init(c.r, 0, "out-of-bounds", render, NULL);
    c.partner = jp_pair(h, 0);
    c.pending = iso_xmalloc((h->n_ops ? h->n_ops : 1) * sizeof *c.pending);
    c.invoked_read = iso_xcalloc(h->n_ops ? h->n_ops : 1, 1);
    iso_buf_puts(&c.reads_json, "[");
    iso_buf_puts(&c.errors_json, "[");
    int rc = scan(&c, err);
    iso_free(c.partner);
    iso_free(c.pending);
    iso_free(c.invoked_read);
    if (!rc) {
        jp_result *r = c.r;
        r->validity = !c.ops ? ISOLDE_UNKNOWN : r->sec[0].n ? ISOLDE_INVALID : ISOLDE_VALID;
        iso_buf_printf(&r->summary, "%zu ok read%s, %zu outside its bounds; the acknowledged adds sum to %lld, "
                                    "the attempted ones to %lld\n", c.reads, c.reads == 1 ? "" : "s",
                       r->sec[0].n, (long long)c.lower, (long long)c.upper);
        if (!c.ops) iso_buf_puts(&r->summary, "unknown: no :add or :read op\n");
        iso_buf_printf(&r->json, "{\"valid?\":%s,\"model\":\"counter\",\"reads\":%s],\"errors\":%s]",
                       jp_json_validity(r->validity), iso_buf_cstr(&c.reads_json), iso_buf_cstr(&c.errors_json));
        if (!c.ops) iso_buf_puts(&r->json, ",\"error\":\"no :add or :read op\"");
        iso_buf_puts(&r->json, "}");
        *out = jp_finish(r);
    } else {
        jp_free(c.r);
    }
    iso_buf_free(&c.reads_json);
    iso_buf_free(&c.errors_json);
    return rc;
}
