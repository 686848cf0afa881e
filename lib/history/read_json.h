/*
 * history/read_json.h -- the JSON value parser (read_json.c), for the JSON
 * readers and for bare JSON values (a --transaction-order file, an exec
 * client's reply).
 */
#ifndef ISO_HISTORY_READ_JSON_H
#define ISO_HISTORY_READ_JSON_H

#include "history/cursor.h"

/* Read one value at the cursor (after whitespace). 0, or -1 with the
 * error at its position. */
int iso_json_value(iso_rd *rd, iso_val *out);
/* Skip JSON whitespace; with comments, also '#' lines (IsoCheck). */
void iso_json_skip_slow(iso_rd *rd, int comments);
static inline void iso_json_skip(iso_rd *rd, int comments)
{
    if (rd->pos < rd->len && (unsigned char)rd->p[rd->pos] > ' ' && rd->p[rd->pos] != '#') return;
    iso_json_skip_slow(rd, comments);
}
/* A whole input that is one JSON value and nothing more (whitespace
 * aside), into store s. 0, or -1 with err at the position. */
int iso_json_document(iso_store *s, const char *name, const char *buf, size_t len, iso_val *out,
                      isolde_error *err);

/* JSON op objects, one per line, of buf[0, len) into h (an iso_lines_fn). */
int iso_json_lines(isolde_history *h, const char *buf, size_t len, size_t *lines,
                   isolde_error *err);

#endif
