/*
 * history/read.c -- reading a history from memory or a file, and growing
 * one by appending lines: the byte order mark, format detection, and the
 * format table that sends the bytes to their reader (read_*.c). A file's
 * bytes come from input.c (mapped when it is a regular file, else read;
 * inflated when gzip). A read of a history of one op per line whose last
 * line a kill cut short is a read of the lines before it, with a warning;
 * nothing else is ever left out.
 *
 * An append is read into a history of its own, then merged (atoms
 * renumbered, composites moved, ops added), so that a failed append leaves
 * the history as it was.
 */
#include "history/read.h"
#include "history/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef int (*reader_fn)(isolde_history *h, const char *buf, size_t len, isolde_error *err);
typedef int (*cut_fn)(const char *name, const char *buf, size_t len, isolde_error *err);

/* The format table: a name, its reader, whether it reads line by line
 * (so that a history in it can grow by appends), and for the formats
 * whose lines are values (JSON, EDN), whether a line ends inside a value
 * (a last line cut short). */
static const struct format {
    const char *name;
    reader_fn read;
    int lines;
    const char *words; /* what it is, for messages */
    cut_fn cut;
} formats[] = {
    [ISOLDE_FORMAT_AUTO] = {"auto", NULL, 1, "auto", NULL},
    [ISOLDE_FORMAT_EDN] = {"edn", iso_read_edn, 1, "Jepsen EDN", iso_edn_cut},
    [ISOLDE_FORMAT_JSON] = {"json", iso_read_json, 1, "elle-cli JSON", iso_json_cut},
    [ISOLDE_FORMAT_JSONL] = {"jsonl", iso_read_json, 1, "JSON lines", iso_json_cut},
    [ISOLDE_FORMAT_ONELITE] = {"onelite", iso_read_onelite, 0, "OneLite JSON lines", NULL},
    [ISOLDE_FORMAT_ISOCHECK] = {"isocheck", iso_read_json, 1, "IsoCheck JSON lines", iso_json_cut},
    [ISOLDE_FORMAT_JEPSEN_LOG] = {"jepsen-log", iso_read_jepsen_log, 1, "jepsen.log text lines", NULL},
    [ISOLDE_FORMAT_JEPSEN_TXT] = {"jepsen-txt", iso_read_jepsen_txt, 1, "Jepsen's history.txt", NULL},
    [ISOLDE_FORMAT_PLUME] = {"plume", iso_read_plume, 0, "Plume's text", NULL},
    [ISOLDE_FORMAT_DBCOP] = {"dbcop", iso_read_dbcop, 0, "dbcop's bincode", NULL},
    [ISOLDE_FORMAT_AWDIT] = {"awdit", iso_read_awdit, 0, "AWDIT's test format", NULL},
    [ISOLDE_FORMAT_COBRA] = {"cobra", iso_read_cobra, 0, "Cobra's logs", NULL},
    [ISOLDE_FORMAT_CHRONOS] = {"chronos", iso_read_chronos, 0, "Chronos's JSON", NULL},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

void isolde_read_opts_init(isolde_read_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
}

/* The caller's options as this library knows them (defaults for fields a
 * smaller, older struct lacks); -1 when they were never initialised. */
static int read_opts(const isolde_read_opts *user, isolde_read_opts *o, isolde_error *err)
{
    isolde_read_opts_init(o);
    if (!user) return 0;
    if (user->size < offsetof(isolde_read_opts, format) + sizeof user->format)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "read options not initialised (isolde_read_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    if ((unsigned)o->format >= N_FORMATS)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown history format %d", (int)o->format);
    return 0;
}

/* Bytes without a leading UTF-8 byte order mark. */
static const char *skip_bom(const char *data, size_t *len)
{
    if (*len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
        *len -= 3;
        return data + 3;
    }
    return data;
}

/* A new history named name, of format f once data decides AUTO; *why
 * says why it is f when data decided (else NULL). */
static isolde_history *history_for(const char *name, isolde_format f, const char *data, size_t len,
                                   const char **why)
{
    *why = NULL;
    if (f == ISOLDE_FORMAT_AUTO) f = iso_detect_format(data, len, why);
    isolde_history *h = iso_history_new(name, f);
    if (f == ISOLDE_FORMAT_JEPSEN_LOG) h->cas_fail_false = 1;
    return h;
}

static size_t count_lines(const char *p, size_t len);

/* When no op of data[0, len) is a client op: how many lines it has and
 * what format it looks like, for the words that say so (the check). */
static void note_no_client(isolde_history *h, const char *data, size_t len)
{
    for (size_t i = 0; i < h->n_ops; i++)
        if (iso_op_is_client(&h->ops[i])) return;
    h->n_lines = h->line_base + count_lines(data, len) + (len && data[len - 1] != '\n');
    h->looks_like = iso_detect_format(data, len, NULL);
}

/* The first byte that is not a space or tab on line number line (from 1)
 * of data, or 0. */
static char line_start(const char *data, size_t len, unsigned long line)
{
    size_t i = 0;
    for (unsigned long l = 1; l < line && i < len; i++) l += data[i] == '\n';
    while (i < len && (data[i] == ' ' || data[i] == '\t')) i++;
    return i < len ? data[i] : 0;
}

/* A parse error before any op was read, on a line that cannot begin an op
 * of the JSON or EDN format detection chose (why: its reason): the input
 * is another kind of file, and the reader's words alone would read as if
 * it were one gone wrong, so the message says so, and names the format
 * tried and why. */
static void name_the_guess(const isolde_history *h, const char *why, const char *data, size_t len, isolde_error *err)
{
    int values = formats[h->format].cut != NULL; /* JSON or EDN: a format of values */
    if (err->code != ISOLDE_ERR_PARSE || h->n_ops || !why || !values) return;
    long line = err->line - (long)h->line_base;
    char c = line > 0 ? line_start(data, len, (unsigned long)line) : 0;
    if (!c || strchr("{[(#", c)) return;
    char msg[sizeof err->msg + 256];
    snprintf(msg, sizeof msg, "not a history: read as %s (%s): %s", formats[h->format].words, why, err->msg);
    memcpy(err->msg, msg, sizeof err->msg - 1); /* cut to fit */
    err->msg[sizeof err->msg - 1] = '\0';
}

/* ---- a last line cut short ------------------------------------------------ */

/* Where data's first value begins: its first byte after white space and
 * comment lines (len when there is none). */
static size_t first_value(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len) {
        char c = data[i];
        if (c == '#' || c == ';') {
            const char *nl = memchr(data + i, '\n', len - i);
            i = nl ? (size_t)(nl - data) : len;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ',') {
            return i;
        }
        i++;
    }
    return len;
}

/* Where the reader stops in data: before its last line when that line is
 * cut short (no newline after it, and it ends inside a value: why says
 * how), else at len. A history that is one value, or whose only line it
 * is, is never cut: its error says more. */
static size_t cut_line(const isolde_history *h, const char *data, size_t len, isolde_error *why)
{
    const struct format *f = &formats[h->format];
    size_t first = first_value(data, len);
    /* one value (an array, a vector) cut short is no line cut short */
    if (!len || data[len - 1] == '\n' || !f->cut || first == len || data[first] == '[' || data[first] == '(')
        return len;
    size_t start = len;
    while (start > 0 && data[start - 1] != '\n') start--;
    if (start <= first) return len; /* the only line: nothing else to check, its error says more */
    return f->cut(h->name, data + start, len - start, why) ? start : len;
}

/* h warns that its last line, after data[0, kept), was cut short. */
static void warn_cut(isolde_history *h, const char *data, size_t kept, const isolde_error *why)
{
    size_t line = h->line_base + count_lines(data, kept) + 1;
    iso_history_warn(h, ISO_WARN_CUT_LINE, line < UINT32_MAX ? (uint32_t)line : UINT32_MAX, 1, why->msg);
}

/* Read data[0, len) into a new *out (mapped: data is a private file
 * mapping of ours): all of it, or with cut, what comes before a last line
 * cut short (*kept: how much), warning of it; when what comes before it
 * does not read either, the error is the whole input's. */
static int read_kept(const char *name, const char *data, size_t len, isolde_format format, int mapped,
                     int cut, size_t *kept, isolde_history **out, isolde_error *err)
{
    const char *guess;
    isolde_history *h = history_for(name, format, data, len, &guess);
    isolde_error why;
    h->drop_input = mapped;
    *kept = cut ? cut_line(h, data, len, &why) : len;
    int rc = formats[h->format].read(h, data, *kept, err);
    if (rc == 0 && *kept < len) warn_cut(h, data, *kept, &why);
    h->drop_input = 0; /* the input is gone after this */
    if (rc && *kept < len) {
        isolde_history_free(h);
        return read_kept(name, data, len, format, mapped, 0, kept, out, err);
    }
    if (rc) name_the_guess(h, guess, data, len, err);
    if (rc) isolde_history_free(h);
    else *out = h;
    return rc;
}

/* Read data[0, len) into the new *out; mapped: data is a private file
 * mapping of ours. */
static int read_buffer(const char *name, const char *data, size_t len, isolde_format format,
                       int mapped, isolde_history **out, isolde_error *err)
{
    size_t kept;
    if (format != ISOLDE_FORMAT_DBCOP && format != ISOLDE_FORMAT_COBRA && iso_input_text(name, "a history", data, len, err)) return -1;
    data = skip_bom(data, &len);
    if (read_kept(name, data, len, format, mapped, 1, &kept, out, err)) return -1;
    note_no_client(*out, data, kept);
    return 0;
}

/* Bytes the caller gave: NULL with no length is no bytes (""), NULL with
 * a length is a caller's bug. */
static int caller_bytes(const char *name, const char **data, size_t len, isolde_error *err)
{
    if (!*data && len)
        return iso_fail(err, ISOLDE_ERR_USAGE, name, 0, 0, "no data (NULL) but a length of %zu bytes", len);
    if (!*data) *data = "";
    return 0;
}

struct mem_call {
    const char *name, *data;
    size_t len;
    const isolde_read_opts *user;
    isolde_history **out;
};

static int read_mem(void *arg, isolde_error *err)
{
    struct mem_call *c = arg;
    isolde_read_opts o;
    if (caller_bytes(c->name, &c->data, c->len, err) || read_opts(c->user, &o, err)) return -1;
    return read_buffer(c->name, c->data, c->len, o.format, 0, c->out, err);
}

isolde_status isolde_history_read_mem(const char *name, const char *data, size_t len,
                                      const isolde_read_opts *o, isolde_history **out,
                                      isolde_error *err)
{
    struct mem_call c = {name, data, len, o, out};
    *out = NULL;
    isolde_status s = iso_call(read_mem, &c, err);
    if (s) *out = NULL;
    return s;
}

/* ---- files ------------------------------------------------------------ */

struct file_call {
    const char *path;
    const isolde_read_opts *user;
    isolde_history **out;
    iso_input in;    /* the input: a mapping (unmapped after the call), or memory */
};

static int read_file(void *arg, isolde_error *err)
{
    struct file_call *c = arg;
    isolde_read_opts o;
    if (read_opts(c->user, &o, err) || iso_input_open(c->path, "a history", &c->in, err)) return -1;
    if (c->in.dir && o.format != ISOLDE_FORMAT_AUTO && o.format != ISOLDE_FORMAT_COBRA) {
        iso_free(c->in.buf); /* a directory's logs are memory, never a mapping */
        c->in.buf = NULL;
        return iso_fail(err, ISOLDE_ERR_USAGE, c->in.name, 0, 0, "a directory is read as Cobra's logs, not as %s",
                        formats[o.format].name);
    }
    int r = read_buffer(c->in.name, c->in.buf ? c->in.buf : "", c->in.len, o.format, c->in.mapped, c->out, err);
    iso_input_done(&c->in);
    if (!c->in.mapped) {
        iso_free(c->in.buf);
        c->in.buf = NULL;
    }
    return r;
}

/* A mapped file shrank while it was read (the guard caught the bus
 * fault, or the reader met the zeros after its new end): say which, and
 * how. */
static void shrank(const struct file_call *c, isolde_error *err)
{
    struct stat st;
    char now[64] = "it is gone now";
    if (stat(c->path, &st) == 0) snprintf(now, sizeof now, "%lld now", (long long)st.st_size);
    iso_fail(err, ISOLDE_ERR_IO, c->in.name, 0, 0,
             "the file shrank while it was read (%zu bytes when opened, %s): is something still writing "
             "it? Check it once it is complete, or a copy", c->in.len, now);
}

isolde_status isolde_history_read_file(const char *path, const isolde_read_opts *o,
                                       isolde_history **out, isolde_error *err)
{
    struct file_call c = {path, o, out, {0}};
    *out = NULL;
    iso_phase(NULL);
    isolde_status s = iso_call(read_file, &c, err);
    struct stat st; /* whatever failed, a mapped file that shrank is why (past its end a page reads 0s) */
    if (s && c.in.mapped && c.in.buf && err && (stat(path, &st) != 0 || (size_t)st.st_size < c.in.len)) shrank(&c, err);
    iso_input_unmap(&c.in); /* a read buffer went with the call */
    if (s) *out = NULL;
    iso_phase("read");
    return s;
}

/* ---- growing a history ------------------------------------------------------ */

struct new_call {
    const char *name;
    const isolde_read_opts *user;
    isolde_history **out;
};

static int new_history(void *arg, isolde_error *err)
{
    struct new_call *c = arg;
    isolde_read_opts o;
    if (read_opts(c->user, &o, err)) return -1;
    if (!formats[o.format].lines)
        return iso_fail(err, ISOLDE_ERR_USAGE, c->name, 0, 0,
                        "a %s history cannot grow line by line", formats[o.format].name);
    *c->out = iso_history_new(c->name, o.format);
    return 0;
}

isolde_status isolde_history_new(const char *name, const isolde_read_opts *o, isolde_history **out,
                                 isolde_error *err)
{
    struct new_call c = {name, o, out};
    *out = NULL;
    isolde_status s = iso_call(new_history, &c, err);
    if (s) *out = NULL;
    return s;
}

/* Room in h for all of h2, kept with h's memory: once it is made, the
 * merge allocates nothing but its renumbering, so memory running out
 * leaves h as it was. */
static void reserve(isolde_history *h, const isolde_history *h2)
{
    const iso_store *s2 = &h2->store;
    iso_store_reserve(&h->store, s2->n_atoms, s2->n_text, s2->n_words, h);
    iso_grow_for((void **)&h->ops, &h->cap_ops, h->n_ops + h2->n_ops, sizeof *h->ops, h);
    iso_grow_for((void **)&h->extras, &h->cap_extras, h->n_extras + h2->n_extras, sizeof *h->extras, h);
}

static size_t count_lines(const char *p, size_t len)
{
    size_t n = 0;
    for (const char *end = p + len; (p = memchr(p, '\n', (size_t)(end - p))); p++) n++;
    return n;
}

struct append_call {
    isolde_history *h;
    const char *data;
    size_t len;
};

static int append(void *arg, isolde_error *err)
{
    struct append_call *c = arg;
    isolde_history *h = c->h;
    if (caller_bytes(h->name, &c->data, c->len, err)) return -1;
    int first = !h->n_ops && !h->line_base;
    if (first && iso_input_text(h->name, "a history", c->data, c->len, err)) return -1;
    const char *data = first ? skip_bom(c->data, &c->len) : c->data;
    const char *why = NULL; /* set when this append decides the format */
    if (h->format == ISOLDE_FORMAT_AUTO && !h->n_ops) {
        isolde_history *fresh = history_for(h->name, ISOLDE_FORMAT_AUTO, data, c->len, &why);
        isolde_format f = fresh->format;
        h->cas_fail_false = fresh->cas_fail_false;
        isolde_history_free(fresh);
        if (!formats[f].lines) /* as isolde_history_new refuses it */
            return iso_fail(err, ISOLDE_ERR_USAGE, h->name, 0, 0, "a %s history (%s) cannot grow line by line",
                            formats[f].name, why);
        h->format = f;
    }
    isolde_history *h2 = iso_history_new(h->name, h->format);
    h2->line_base = h->line_base;
    h2->index_fixed = h->n_ops > 0 || h->index_fixed;
    h2->dense_index = h->dense_index;
    h2->index_base = h->n_ops;
    if ((h2->has_before = h->n_ops > 0)) {
        h2->before_index = h->ops[h->n_ops - 1].index;
        h2->before_line = h->ops[h->n_ops - 1].line;
    }
    int rc = formats[h->format].read(h2, data, c->len, err);
    if (rc) name_the_guess(h2, why, data, c->len, err);
    if (rc == 0) reserve(h, h2);
    if (rc == 0 && iso_history_merge(h, h2, 0) != 0) /* h2's lines go on from h's */
        rc = iso_fail(err, ISOLDE_ERR_LIMIT, h->name, 0, 0, "more than %zu ops in one history, with the %zu appended",
                      ISO_MAX_OPS, h2->n_ops);
    if (rc == 0) {
        h->index_fixed |= h->n_ops > 0;
        note_no_client(h, data, c->len);
        h->line_base += count_lines(data, c->len);
    }
    isolde_history_free(h2);
    return rc;
}

isolde_status isolde_history_append_mem(isolde_history *h, const char *data, size_t len,
                                        isolde_error *err)
{
    struct append_call c = {h, data, len};
    return iso_call(append, &c, err);
}

/* The input's last line, with no newline after it, once ops came before:
 * cut short, it is left out with the batch's warning (read_kept); else
 * read as any line. */
static int append_end(void *arg, isolde_error *err)
{
    struct append_call *c = arg;
    isolde_history *h = c->h;
    const struct format *f = &formats[h->format];
    size_t first = first_value(c->data, c->len);
    isolde_error why;
    if (!h->n_ops || !f->cut || first == c->len || c->data[first] == '[' || c->data[first] == '(' ||
        memchr(c->data, '\n', c->len) || !f->cut(h->name, c->data, c->len, &why))
        return append(arg, err);
    warn_cut(h, c->data, 0, &why);
    return 0;
}

isolde_status iso_history_append_end(isolde_history *h, const char *data, size_t len, isolde_error *err)
{
    struct append_call c = {h, data, len};
    return iso_call(append_end, &c, err);
}

/* ---- names ---------------------------------------------------------- */

const char *isolde_format_name(isolde_format f)
{
    return (unsigned)f < N_FORMATS ? formats[f].name : "?";
}

isolde_status isolde_format_parse(const char *name, isolde_format *out)
{
    for (size_t i = 0; name && i < N_FORMATS; i++)
        if (strcmp(formats[i].name, name) == 0) {
            *out = (isolde_format)i;
            return ISOLDE_OK;
        }
    return ISOLDE_ERR_USAGE;
}
