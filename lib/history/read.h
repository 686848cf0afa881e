/*
 * history/read.h -- the readers of history formats, one file each
 * (read_*.c), as the format table in read.c calls them; and format
 * detection (detect.c).
 */
#ifndef ISO_HISTORY_READ_H
#define ISO_HISTORY_READ_H

#include "history/history.h"

/* Readers: each fills h from buf[0..len) or returns -1 with err set. */
int iso_read_edn(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_json(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_onelite(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_jepsen_log(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_jepsen_txt(isolde_history *h, const char *buf, size_t len, isolde_error *err);
/* Guess the format from the first non-blank, non-comment bytes; *why (if
 * why is not NULL) is set to the reason, in words (static). */
isolde_format iso_detect_format(const char *buf, size_t len, const char **why);

#endif
