/*
 * history/read_split.c -- one-op-per-line histories (JSON lines, Jepsen's EDN) read
 * on two threads.
 *
 * The input is cut at a record boundary near the middle: a line starting
 * with '{' right after a line ending in '}'. In valid JSON lines that is
 * always between two top-level values (JSON strings hold no raw newline,
 * and two values inside a composite need a ',' between them). EDN strings
 * may hold newlines and EDN items need no separator, so there the cut may
 * fall inside a form -- but then the first half ends inside it, fails, and
 * the input is read again on one thread. Each half is parsed into its own
 * history, with a store of its own; the second is then moved after the
 * first (merge.c), its pages given back as they are copied, so that no
 * array is ever sized from the input's length (a word per input byte, as
 * a shared array needed, is 51 GB of address space for a 6.4 GB history).
 * If either half fails, or the halves disagree on the :index rule
 * (history.c), the whole input is read again on one thread, so errors are
 * exactly those of a sequential read.
 */
#include "history/split.h"

#include <stdlib.h>
#include <string.h>

struct half {
    iso_lines_fn read_lines;
    isolde_history *h;
    const char *buf;
    size_t len, lines;
    isolde_error err;
    int r;
};

struct halves {
    struct half h[2];
};

static void read_first(void *arg)
{
    struct half *x = &((struct halves *)arg)->h[0];
    x->r = x->read_lines(x->h, x->buf, x->len, &x->lines, &x->err);
}

static void read_second(void *arg)
{
    struct half *x = &((struct halves *)arg)->h[1];
    x->r = x->read_lines(x->h, x->buf, x->len, &x->lines, &x->err);
}

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

/* Both halves read: would one sequential read agree on the :index rule?
 * Not when they numbered ops differently, nor when the second half's
 * first :index is not above the first half's last. */
static int halves_agree(const isolde_history *h, const isolde_history *h2)
{
    if (h->n_ops == 0 || h2->n_ops == 0) return 1;
    if (h->dense_index || h2->dense_index) return h->dense_index && h2->dense_index;
    return h2->ops[0].index > h->ops[h->n_ops - 1].index;
}

/* Read the halves of buf, cut at split, on two threads: 0, or -1 when a
 * half failed or the halves disagree (then nothing of them is kept). */
static int parallel(isolde_history *h, const char *buf, size_t len, size_t split,
                    iso_lines_fn read_lines, isolde_error *err)
{
    isolde_history *h2 = iso_history_new(h->name, h->format);
    h2->drop_input = h->drop_input;
    h2->line_base = h->line_base;
    h2->index_fixed = h->index_fixed;
    h2->dense_index = h->dense_index;
    h2->index_base = SIZE_MAX; /* a given :index is checked by the sequential read */
    struct halves x = {{{read_lines, h, buf, split, 0, {0}, 0},
                        {read_lines, h2, buf + split, len - split, 0, {0}, 0}}};
    iso_both(read_first, read_second, &x, 2);
    iso_phase("read: two halves");
    int ok = x.h[0].r == 0 && x.h[1].r == 0 && halves_agree(h, h2);
    if (ok) iso_history_merge(h, h2, x.h[0].lines);
    iso_phase(ok ? "read: merged" : "read: halves failed");
    h->read_threads = ok ? 2 : 1;
    isolde_history_free(h2);
    (void)err; /* a half's error is dropped: the sequential read finds it again */
    return ok ? 0 : -1;
}

int iso_read_split(isolde_history *h, const char *buf, size_t len, size_t min_len,
                   iso_lines_fn read_lines, isolde_error *err)
{
    size_t lines, split = len >= min_len && h->n_ops == 0 && h->store.n_words == 0
                              ? boundary(buf, len, len / 2) : 0;
    if (split && parallel(h, buf, len, split, read_lines, err) == 0) return 0;
    if (split) { /* read again on one thread, for the exact first error */
        h->n_ops = 0;
        h->store.n_words = 0;
        if (!h->index_fixed) h->dense_index = 0;
    }
    return read_lines(h, buf, len, &lines, err);
}
