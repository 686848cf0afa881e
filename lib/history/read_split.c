/*
 * history/read_split.c -- one-op-per-line histories (JSON lines, Jepsen's EDN) read
 * in parts on two threads.
 *
 * The input is cut at record boundaries: a line starting with '{' right
 * after a line ending in '}'. In valid JSON lines that is always between
 * two top-level values (JSON strings hold no raw newline, and two values
 * inside a composite need a ',' between them). EDN strings may hold
 * newlines and EDN items need no separator, so there a cut may fall inside
 * a form -- but then the part before it ends inside it, fails, and the
 * input is read again on one thread.
 *
 * Parts of ISO_SPLIT_PART bytes (half the input when that is less) are
 * read two at a time, one per thread, each into a history of its own that
 * is reused part after part; after each round both are copied to the end
 * of the history in file order (merge.c) -- except the very first part,
 * read straight into the history, which is then empty: a sequential read's
 * start, and no copy (for an input of two parts, half the memory touched
 * twice). So the parts' memory is touched
 * once and stays resident (fresh pages are what memory costs most here),
 * the history grows to what it holds, and no array is ever sized from the
 * input's length (the word per input byte a shared array needed is 51 GB
 * of address space for a 6.4 GB history). If a part fails, or a part
 * disagrees with the ones before it on the :index rule (history.c), the
 * whole input is read again on one thread, so errors are exactly those of
 * a sequential read.
 */
#include "history/split.h"
#include "core/phase.h"

#include <stdlib.h>
#include <string.h>

#define ISO_SPLIT_PART ((size_t)32 << 20)

struct part {
    iso_lines_fn read_lines;
    isolde_history *h;
    const char *buf;
    size_t len, lines;
    isolde_error err;
    int r;
};

struct round {
    struct part p[2];
};

/* Read a part; a mapped input's pages wholly inside it are given back
 * after it (the cursor gives back all but its last few megabytes). */
static void read_part(struct part *x)
{
    x->lines = 0;
    x->r = x->len ? x->read_lines(x->h, x->buf, x->len, &x->lines, &x->err) : 0;
    if (x->h->drop_input) iso_drop_pages((void *)(uintptr_t)x->buf, x->len);
}

static void read_first(void *arg) { read_part(&((struct round *)arg)->p[0]); }
static void read_second(void *arg) { read_part(&((struct round *)arg)->p[1]); }

/* The first record boundary at or after mid, or 0. */
static size_t boundary(const char *p, size_t len, size_t mid)
{
    for (size_t i = mid; i + 1 < len; i++) {
        const char *nl = memchr(p + i, '\n', len - i - 1);
        if (!nl) return 0;
        i = (size_t)(nl - p);
        size_t j = i > 0 && p[i - 1] == '\r' ? i - 1 : i;
        if (p[i + 1] == '{' && j > 0 && p[j - 1] == '}') return i + 1;
    }
    return 0;
}

/* Where the part that starts at from ends: the first record boundary
 * `size` bytes on, or the input's end. */
static size_t part_end(const char *buf, size_t len, size_t from, size_t size)
{
    size_t b = len - from > size ? boundary(buf, len, from + size) : 0;
    return b ? b : len;
}

/* Part c emptied for the next round, set to go on from h. The first part
 * of a round follows h's ops exactly (its :index checked against theirs);
 * the second cannot know its place, so halves_agree checks it when it is
 * copied. */
static void part_start(isolde_history *c, const isolde_history *h, int first)
{
    iso_history_clear(c);
    c->drop_input = h->drop_input;
    c->line_base = h->line_base;
    c->index_fixed = h->index_fixed || h->n_ops > 0;
    c->dense_index = h->dense_index;
    c->index_base = !first || h->index_base == SIZE_MAX ? SIZE_MAX : h->index_base + h->n_ops;
    c->has_before = first && (h->n_ops > 0 || h->has_before); /* h's ops, or those h follows */
    c->before_index = h->n_ops ? h->ops[h->n_ops - 1].index : h->before_index;
    c->before_line = h->n_ops ? h->ops[h->n_ops - 1].line : h->before_line;
}

/* Would one sequential read agree on the :index rule, with part c after
 * h? Not when they numbered ops differently, nor when c's first :index is
 * not above h's last. */
static int halves_agree(const isolde_history *h, const isolde_history *c)
{
    if (h->n_ops == 0 || c->n_ops == 0) return 1;
    if (h->dense_index || c->dense_index) return h->dense_index && c->dense_index;
    return c->ops[0].index > h->ops[h->n_ops - 1].index;
}

/* Read two parts from *from on, and copy them to h (the first part of
 * the input read into h itself): 0, or -1 when a part failed or disagrees
 * with h. */
static int one_round(isolde_history *h, isolde_history *c[2], const char *buf, size_t len, size_t size,
                     iso_lines_fn read_lines, size_t *from, size_t *lines)
{
    size_t mid = part_end(buf, len, *from, size), end = part_end(buf, len, mid, size);
    isolde_history *first = *from == 0 ? h : c[0];
    if (first != h) part_start(c[0], h, 1);
    part_start(c[1], h, 0);
    struct round x = {{{read_lines, first, buf + *from, mid - *from, 0, {0}, 0},
                       {read_lines, c[1], buf + mid, end - mid, 0, {0}, 0}}};
    iso_both(read_first, read_second, &x, 2);
    for (int i = 0; i < 2; i++) {
        if (x.p[i].r != 0) return -1; /* its error: the sequential read's */
        if (x.p[i].h != h && (!halves_agree(h, x.p[i].h) || iso_history_merge(h, x.p[i].h, *lines) != 0))
            return -1;
        *lines += x.p[i].lines;
    }
    *from = end;
    return 0;
}

/* Read buf in parts of about size bytes, two at a time: 0, or -1 (then h
 * holds some of them). */
static int parallel(isolde_history *h, const char *buf, size_t len, size_t size, iso_lines_fn read_lines)
{
    isolde_history *c[2] = {iso_history_new(h->name, h->format), iso_history_new(h->name, h->format)};
    size_t from = 0, lines = 0;
    int rc = 0;
    while (rc == 0 && from < len) rc = one_round(h, c, buf, len, size, read_lines, &from, &lines);
    isolde_history_free(c[0]);
    isolde_history_free(c[1]);
    h->read_threads = rc == 0 ? 2 : 1;
    iso_phase(rc == 0 ? "read: in parts" : "read: a part failed");
    return rc;
}

int iso_read_split(isolde_history *h, const char *buf, size_t len, size_t min_len,
                   iso_lines_fn read_lines, isolde_error *err)
{
    size_t lines, size = len / 2 < ISO_SPLIT_PART ? len / 2 : ISO_SPLIT_PART;
    int split = len >= min_len && h->n_ops == 0 && h->store.n_words == 0 && boundary(buf, len, size);
    if (split && parallel(h, buf, len, size, read_lines) == 0) return 0;
    if (split) { /* read again on one thread, for the exact first error */
        iso_history_clear(h);
        if (!h->index_fixed) h->dense_index = 0;
    }
    return read_lines(h, buf, len, &lines, err);
}
