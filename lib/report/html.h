/*
 * report/html.h -- the self-contained HTML report (report/html.c): a page
 * every result kind writes through the same calls, the viewer embedded,
 * the kind's data as one JSON block that kinds extend with their fields.
 *
 * A kind's html writer: iso_html_open (the page's head and the common
 * fields: kind, valid, types, not, also-not, text), then its own fields
 * written into h->b as ",\"name\":value" (calling iso_html_more now and
 * then, so that the page goes out in chunks), then iso_html_close.
 */
#ifndef ISO_REPORT_HTML_H
#define ISO_REPORT_HTML_H

#include "result/result.h"

typedef struct iso_html {
    FILE *out;
    iso_buf b;  /* JSON not yet written ('<' becomes \u003c as it goes out) */
    int text;   /* in a text block (after iso_html_text_block) */
} iso_html;

/* text: the kind's report in words (NULL: none), shown as it is. */
void iso_html_open(iso_html *h, FILE *out, isolde_result *r, const char *kind, const char *text);
/* Write h->b out when it has grown past a chunk. */
void iso_html_more(iso_html *h);
void iso_html_flush(iso_html *h);
/* End the data block and start a text block <script type="text/plain"
 * id=ID> (id: a fixed name), whose text iso_html_text adds: '\\' as "\\\\",
 * '<' as "\\l", a newline as "\\n", so that lines may separate items. */
void iso_html_text_block(iso_html *h, const char *id);
void iso_html_text(iso_html *h, const char *s, size_t n);
/* Close the open block, write the viewer: 0, or -1 on a write error. */
int iso_html_close(iso_html *h);

/* The page with the common fields alone (a kind with no view of its own). */
int iso_report_html_plain(isolde_result *r, FILE *out, const char *kind, const char *text);
/* A transactional result's page: findings with pictures, the timeline. */
int iso_report_html(isolde_result *r, FILE *out);

#endif
