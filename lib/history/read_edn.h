/*
 * history/read_edn.h -- the EDN value parser (read_edn.c), for the EDN reader
 * and for readers of EDN pieces (jepsen.log values).
 */
#ifndef ISO_HISTORY_READ_EDN_H
#define ISO_HISTORY_READ_EDN_H

#include "history/cursor.h"

/* Read one form at the cursor (form_line, form_col: where it starts,
 * after any discarded forms). Returns 1 with *out set, 0 at the end
 * of input, 2 when a closing delimiter ends an enclosing sequence the
 * caller opened (not consumed), -1 on error. */
int iso_edn_form(iso_rd *rd, iso_val *out);
/* Skip EDN whitespace, commas and ';' comments. */
void iso_edn_skip_slow(iso_rd *rd);
static inline int iso_edn_solid(unsigned char c) { return c > ' ' && c != ',' && c != ';'; }
static inline void iso_edn_skip(iso_rd *rd)
{
    if (rd->pos < rd->len && !iso_edn_solid((unsigned char)rd->p[rd->pos])) {
        /* one separator before a token: the usual case, "1 2" or "a, b" */
        if (rd->pos + 1 < rd->len && (rd->p[rd->pos] == ' ' || rd->p[rd->pos] == ',') &&
            iso_edn_solid((unsigned char)rd->p[rd->pos + 1])) {
            rd->pos++;
            return;
        }
        iso_edn_skip_slow(rd);
    }
}

/* Top-level op forms of buf[0, len) into h (an iso_lines_fn). */
int iso_edn_lines(isolde_history *h, const char *buf, size_t len, size_t *lines, isolde_error *err);

#endif
