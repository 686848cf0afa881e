/*
 * jepsen/result.c -- the result kind of Jepsen's checkers: the verdict,
 * the model, a summary and Jepsen's map (built by the checker), and the
 * findings by type, each rendered as a proof only when a report shows it
 * (the text report at most max_examples per type), with its JSON (the
 * section's, else {"type","op","op2"}). What every checker here
 * shares besides: ops printed and located, pairing by process, the error
 * of an op that breaks a workload's rules.
 *
 * Invariant: the payload holds op positions and numbers; the history is
 * borrowed and outlives the result.
 */
#include "jepsen/jepsen.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

jp_result *jp_new(const char *model, const isolde_history *h)
{
    jp_result *r = iso_xcalloc(1, sizeof *r);
    r->model = model;
    r->h = h;
    return r;
}

void jp_section_init(jp_result *r, size_t i, const char *type, jp_render render, jp_render json)
{
    r->sec[i].type = type;
    r->sec[i].render = render;
    r->sec[i].json = json;
    if (i >= r->n_sec) r->n_sec = i + 1;
}

void jp_add(jp_result *r, size_t sec, jp_item it)
{
    jp_section *s = &r->sec[sec];
    ISO_PUSH(s->items, s->n, s->cap, it);
}

void jp_free(void *payload)
{
    jp_result *r = payload;
    if (!r) return;
    iso_buf_free(&r->summary);
    iso_buf_free(&r->json);
    for (size_t i = 0; i < r->n_sec; i++) iso_free(r->sec[i].items);
    if (r->set) iso_keys_free(r->set);
    iso_free(r->set);
    iso_free(r);
}

const char *jp_json_validity(isolde_validity v)
{
    return v == ISOLDE_UNKNOWN ? "\"unknown\"" : iso_report_validity(v);
}

void jp_json_key(const iso_store *s, iso_val v, iso_buf *out)
{
    iso_buf t = {0};
    iso_val_json(s, v, &t);
    if (t.n && t.p[0] == '"') iso_buf_put(out, t.p, t.n);
    else iso_json_string(out, t.p ? t.p : "", t.n);
    iso_buf_free(&t);
}

void jp_op_edn(const jp_result *r, uint32_t op, iso_buf *out) { iso_op_edn(r->h, &r->h->ops[op], out); }
void jp_op_json(const jp_result *r, uint32_t op, iso_buf *out) { iso_op_json(r->h, &r->h->ops[op], out); }

void jp_where(const jp_result *r, uint32_t op, iso_buf *out)
{
    const iso_op *o = &r->h->ops[op];
    if (o->line) iso_buf_printf(out, "line %u", o->line);
    else iso_buf_printf(out, "index %lld", (long long)o->index);
}

/* The element a duplicate item is about: the read's item at its place. */
static iso_val dup_elem(const jp_result *r, const jp_item *it)
{
    return iso_seq_item(&r->h->store, r->h->ops[it->op].value, (size_t)it->b);
}

void jp_render_dup(const jp_result *r, const jp_item *it, iso_buf *out)
{
    iso_buf_puts(out, "  the read ");
    jp_op_edn(r, it->op, out);
    iso_buf_puts(out, " (");
    jp_where(r, it->op, out);
    iso_buf_puts(out, ")\n  holds element ");
    iso_val_edn(&r->h->store, dup_elem(r, it), out);
    iso_buf_printf(out, " %lld times\n", (long long)it->a);
}

void jp_dups_json(const jp_result *r, const jp_section *dups, iso_buf *j)
{
    iso_buf_puts(j, ",\"duplicated\":{");
    for (size_t i = 0; i < dups->n; i++) {
        if (i) iso_buf_puts(j, ",");
        jp_json_key(&r->h->store, dup_elem(r, &dups->items[i]), j);
        iso_buf_printf(j, ":%lld", (long long)dups->items[i].a);
    }
    iso_buf_printf(j, "},\"duplicated-count\":%zu", dups->n);
}

/* The text report into b, at most max proofs per type. */
static void text_of(const isolde_result *res, size_t max, iso_buf *b)
{
    const jp_result *r = res->payload;
    iso_buf_printf(b, "valid?: %s\nmodel: %s\n", iso_report_validity(r->validity), r->model);
    if (res->n_types) {
        iso_buf_puts(b, "errors:");
        for (size_t i = 0; i < res->n_types; i++)
            iso_buf_printf(b, "%s %s (%zu)", i ? "," : "", res->types[i], res->type_counts[i]);
        iso_buf_puts(b, "\n");
    }
    if (r->summary.n) iso_buf_put(b, r->summary.p, r->summary.n);
    for (size_t s = 0; s < r->n_sec; s++)
        for (size_t i = 0; i < r->sec[s].n && i < max; i++) {
            iso_buf_printf(b, "\n%s #%zu\n", r->sec[s].type, i);
            r->sec[s].render(r, &r->sec[s].items[i], b);
        }
}

static int put(FILE *out, const iso_buf *b) { return fwrite(b->p, 1, b->n, out) == b->n && !ferror(out) ? 0 : -1; }

static int jp_text(const isolde_result *res, FILE *out, const isolde_report_opts *o)
{
    iso_buf b = {0};
    text_of(res, o ? (size_t)o->max_examples : 3, &b);
    int rc = put(out, &b);
    iso_buf_free(&b);
    return rc;
}

static int jp_json(const isolde_result *res, FILE *out, int shown)
{
    const jp_result *r = res->payload;
    (void)shown;
    if (r->json.n) fwrite(r->json.p, 1, r->json.n, out);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

/* DIR/<model>.txt: the text report with every proof. */
static int write_all(FILE *out, void *res)
{
    iso_buf b = {0};
    text_of(res, SIZE_MAX, &b);
    int rc = put(out, &b);
    iso_buf_free(&b);
    return rc;
}

static int jp_files(const isolde_result *res, const char *dir, isolde_error *err)
{
    const jp_result *r = res->payload;
    char name[64];
    snprintf(name, sizeof name, "%s.txt", r->model);
    return iso_report_write_file(dir, name, write_all, (void *)res, err);
}

/* The page's text: the verdict and the text report with every proof
 * (Jepsen's checkers have no picture or timeline of their own yet). */
static void jp_page(const isolde_result *res, iso_html *h)
{
    iso_buf b = {0};
    text_of(res, SIZE_MAX, &b);
    iso_html_string(h, "text", iso_buf_cstr(&b));
    iso_buf_free(&b);
}

/* A finding's JSON when its section has none of its own. */
static void item_json(const jp_result *r, const jp_section *sec, const jp_item *it, iso_buf *out)
{
    iso_buf_printf(out, "{\"type\":\"%s\",\"op\":", sec->type);
    jp_op_json(r, it->op, out);
    if (it->op2 != ISO_NONE) {
        iso_buf_puts(out, ",\"op2\":");
        jp_op_json(r, it->op2, out);
    }
    iso_buf_puts(out, "}");
}

/* Findings first .. first + n of type k: the k-th section with any. */
static size_t jp_each(const isolde_result *res, size_t k, size_t first, size_t n, iso_show_fn show, void *arg)
{
    const jp_result *r = res->payload;
    size_t s = 0;
    for (size_t seen = 0; s < r->n_sec && (!r->sec[s].n || seen++ < k); s++) {}
    const jp_section *sec = &r->sec[s];
    iso_buf text = {0}, json = {0};
    size_t i = 0;
    for (; i < n && first + i < sec->n; i++) {
        text.n = json.n = 0;
        sec->render(r, &sec->items[first + i], &text);
        if (sec->json) sec->json(r, &sec->items[first + i], &json);
        else item_json(r, sec, &sec->items[first + i], &json);
        show(arg, i, iso_buf_cstr(&text), iso_buf_cstr(&json));
    }
    iso_buf_free(&text);
    iso_buf_free(&json);
    return i;
}

static const iso_result_kind jp_kind = {"jepsen", jp_text, jp_json, jp_page, jp_files, jp_each, jp_free};

isolde_result *jp_finish(jp_result *r)
{
    size_t nt = 0;
    for (size_t i = 0; i < r->n_sec; i++) nt += r->sec[i].n > 0;
    isolde_result *res = iso_result_new(&jp_kind, r, r->validity, NULL, 0);
    iso_result_types(res, nt);
    for (size_t i = 0; i < r->n_sec; i++)
        if (r->sec[i].n) {
            res->types[res->n_types] = iso_xstrdup(r->sec[i].type);
            res->type_counts[res->n_types++] = r->sec[i].n;
        }
    return res;
}

uint32_t *jp_pair(const isolde_history *h, int client_only)
{
    uint32_t *partner = iso_xmalloc((h->n_ops ? h->n_ops : 1) * sizeof *partner);
    memset(partner, 0xff, h->n_ops * sizeof *partner);
    uint32_t *open = iso_history_per_process(h); /* its open invocation */
    for (size_t i = 0; i < h->n_ops; i++) {
        const iso_op *op = &h->ops[i];
        if (client_only && !iso_op_is_client(op)) continue;
        uint32_t p = op->process;
        if (op->type == ISO_OP_INVOKE) {
            open[p] = (uint32_t)i;
        } else if (open[p] != ISO_NONE) {
            partner[i] = open[p];
            partner[open[p]] = (uint32_t)i;
            open[p] = ISO_NONE;
        }
    }
    iso_free(open);
    return partner;
}

static _Thread_local const iso_store *sort_store;
static _Thread_local const iso_val *sort_vals;
static int by_value(const void *a, const void *b)
{
    return iso_val_cmp(sort_store, sort_vals[*(const uint32_t *)a], sort_vals[*(const uint32_t *)b]);
}

void jp_sort_ids(const iso_store *s, const iso_val *vals, uint32_t *ids, size_t n)
{
    sort_store = s;
    sort_vals = vals;
    if (n > 1) qsort(ids, n, sizeof *ids, by_value);
}

int jp_bad_op(const jp_result *r, const iso_op *op, const char *what, isolde_error *err)
{
    iso_buf b = {0};
    iso_op_edn(r->h, op, &b);
    iso_fail(err, ISOLDE_ERR_PARSE, r->h->name, op->line, op->col, "%s: %s %.200s", r->model, what,
             iso_buf_cstr(&b));
    iso_buf_free(&b);
    return -1;
}

int jp_int(const isolde_history *h, iso_val v, int64_t *out)
{
    return iso_is_integer(v) && iso_val_int64(&h->store, v, out);
}

int jp_f_is(const isolde_history *h, const iso_op *op, const iso_name_atoms *f)
{
    return iso_name_atoms_has(f, iso_op_f(h, op));
}
