/*
 * record/hist.c -- the history file that the runner's clients append to.
 *
 * A regular file is written through a MAP_SHARED mapping: a line copied
 * into it is in the page cache at once, so it survives a SIGKILL of the
 * runner as a write(2) would, without a system call per op. The mapping
 * reserves address space for the whole run up front and is made before
 * clients fork, so every client sees the same one and it never moves. The
 * file grows HIST_CHUNK at a time, written as spaces ending in one newline
 * first, and the last line's newline waits at the file's end: the file is
 * always the history with its final newline moved past a run of spaces.
 * So a run killed by SIGKILL leaves no blank line: every line is a whole
 * op, the last one followed by spaces (valid JSON: trailing white space)
 * and its newline, unless the kill landed within the copy of a line (then
 * that line is cut short) or while the file grew (grow_chunk: the spaces
 * then end without a newline; docs/FORMATS.md promises exactly this). Closing puts the newline back and cuts the file to the bytes
 * recorded. Anything else (a pipe, /dev/null, a terminal), or a file that
 * cannot be mapped, gets write(2): lines wait in pend and go out when a
 * line that must reach the file (a completion) is appended.
 *
 * The caller serialises every call (the runner's lock).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "record/hist.h"

#define HIST_CHUNK ((size_t)4 << 20)
#define FILL_BLOCK ((size_t)64 << 10)

/* Address space to reserve, largest first: the history can never grow
 * past the reservation without falling back to write(2). */
static const size_t reserve_sizes[] = {(size_t)1 << 40, (size_t)1 << 36, (size_t)1 << 32};

static int fail(hist *h, int err)
{
    if (!h->err) h->err = err ? err : EIO;
    return -1;
}

/* A read-write descriptor of the same regular file as fd, or -1. */
static int reopen_rw(int fd, const char *path)
{
    struct stat a, b;
    if (!path || fstat(fd, &a) < 0 || !S_ISREG(a.st_mode)) return -1;
    int rw = open(path, O_RDWR | O_CLOEXEC);
    if (rw < 0) return -1;
    if (fstat(rw, &b) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        close(rw);
        return -1;
    }
    return rw;
}

void hist_open(hist *h, int fd, const char *path)
{
    memset(h, 0, offsetof(hist, pend));
    h->fd = fd;
    int rw = reopen_rw(fd, path);
    if (rw < 0) return;
    for (size_t i = 0; i < sizeof reserve_sizes / sizeof *reserve_sizes; i++) {
        void *m = mmap(NULL, reserve_sizes[i], PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_NORESERVE, rw, 0);
        if (m == MAP_FAILED) continue;
        h->map = m;
        h->reserved = reserve_sizes[i];
        break;
    }
    close(rw);
}

static int write_all(hist *h, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(h->fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return fail(h, w < 0 ? errno : EIO);
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Extend the file by one chunk of spaces ending in a newline. pwrite,
 * not ftruncate and a store: a full disk is then an error here, never a
 * SIGBUS later. The old end's newline becomes a space first (if it is the
 * last line's own, it now waits at the new end): a kill in between leaves
 * the last line without a newline, never a blank line. No order does
 * better: a kill can stop a write between two pages, and new pages after
 * a newline that stayed would be a line of spaces. */
static int grow_chunk(hist *h)
{
    char fill[FILL_BLOCK];
    memset(fill, ' ', sizeof fill);
    int moved = h->size && h->map[h->size - 1] == '\n';
    if (moved) {
        h->map[h->size - 1] = ' ';
        if (h->len == h->size) h->nl_waiting = 1;
    }
    for (size_t done = 0; done < HIST_CHUNK;) {
        size_t n = HIST_CHUNK - done < FILL_BLOCK ? HIST_CHUNK - done : FILL_BLOCK;
        if (done + n == HIST_CHUNK) fill[n - 1] = '\n';
        ssize_t w = pwrite(h->fd, fill, n, (off_t)(h->size + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (moved) h->map[h->size - 1] = '\n';
            if (h->len == h->size) h->nl_waiting = 0;
            return fail(h, w < 0 ? errno : EIO);
        }
        done += (size_t)w;
    }
#ifdef MADV_POPULATE_WRITE
    madvise(h->map + h->size, HIST_CHUNK, MADV_POPULATE_WRITE); /* fewer faults; optional */
#endif
    h->size += HIST_CHUNK;
    return 0;
}

/* The last line's newline, which waits at the file's end while the file
 * is longer than the history, back in its place. */
static void restore_newline(hist *h)
{
    if (h->nl_waiting) h->map[h->len - 1] = '\n';
    h->nl_waiting = 0;
}

/* The reservation is used up: drop the mapping and go on with write(2)
 * after the bytes recorded so far. */
static int unmap(hist *h)
{
    int rc = 0;
    restore_newline(h);
    if (ftruncate(h->fd, (off_t)h->len) < 0 || lseek(h->fd, (off_t)h->len, SEEK_SET) < 0)
        rc = fail(h, errno);
    munmap(h->map, h->reserved);
    h->map = NULL;
    return rc;
}

static int room(hist *h, size_t n)
{
    while (h->len + n > h->size) {
        if (h->size + HIST_CHUNK > h->reserved) return unmap(h) < 0 ? -1 : 1;
        if (grow_chunk(h) < 0) return -1;
    }
    return 0;
}

/* The previous line's newline, put back, and the new line's first byte
 * at h->len, in one 16-bit store where the machine has one: a kill lands
 * before both or after both, so the file never holds a line of spaces
 * alone (elsewhere two stores, newline first: a kill between them leaves
 * one such line, which isolde repair removes). */
static void restore_newline_and(hist *h, char first)
{
    char *at = h->map + h->len - 1;
    if (!h->nl_waiting) {
        at[1] = first;
        return;
    }
    h->nl_waiting = 0;
#if defined(__x86_64__) || defined(__i386__)
    unsigned short two = (unsigned short)((unsigned char)'\n' | (unsigned)(unsigned char)first << 8);
    __asm__ volatile("movw %1, %0" : "=m"(*(char (*)[2])at) : "r"(two));
#else
    at[0] = '\n';
    at[1] = first;
#endif
}

/* The pieces at the history's end. A line's final newline is not copied
 * while the file goes on after it: the space there stands for it and the
 * file's last byte is its newline. The previous line's newline goes back
 * with this line's first byte (restore_newline_and), so that a kill
 * during the copy cuts only this line. */
static int append_mapped(hist *h, const struct iovec *v, int n, size_t total)
{
    int r = room(h, total);
    if (r != 0 || total == 0) return r;
    int first = 0, last = n - 1; /* the pieces with the first and last bytes (total > 0) */
    while (!v[first].iov_len) first++;
    while (!v[last].iov_len) last--;
    int defer = ((const char *)v[last].iov_base)[v[last].iov_len - 1] == '\n' && h->len + total < h->size;
    if (defer && total == 1) restore_newline(h); /* a line that is its newline alone */
    else restore_newline_and(h, *(const char *)v[first].iov_base);
    char *p = h->map + h->len;
    for (int i = first; i < n; i++) {
        size_t skip = i == first, len = v[i].iov_len - (defer && i == last);
        if (len > skip) memcpy(p + skip, (const char *)v[i].iov_base + skip, len - skip);
        p += v[i].iov_len;
    }
    h->len += total;
    h->nl_waiting = defer;
    /* The next lines' cache lines, fetched for writing now: stores into
     * cold lines would otherwise hold up the unlock that follows. */
    for (size_t i = 0; i < 8; i++) __builtin_prefetch(p + 64 * i, 1, 3);
    return 0;
}

static int append_written(hist *h, const struct iovec *v, int n, size_t total, int flush)
{
    if (h->n_pend + total > sizeof h->pend) {
        if (write_all(h, h->pend, h->n_pend) < 0) return -1;
        h->n_pend = 0;
    }
    for (int i = 0; i < n; i++) {
        if (total <= sizeof h->pend) {
            memcpy(h->pend + h->n_pend, v[i].iov_base, v[i].iov_len);
            h->n_pend += v[i].iov_len;
        } else if (write_all(h, v[i].iov_base, v[i].iov_len) < 0) {
            return -1;
        }
    }
    h->len += total;
    if (!flush || !h->n_pend) return 0;
    size_t n_pend = h->n_pend;
    h->n_pend = 0;
    return write_all(h, h->pend, n_pend);
}

int hist_append(hist *h, const struct iovec *v, int n, int flush)
{
    if (h->err) return -1;
    size_t total = 0;
    for (int i = 0; i < n; i++) total += v[i].iov_len;
    if (h->map) {
        int r = append_mapped(h, v, n, total);
        if (r <= 0) return r;
    }
    return append_written(h, v, n, total, flush);
}

int hist_close(hist *h)
{
    if (h->map) {
        restore_newline(h);
        if (ftruncate(h->fd, (off_t)h->len) < 0) fail(h, errno);
        munmap(h->map, h->reserved);
        h->map = NULL;
    } else if (h->n_pend && !h->err) {
        write_all(h, h->pend, h->n_pend);
    }
    h->n_pend = 0;
    return h->err ? -1 : 0;
}
