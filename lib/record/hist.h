/*
 * record/hist.h -- the history file a run writes: every completion is in the
 * file (page cache) before its client goes on, so a killed run leaves a
 * checkable prefix: whole lines, with no blank line (hist.c says exactly
 * what a SIGKILL leaves).
 */
#ifndef ISO_RUN_HIST_H
#define ISO_RUN_HIST_H

#include <stddef.h>
#include <sys/uio.h>

/* Lives in memory shared by every client (no pointers but the mapping,
 * which is made before clients fork). */
typedef struct hist {
    int fd;
    int err;         /* errno of the first failure; 0 if none */
    char *map;       /* the file, mapped; NULL: write(2) */
    size_t reserved; /* address space behind map */
    size_t size;     /* file size: history, then spaces and a newline */
    size_t len;      /* bytes of history */
    int nl_waiting;  /* the history's last newline is the file's last byte */
    size_t n_pend;   /* write(2): bytes waiting in pend */
    char pend[1 << 20];
} hist;

/* Record into fd (open for writing, borrowed); path names the same file,
 * which is mapped if it is a regular file that can be opened read-write. */
void hist_open(hist *h, int fd, const char *path);
/* Append one line given in n pieces. A line with flush set, and every
 * line before it, is in the file (page cache) when this returns. Returns
 * 0, or -1 with h->err set; after an error nothing more is recorded. */
int hist_append(hist *h, const struct iovec *v, int n, int flush);
/* Write out what waits, cut the file to the history, drop the mapping;
 * the caller closes fd. Returns 0, or -1 with h->err set. */
int hist_close(hist *h);

#endif
