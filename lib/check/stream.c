/*
 * check/stream.c -- checking a history while it grows (docs/ONLINE.md):
 * each complete line appended is read into a history at once (a bad line
 * is an error as it arrives), and only the text a window check may read
 * again kept; now and then an early check of that history (no transaction
 * of an invocation still open, only the edges some read shows) or of a
 * window of its last ops hands over each finding that no later line can
 * undo, once; at the end, the history grown, which is the batch's.
 *
 * Invariant: n bytes were appended, of which bytes holds those from offset
 * base on (base is at a line start, at or before the first line a window
 * check may read); h holds the ops of the first done bytes, done just
 * after the last newline; seen holds the hash of every finding handed
 * over.
 */
#include "check/check.h"
#include "core/phase.h"
#include "core/sort.h"
#include "history/read.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define EARLY_PER_TYPE 100 /* findings of a type looked at per early check */
#define WINDOW_MIN_OPS 100000 /* a window check looks this many ops further back than its new ones */

struct isolde_stream {
    char *name;
    isolde_read_opts ro;
    isolde_check_opts co;
    isolde_history *h;
    char *bytes;         /* the text from offset base on: what a window check may still read */
    size_t base, n, cap, done;
    uint64_t *seen;
    size_t n_seen, cap_seen;
    size_t complete;     /* h's client completions: its complete transactions */
    size_t checked_ops;  /* h's ops at the last early check */
    size_t window_ops;   /* h's ops at the last window check */
    size_t window_from;  /* the offset where the next window's text starts, or before */
    double next_at;      /* no early check before this time */
    double next_window_at; /* no window check before this time */
    int early;           /* 0: early checks are off (no workload with early findings, or one failed) */
    int windows;         /* window checks too (list-append) */
    atomic_int cancel;   /* isolde_stream_cancel: stop the early check, and early checks */
    isolde_stream_stats st;
};

/* ---- opening, appending ----------------------------------------------- */

struct open_call {
    const char *name;
    const isolde_read_opts *ro;
    const isolde_check_opts *co;
    isolde_stream **out;
};

static int open_stream(void *arg, isolde_error *err)
{
    struct open_call *c = arg;
    isolde_stream *s = iso_xcalloc(1, sizeof *s);
    s->name = iso_xstrdup(c->name ? c->name : "");
    isolde_read_opts_init(&s->ro);
    if (c->ro) s->ro.format = c->ro->format;
    isolde_check_opts_init(&s->co);
    if (c->co) s->co = *c->co;
    s->early = 1;
    atomic_init(&s->cancel, 0);
    if (isolde_history_new(s->name, &s->ro, &s->h, err)) {
        iso_free(s->name);
        iso_free(s);
        return -1;
    }
    *c->out = s;
    return 0;
}

isolde_status isolde_stream_open(const char *name, const isolde_read_opts *ro, const isolde_check_opts *co,
                                 isolde_stream **out, isolde_error *err)
{
    struct open_call c = {name, ro, co, out};
    *out = NULL;
    return iso_call(open_stream, &c, err);
}

struct append_call {
    isolde_stream *s;
    const char *data;
    size_t len;
};

static int keep(void *arg, isolde_error *err)
{
    struct append_call *c = arg;
    isolde_stream *s = c->s;
    (void)err;
    iso_grow_for((void **)&s->bytes, &s->cap, s->n - s->base + c->len + 1, 1, s);
    memcpy(s->bytes + (s->n - s->base), c->data, c->len);
    s->n += c->len;
    return 0;
}

/* The byte offset where the line of op i starts (h's ops from the first
 * line kept on; i at or past the first op of bytes). */
static size_t op_offset(const isolde_stream *s, size_t i)
{
    size_t p = s->done, k = s->h->line_base + 1, line = s->h->ops[i].line; /* p starts line k (one past the last) */
    while (k > line && p > s->base) {
        p--;
        while (p > s->base && s->bytes[p - 1 - s->base] != '\n') p--;
        k--;
    }
    return p;
}

/* window_ops moved on: where the next window check's text starts (at op
 * window_ops - WINDOW_MIN_OPS, or later). */
static void window_moved(isolde_stream *s)
{
    if (s->window_ops > WINDOW_MIN_OPS && !s->h->dense_index) s->window_from = op_offset(s, s->window_ops - WINDOW_MIN_OPS);
}

/* Forget the text no window check will read again: all of it before the
 * last line's end when there are no window checks, else what comes
 * before the next window's first op (window_from). Moved down when that is at least half
 * of what is kept, so each byte moves O(1) times. */
static void forget_text(isolde_stream *s)
{
    int later_windows = s->early && (s->windows || !s->checked_ops) && !s->h->dense_index; /* before the first check: not known yet */
    size_t from = later_windows ? s->window_from : s->done;
    if (from <= s->base || 2 * (from - s->base) < s->n - s->base) return;
    memmove(s->bytes, s->bytes + (from - s->base), s->n - from);
    s->base = from;
}

/* The bytes kept (under a guard of their own), then the lines they
 * complete read into h by the public call, outside it: its own guard keeps
 * h as it was when it fails. */
isolde_status isolde_stream_append(isolde_stream *s, const char *data, size_t len, isolde_error *err)
{
    struct append_call c = {s, data, len};
    size_t before = s->n, end;
    if (!data && len) {
        iso_fail(err, ISOLDE_ERR_USAGE, s->name, 0, 0, "no data (NULL) of %zu bytes", len);
        return ISOLDE_ERR_USAGE;
    }
    if (!s->h) {
        iso_fail(err, ISOLDE_ERR_USAGE, s->name, 0, 0, "the stream was finished before");
        return ISOLDE_ERR_USAGE;
    }
    isolde_status rc = len ? iso_call(keep, &c, err) : ISOLDE_OK;
    for (end = s->n; !rc && end > s->done && s->bytes[end - 1 - s->base] != '\n';) end--;
    if (!rc && end > s->done) rc = isolde_history_append_mem(s->h, s->bytes + (s->done - s->base), end - s->done, err);
    if (rc) {
        s->n = before; /* what this call brought is not kept */
        return rc;
    }
    s->done = end;
    s->st.bytes = s->n;
    for (size_t i = s->st.ops; i < s->h->n_ops; i++)
        s->complete += iso_op_is_client(&s->h->ops[i]) && s->h->ops[i].type != ISO_OP_INVOKE;
    s->st.ops = isolde_history_op_count(s->h);
    forget_text(s);
    s->st.text_kept = s->n - s->base;
    return ISOLDE_OK;
}

/* ---- early checks ------------------------------------------------------- */

/* The findings no later line can undo (docs/ONLINE.md): list-append's
 * cycles and the direct anomalies that are facts about complete
 * transactions; rw-register's direct ones alone (its other edges rest on
 * version orders a later op can change); a linearizability model's
 * nonlinearizable partition (an op not yet returned may take effect at any
 * time after its call or never, so an order of the whole would order the
 * part read); bank's, each a read's balances against the total (which
 * the option, the setup or the first read fixes) or the first read's
 * accounts; counter's out-of-bounds reads (the adds completed before a
 * read began and invoked before it ended are all in already; an add still
 * open counts as attempted, so an early bound is never tighter than the
 * final one). Other workloads have none early. */
static int certain(isolde_workload w, const char *type)
{
    int a = iso_anomaly_parse(type);
    const iso_checker *k = iso_checker_of(w);
    if (k && k->kind == ISO_CHECKER_LIN) return !strcmp(type, "nonlinearizable");
    if (w == ISOLDE_WORKLOAD_BANK) return 1;
    if (w == ISOLDE_WORKLOAD_COUNTER) return !strcmp(type, "out-of-bounds");
    if (w == ISOLDE_WORKLOAD_RW_REGISTER) return a == ISO_A_G1A || a == ISO_A_G1B || a == ISO_A_INTERNAL;
    if (w != ISOLDE_WORKLOAD_LIST_APPEND) return 0;
    return (a >= 0 && a < ISO_A_G1A) || a == ISO_A_G1A || a == ISO_A_G1B || a == ISO_A_DIRTY_UPDATE ||
           a == ISO_A_INCOMPATIBLE_ORDER || a == ISO_A_DUPLICATE_ELEMENTS || a == ISO_A_INTERNAL;
}

/* Workloads with early findings, and those a window of the last ops can
 * show some of (a transaction's facts; a bank's or counter's bounds and a
 * register's states need what came before). */
static int has_early(isolde_workload w)
{
    const iso_checker *k = iso_checker_of(w);
    return (k && k->kind == ISO_CHECKER_LIN) || w == ISOLDE_WORKLOAD_BANK || w == ISOLDE_WORKLOAD_COUNTER ||
           w == ISOLDE_WORKLOAD_LIST_APPEND || w == ISOLDE_WORKLOAD_RW_REGISTER;
}

static int has_windows(isolde_workload w)
{
    return w == ISOLDE_WORKLOAD_LIST_APPEND || w == ISOLDE_WORKLOAD_RW_REGISTER;
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h * 1099511628211u; /* the terminator, so that "ab" + "c" differs from "a" + "bc" */
}

struct hand_over {
    isolde_stream *s;
    const char *type;
    int per_partition; /* a linearizability model's finding: one per partition */
    isolde_stream_fn fn;
    void *arg;
};

/* A finding's identity across checks of different extents (a window, the
 * whole history), which may tell one anomaly from another transaction on:
 * its type and the ops it names (every "index" in its JSON), as a set. */
static uint64_t identity(const char *type, const char *json)
{
    int64_t idx[64];
    size_t n = 0;
    for (const char *p = strstr(json, "\"index\":"); p && n < 64; p = strstr(p + 1, "\"index\":"))
        idx[n++] = strtoll(p + 8, NULL, 10);
    if (n == 64) return fnv(fnv(14695981039346656037u, type), json); /* too many to sort here: as it is */
    qsort(idx, n, sizeof *idx, iso_cmp_i64);
    uint64_t h = fnv(14695981039346656037u, type);
    for (size_t i = 0; i < n; i++)
        if (!i || idx[i] != idx[i - 1]) h = (h ^ (uint64_t)idx[i]) * 1099511628211u;
    return h;
}

/* A nonlinearizable partition's identity: its type and key (the whole
 * history's when it has none), whichever op a longer prefix fails at. */
static uint64_t partition_identity(const char *type, const char *json)
{
    uint64_t h = fnv(14695981039346656037u, type);
    if (strncmp(json, "{\"key\":", 7)) return h;
    const char *end = strstr(json, ",\"ops-before\":");
    for (const char *p = json + 7; end && p < end; p++) h = (h ^ (unsigned char)*p) * 1099511628211u;
    return end ? h : fnv(h, json);
}

/* A finding of an early check: handed over unless it was before. */
static void hand_over(void *arg, size_t i, const char *text, const char *json)
{
    struct hand_over *x = arg;
    isolde_stream *s = x->s;
    uint64_t h = x->per_partition ? partition_identity(x->type, json) : identity(x->type, json);
    (void)i;
    for (size_t k = 0; k < s->n_seen; k++)
        if (s->seen[k] == h) return;
    iso_grow_for((void **)&s->seen, &s->cap_seen, s->n_seen + 1, sizeof *s->seen, s);
    s->seen[s->n_seen++] = h;
    s->st.findings++;
    if (x->fn) x->fn(x->arg, x->type, text, json);
}

static int hand_over_all(isolde_stream *s, const isolde_result *r, isolde_stream_fn fn, void *arg, isolde_error *err)
{
    const iso_checker *k = iso_checker_of(isolde_result_workload(r));
    for (size_t i = 0; i < isolde_result_type_count(r); i++) {
        struct hand_over x = {s, isolde_result_type(r, i), k && k->kind == ISO_CHECKER_LIN, fn, arg};
        if (certain(isolde_result_workload(r), x.type) &&
            isolde_result_findings(r, x.type, 0, EARLY_PER_TYPE, hand_over, &x, err))
            return -1;
    }
    return 0;
}

/* The batch pipeline over the history read so far, as an early check
 * (iso_check_early: only the edges some read shows, no transaction of an
 * invocation still open); a history error or limit there turns early
 * checks off (the final check will say it). Out of memory unwinds. */
static int early_check(isolde_stream *s, isolde_stream_fn fn, void *arg, isolde_error *err)
{
    isolde_error e;
    size_t complete = s->complete; /* what this check takes */
    isolde_result *r = NULL;
    if (iso_check_early(s->h, &s->co, &r, &e)) s->early = 0;
    isolde_workload w = r ? isolde_result_workload(r) : ISOLDE_WORKLOAD_AUTO;
    if (r && !has_early(w)) s->early = 0;
    s->windows = has_windows(w);
    int rc = s->early ? hand_over_all(s, r, fn, arg, err) : 0;
    s->st.checked = complete;
    isolde_result_free(r);
    return rc;
}

/* The lines of ops h->ops[from ..) as a history text of its own, less each
 * completion whose invocation comes before them (its transaction is not
 * in the window); *len bytes. */
static char *window_text(const isolde_stream *s, size_t from, size_t *len)
{
    const isolde_history *h = s->h;
    uint8_t *open = iso_xcalloc(h->procs.n + 1, 1); /* per process: an invocation of it in the window */
    uint32_t *skip = iso_xmalloc((h->n_ops - from + 1) * sizeof *skip);
    size_t n_skip = 0;
    for (size_t i = from; i < h->n_ops; i++) {
        const iso_op *o = &h->ops[i];
        if (o->type == ISO_OP_INVOKE) open[o->process] = 1;
        else if (!open[o->process]) skip[n_skip++] = o->line;
        else open[o->process] = 0;
    }
    size_t off = op_offset(s, from) - s->base, done = s->done - s->base, at = 0, k = 0, line = h->ops[from].line;
    char *out = iso_xmalloc(done - off + 1);
    for (size_t p = off; p < done; line++) {
        const char *nl = memchr(s->bytes + p, '\n', done - p);
        size_t end = (size_t)(nl - s->bytes) + 1; /* every line before done ends with one */
        if (k < n_skip && skip[k] == line) k++;
        else memcpy(out + at, s->bytes + p, end - p), at += end - p;
        p = end;
    }
    iso_free(open);
    iso_free(skip);
    *len = at;
    return out;
}

/* An early check of the last ops alone (those since the last window check
 * and WINDOW_MIN_OPS before them): what it finds among them is
 * certain as the whole history's early check's is (docs/ONLINE.md), and it
 * costs what the window does, not the history. Only for ops that carry
 * their :index (a window read alone numbers its ops from 0). */
static int window_check(isolde_stream *s, isolde_stream_fn fn, void *arg, isolde_error *err)
{
    size_t n = s->h->n_ops, want = n - s->window_ops + WINDOW_MIN_OPS;
    s->window_ops = n;
    window_moved(s);
    if (s->h->dense_index || want >= n) return 0;
    size_t len = 0;
    char *bytes = window_text(s, n - want, &len);
    isolde_read_opts ro = s->ro;
    ro.format = isolde_history_format(s->h);
    isolde_history *w = NULL;
    isolde_result *r = NULL;
    isolde_error e;
    int rc = 0;
    if (!isolde_history_read_mem(s->name, bytes, len, &ro, &w, &e) && !iso_check_early(w, &s->co, &r, &e) &&
        has_windows(isolde_result_workload(r)))
        rc = hand_over_all(s, r, fn, arg, err);
    iso_free(bytes);
    isolde_result_free(r);
    isolde_history_free(w);
    s->st.window_checks++;
    return rc;
}

struct poll_call {
    isolde_stream *s;
    isolde_stream_fn fn;
    void *arg;
};

static int poll(void *arg, isolde_error *err)
{
    struct poll_call *c = arg;
    isolde_stream *s = c->s;
    double t0 = iso_now();
    if (!s->early || atomic_load(&s->cancel) || s->st.ops == s->checked_ops) return 0;
    iso_guard_cancel_on(&s->cancel);
    size_t fresh = s->st.ops - s->window_ops; /* a window of a quarter of the history or more: the whole instead */
    if (s->windows && fresh && 4 * fresh < s->st.ops && t0 >= s->next_window_at && s->checked_ops) { /* the window first */
        int rc = window_check(s, c->fn, c->arg, err);
        double t1 = iso_now();
        s->next_window_at = t1 + 2 * (t1 - t0);
        return rc;
    }
    if (t0 < s->next_at) return 0;
    s->checked_ops = s->window_ops = s->st.ops;
    window_moved(s);
    int rc = early_check(s, c->fn, c->arg, err);
    double t1 = iso_now();
    s->next_at = t1 + 2 * (t1 - t0);
    s->st.early_checks++;
    return rc;
}

isolde_status isolde_stream_poll(isolde_stream *s, isolde_stream_fn fn, void *arg, isolde_error *err)
{
    struct poll_call c = {s, fn, arg};
    isolde_status rc = iso_call(poll, &c, err);
    if (rc == ISOLDE_ERR_CANCELLED) s->early = 0;
    return rc == ISOLDE_ERR_CANCELLED ? ISOLDE_OK : rc;
}

void isolde_stream_cancel(isolde_stream *s)
{
    if (s) atomic_store(&s->cancel, 1);
}

/* ---- the end ------------------------------------------------------------ */

void isolde_stream_stats_get(const isolde_stream *s, isolde_stream_stats *out)
{
    *out = s->st;
}

/* The history grown line by line is the batch's (the reader reads each
 * line alone either way); a last line without its newline is read now, as
 * the batch reads a file's last line (cut short: left out, and a warning). */
isolde_status isolde_stream_finish(isolde_stream *s, isolde_history **out, isolde_error *err)
{
    isolde_status rc = ISOLDE_OK;
    *out = NULL;
    if (!s->h) {
        iso_fail(err, ISOLDE_ERR_USAGE, s->name, 0, 0, "the stream was finished before");
        return ISOLDE_ERR_USAGE;
    }
    if (s->n > s->done) rc = iso_history_append_end(s->h, s->bytes + (s->done - s->base), s->n - s->done, err);
    if (rc) return rc;
    *out = s->h;
    s->h = NULL;
    return ISOLDE_OK;
}

void isolde_stream_free(isolde_stream *s)
{
    if (!s) return;
    isolde_history_free(s->h);
    iso_free(s->bytes);
    iso_free(s->seen);
    iso_free(s->name);
    iso_free(s);
}
