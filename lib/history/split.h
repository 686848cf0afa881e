/*
 * history/split.h -- reading one-op-per-line histories (JSON lines,
 * Jepsen's history.edn) on two threads (read_split.c).
 */
#ifndef ISO_HISTORY_SPLIT_H
#define ISO_HISTORY_SPLIT_H

#include "history/history.h"

/* A reader of a sequence of top-level op forms, buf[0, len) into h on this
 * thread; *lines = newlines seen. */
typedef int (*iso_lines_fn)(isolde_history *h, const char *buf, size_t len, size_t *lines,
                            isolde_error *err);
/* Read buf[0, len) with read_lines, in two halves on two threads when
 * len >= min_len and the history is empty; errors are always those of a
 * sequential read. */
#define ISO_SPLIT_MIN ((size_t)1 << 20)
int iso_read_split(isolde_history *h, const char *buf, size_t len, size_t min_len,
                   iso_lines_fn read_lines, isolde_error *err);

#endif
