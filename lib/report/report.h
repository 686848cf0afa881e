/*
 * report/report.h -- writing a result of any kind, from what its kind
 * supplies (result/result.h): the text and JSON reports on a stream, the
 * self-contained HTML page, and the directory (-d).
 *
 *   write.c   the public writers: the report options, a stream flushed
 *             and its errors reported
 *   page.c    the page: its head, the data block's common fields (kind,
 *             valid, types, not, also-not), the kind's fields, the viewer
 *   dir.c     the directory: made with its parents, the kind's files,
 *             results.json and index.html; a file written and closed
 *             whatever happens, running out of memory included
 *   svg.c     DOT laid out as SVG (Graphviz's libgvc, optional)
 *
 * Rule: report/ includes result/ and core/, and knows no kind: a kind's
 * writers (elle/, linear/, jepsen/, check/'s empty result) include it.
 */
#ifndef ISO_REPORT_H
#define ISO_REPORT_H

#include "result/result.h"

/* What a page and -d's files show of a transactional result's type: its
 * first findings, up to ISO_REPORT_SHOWN of them and until their proofs
 * (text and JSON) pass ISO_REPORT_SHOWN_BYTES, then how many more there
 * were. A proof may show a whole op, which many findings may share (a
 * read of n elements nobody appended is n findings, each showing the
 * read): what a report holds of a type stays linear in the input. The
 * text report shows --max-examples, --json every finding. */
#define ISO_REPORT_SHOWN ((size_t)100)
#define ISO_REPORT_SHOWN_BYTES ((size_t)4 << 20)

/* "true", "false" or "unknown". */
const char *iso_report_validity(isolde_validity v);

/* ---- the page (page.c) ---------------------------------------------- */

/* The page being written. Its data block is JSON in which '<' never
 * appears (written as \u003c, which only strings can hold), so no key,
 * value or error text can close the script element; it goes out in
 * chunks, so a large history's page needs no copy of itself. */
typedef struct iso_html {
    FILE *out;
    iso_buf b;  /* JSON not yet written ('<' becomes \u003c as it goes out) */
    int text;   /* in a text block (after iso_html_text_block) */
} iso_html;

/* The page of r on out: the common fields, then the kind's page(). */
int iso_report_page(const isolde_result *r, FILE *out);

/* For a kind's page(): a field ,"key":"s" (s as a JSON string). */
void iso_html_string(iso_html *h, const char *key, const char *s);
/* Its own fields go into h->b as ",\"name\":value", with iso_html_more
 * now and then, which writes h->b out when it has grown past a chunk. */
void iso_html_more(iso_html *h);
/* End the data block and start a text block <script type="text/plain"
 * id=ID> (id: a fixed name), whose text iso_html_text adds: '\\' as "\\\\",
 * '<' as "\\l", a newline as "\\n", so that lines may separate items. */
void iso_html_text_block(iso_html *h, const char *id);
void iso_html_text(iso_html *h, const char *s, size_t n);

/* ---- the directory (dir.c) ------------------------------------------ */

/* dir and r's files in it, results.json (the JSON as shown) and
 * index.html (the page). */
int iso_report_dir(const isolde_result *r, const char *dir, isolde_error *err);
/* Make dir (and its parents): 0, or -1 with err. */
int iso_report_mkdir(const char *dir, isolde_error *err);
/* Write dir/name with write(out, arg) (0, or -1 on a write error),
 * closing it even when memory runs out inside (the guard unwinds); -1
 * with err on failure. */
int iso_report_write_file(const char *dir, const char *name, int (*write)(FILE *out, void *arg), void *arg,
                          isolde_error *err);

/* ---- pictures (svg.c) ------------------------------------------------ */

/* DOT laid out as SVG into out: 0, or -1 when built without libgvc or the
 * layout failed (out is then unchanged). It takes the guard's undo slot
 * (iso_guard_on_unwind) for a moment: call it with the slot free. */
int iso_dot_svg(const char *dot, iso_buf *out);

#endif
