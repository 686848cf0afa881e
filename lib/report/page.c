/*
 * report/page.c -- the self-contained HTML page of a result of any kind:
 * one file, no network, the viewer (web/viewer.js, embedded at build
 * time) reading one JSON data block: the fields every result has (kind,
 * valid, types, not, also-not), then the kind's own (its page(): a text,
 * the transactional findings and timeline, the linearizability witnesses),
 * and the text blocks a kind may add after it.
 *
 * Invariant: the data block is JSON in which '<' never appears (it is
 * written as \u003c, which only strings can hold), so no key, value or
 * error text can close the script element or open markup; the viewer puts
 * text into the page as text only. The page is written in chunks of about
 * CHUNK bytes, so a large history's report needs no copy of itself.
 */
#include "report/report.h"
#include "core/value.h"

#include <string.h>

#include "viewer_js.h" /* generated from web/viewer.js: iso_viewer_js */

enum { CHUNK = 1 << 20 };

const char *iso_report_validity(isolde_validity v)
{
    return v == ISOLDE_VALID ? "true" : v == ISOLDE_INVALID ? "false" : "unknown";
}

static void flush(iso_html *h)
{
    const char *p = h->b.p, *end = p + h->b.n;
    if (h->text) { /* escaped as it was added */
        if (h->b.n) fwrite(p, 1, h->b.n, h->out);
        h->b.n = 0;
        return;
    }
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        size_t n = (size_t)((lt ? lt : end) - p);
        fwrite(p, 1, n, h->out);
        if (lt) fputs("\\u003c", h->out);
        p += n + (lt != NULL);
    }
    h->b.n = 0;
}

void iso_html_more(iso_html *h)
{
    if (h->b.n >= CHUNK) flush(h);
}

void iso_html_string(iso_html *h, const char *key, const char *s)
{
    iso_buf_printf(&h->b, ",\"%s\":", key);
    iso_json_string(&h->b, s, strlen(s));
}

/* ,"key":[names] -- nothing when there are none (a result that rules out
 * no model says nothing of not / also-not). */
static void json_names(iso_buf *b, const char *key, const char *const *names, size_t n)
{
    if (!n) return;
    iso_buf_printf(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(b, ",");
        iso_json_string(b, names[i], strlen(names[i]));
    }
    iso_buf_puts(b, "]");
}

/* The page's head and the fields every result has. */
static void open_page(iso_html *h, FILE *out, const isolde_result *r)
{
    *h = (iso_html){out, {0}, 0};
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
          "<title>isolde report</title></head>\n<body>\n"
          "<script type=\"application/json\" id=\"isolde-data\">", out);
    iso_buf_printf(&h->b, "{\"kind\":\"%s\",\"valid\":\"%s\",\"types\":[", r->kind->name,
                   iso_report_validity(r->validity));
    for (size_t i = 0; i < r->n_types; i++) {
        iso_buf_printf(&h->b, "%s[", i ? "," : "");
        iso_json_string(&h->b, r->types[i], strlen(r->types[i]));
        iso_buf_printf(&h->b, ",%zu]", r->type_counts[i]);
    }
    iso_buf_puts(&h->b, "]");
    json_names(&h->b, "not", r->not_, r->n_not);
    json_names(&h->b, "also-not", r->also_not, r->n_also_not);
}

void iso_html_text_block(iso_html *h, const char *id)
{
    if (!h->text) iso_buf_puts(&h->b, "}");
    flush(h);
    h->text = 1;
    fprintf(h->out, "</script>\n<script type=\"text/plain\" id=\"%s\">", id);
}

void iso_html_text(iso_html *h, const char *s, size_t n)
{
    for (size_t i = 0, run = 0; i <= n; i++) {
        char c = i < n ? s[i] : 0;
        const char *esc = c == '\\' ? "\\\\" : c == '<' ? "\\l" : c == '\n' ? "\\n" : NULL;
        if (!esc && i < n) continue;
        iso_buf_put(&h->b, s + run, i - run);
        if (esc) iso_buf_puts(&h->b, esc);
        run = i + 1;
    }
}

/* Close the open block, write the viewer: 0, or -1 on a write error. */
static int close_page(iso_html *h)
{
    if (!h->text) iso_buf_puts(&h->b, "}");
    flush(h);
    iso_buf_free(&h->b);
    fputs("</script>\n<script>\n", h->out);
    fputs(iso_viewer_js, h->out);
    fputs("\n</script>\n</body></html>\n", h->out);
    return ferror(h->out) ? -1 : 0;
}

int iso_report_page(const isolde_result *r, FILE *out)
{
    iso_html h;
    open_page(&h, out, r);
    r->kind->page(r, &h);
    return close_page(&h);
}
