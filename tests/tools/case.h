/*
 * case.h -- the test cases of tests/data as data: a history file carries
 * what `isolde check` must say of it in its leading comment lines (format:
 * tests/data/README), read here for both sides that check it -- the CLI's,
 * through tests/tools/case.c, and the library's, through
 * tests/unit/cases.h -- so that one header says it once. Also the tables
 * of malformed inputs (tests/data/read/malformed.tsv). The invariant: a
 * header either parses whole, every key known and every run with a
 * verdict, or is refused naming FILE:LINE; nothing in it is ever skipped
 * silently, so a case cannot stop asserting by a typo.
 */
#ifndef ISO_TEST_CASE_H
#define ISO_TEST_CASE_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The keys, in the order tests/data/README describes them. EDGE is the
 * rw-register unit test's alone (an edge of the dependency graph, which
 * only the library shows); ORACLE is t2700's (the brute-force oracle's
 * verdict where isolde, sound only there, answers otherwise); every other
 * key both sides check. */
enum case_key {
    CK_CHECK, CK_STATUS, CK_TYPES, CK_NOT, CK_COUNT, CK_OUT, CK_JSON, CK_ERROR, CK_EDGE, CK_ORACLE, CK_N
};
static const char *const case_key_names[CK_N] = {"check", "status", "types", "not", "count",
                                                 "out", "json", "error", "edge", "oracle"};

typedef struct case_line {
    int key;     /* enum case_key */
    char *value; /* after "key: ", trimmed */
    int line;    /* its line in the header's file */
} case_line;

typedef struct case_file {
    char path[1024];  /* the history */
    char from[1040];  /* where the header is: the history, or its sidecar PATH.case */
    char what[1024];  /* the first header line: what the case proves */
    case_line *lines; /* the key lines, in order */
    size_t n;
    char err[2200];   /* why the header was refused */
} case_file;

static inline void case_file_free(case_file *cf)
{
    for (size_t i = 0; i < cf->n; i++) free(cf->lines[i].value);
    free(cf->lines);
    cf->lines = NULL;
    cf->n = 0;
}

/* Refuses the header: cf->err says FILE:LINE: why. Returns -1. */
static inline int case_refuse(case_file *cf, int line, const char *fmt, ...)
{
    char why[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(cf->err, sizeof cf->err, "%s:%d: %s", cf->from, line, why);
    return -1;
}

/* s without leading and trailing blanks (in place). */
static inline char *case_trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    s[n] = '\0';
    return s;
}

/* The key a header line names: its index, -1 for free text (no
 * "word: "), -2 for a word that is no key. */
static inline int case_key_of(char *s, char **value)
{
    size_t n = 0;
    while (islower((unsigned char)s[n]) || s[n] == '-') n++;
    if (n == 0 || s[n] != ':' || (s[n + 1] != ' ' && s[n + 1] != '\0')) return -1;
    *value = s + n + 1;
    for (int k = 0; k < CK_N; k++)
        if (strlen(case_key_names[k]) == n && strncmp(s, case_key_names[k], n) == 0) return k;
    return -2;
}

/* Whether a and b are at most two edits apart (a key mistyped). */
static inline int case_near(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b), d[40], prev;
    if (na >= 39 || nb >= 39) return 0;
    for (size_t j = 0; j <= nb; j++) d[j] = j;
    for (size_t i = 1; i <= na; i++) {
        prev = d[0];
        d[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t sub = prev + (a[i - 1] != b[j - 1]), t = d[j];
            d[j] = sub < d[j] + 1 ? sub : d[j] + 1;
            if (d[j - 1] + 1 < d[j]) d[j] = d[j - 1] + 1;
            prev = t;
        }
    }
    return d[nb] <= 2;
}

/* One header line's text (its comment mark gone): the description, more
 * of it, or a key line. Once keys begin, every line is one; before, a
 * line opening with a word near a key's name is refused as a typo. 0, or
 * -1 when refused. */
static inline int case_add_line(case_file *cf, char *text, int line)
{
    char *value = NULL;
    int key = case_key_of(text, &value);
    if (!cf->what[0]) {
        if (key >= 0 || !text[0]) return case_refuse(cf, line, "the first line says what the case proves");
        snprintf(cf->what, sizeof cf->what, "%s", text);
        return 0;
    }
    size_t n = strcspn(text, ":");
    int near = 0;
    for (int k = 0; key == -2 && k < CK_N; k++) near |= case_near(text, n, case_key_names[k]);
    if (key < 0 && !cf->n && !near) return 0; /* more words on what it proves */
    if (key < 0) return case_refuse(cf, line, "unknown key \"%.*s\" (tests/data/README lists them)", (int)n, text);
    case_line *l = realloc(cf->lines, (cf->n + 1) * sizeof *l);
    if (!l) return case_refuse(cf, line, "out of memory");
    cf->lines = l;
    char *v = strdup(case_trim(value));
    if (!v) return case_refuse(cf, line, "out of memory");
    l[cf->n++] = (case_line){key, v, line};
    return 0;
}

/* The comment mark of f's first line (';' or '#'), or 0. */
static inline int case_mark(FILE *f)
{
    int c = fgetc(f);
    if (c != EOF) ungetc(c, f);
    return c == ';' || c == '#' ? c : 0;
}

/* Reads the header lines of f (those opening with mark; every line of a
 * sidecar, which opens with ';'). */
static inline int case_read_lines(case_file *cf, FILE *f, int sidecar)
{
    char buf[4096];
    int mark = case_mark(f), line = 0;
    if (!mark) return case_refuse(cf, 1, "no header: it opens with no ';' or '#' line%s",
                                  sidecar ? "" : " (a format without comments takes a sidecar FILE.case)");
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[0] != mark) {
            if (!sidecar) break;
            return case_refuse(cf, line, "a sidecar holds only '%c' lines", mark);
        }
        char *text = buf;
        while (*text == mark) text++;
        if (case_add_line(cf, case_trim(text), line)) return -1;
    }
    return 0;
}

/* ---- runs ------------------------------------------------------------- */

/* The header's runs: each "check:" line opens one, and the keys after it
 * are what it must say; a header without "check:" is one run of `isolde
 * check FILE`. */
static inline size_t case_run_count(const case_file *cf)
{
    size_t n = 0;
    for (size_t i = 0; i < cf->n; i++) n += cf->lines[i].key == CK_CHECK;
    return n ? n : cf->n > 0;
}

/* [begin, end): run r's lines in cf->lines (its "check:" line first);
 * 0 past the last run. */
static inline int case_run_bounds(const case_file *cf, size_t r, size_t *begin, size_t *end)
{
    size_t i = 0, k = 0;
    if (cf->n && cf->lines[0].key == CK_CHECK) {
        for (; i < cf->n && k <= r; i++) k += cf->lines[i].key == CK_CHECK;
        if (k <= r) return 0;
        i--;
    } else if (r > 0) {
        return 0;
    }
    *begin = i;
    for (i++; i < cf->n && cf->lines[i].key != CK_CHECK; i++) {}
    *end = i;
    return 1;
}

/* The first line of key in [b, e), or NULL. */
static inline const case_line *case_find(const case_file *cf, size_t b, size_t e, int key)
{
    for (size_t i = b; i < e; i++)
        if (cf->lines[i].key == key) return &cf->lines[i];
    return NULL;
}

/* A run says its verdict once: status (0 1 2), or error (then status is
 * absent or 3); types, not, count, out and json belong to a verdict. */
static inline int case_run_check(case_file *cf, size_t b, size_t e)
{
    int once[CK_N] = {0};
    for (size_t i = b; i < e; i++) {
        const case_line *l = &cf->lines[i];
        if (l->key <= CK_NOT || l->key == CK_ERROR) {
            if (once[l->key]++) return case_refuse(cf, l->line, "%s: given twice in one run", case_key_names[l->key]);
        }
        if (l->key == CK_STATUS && (strlen(l->value) != 1 || !strchr("0123", l->value[0])))
            return case_refuse(cf, l->line, "status: 0, 1, 2 or 3, not \"%s\"", l->value);
        if (l->key == CK_ORACLE && strcmp(l->value, "valid") && strcmp(l->value, "invalid"))
            return case_refuse(cf, l->line, "oracle: valid or invalid, not \"%s\"", l->value);
    }
    const case_line *st = case_find(cf, b, e, CK_STATUS), *er = case_find(cf, b, e, CK_ERROR);
    int line = cf->lines[b].line;
    if (!st && !er) return case_refuse(cf, line, "a run needs status: or error:");
    if (er && st && st->value[0] != '3') return case_refuse(cf, st->line, "error: means status 3");
    if (!er && st->value[0] == '3') return case_refuse(cf, st->line, "status: 3 needs error: saying which");
    for (size_t i = b; er && i < e; i++)
        if (cf->lines[i].key > CK_STATUS && cf->lines[i].key < CK_ERROR)
            return case_refuse(cf, cf->lines[i].line, "%s: with error: (an error has no result)",
                               case_key_names[cf->lines[i].key]);
    return 0;
}

static inline int case_runs_check(case_file *cf)
{
    size_t b, e, n = case_run_count(cf);
    if (n == 0) return case_refuse(cf, 1, "no verdict: the header has no check:, status: or error:");
    if (cf->lines[0].key != CK_CHECK && case_find(cf, 0, cf->n, CK_CHECK))
        return case_refuse(cf, cf->lines[0].line, "%s: before the first check:", case_key_names[cf->lines[0].key]);
    for (size_t r = 0; r < n && case_run_bounds(cf, r, &b, &e); r++)
        if (case_run_check(cf, b, e)) return -1;
    return 0;
}

/* Reads path's header (from path.case when that exists). 0, or -1 with
 * cf->err saying why. */
static inline int case_read(case_file *cf, const char *path)
{
    memset(cf, 0, sizeof *cf);
    snprintf(cf->path, sizeof cf->path, "%s", path);
    snprintf(cf->from, sizeof cf->from, "%s.case", path);
    struct stat st;
    int sidecar = stat(cf->from, &st) == 0;
    if (!sidecar) snprintf(cf->from, sizeof cf->from, "%s", path);
    FILE *f = fopen(cf->from, "r");
    if (!f) return case_refuse(cf, 0, "cannot open: %s", strerror(errno));
    int r = case_read_lines(cf, f, sidecar);
    fclose(f);
    /* a header and a sidecar: which one holds? (A '#' line may be the
     * file's own, as a Markdown title is.) */
    if (r == 0 && sidecar && (f = fopen(path, "r"))) {
        int mark = case_mark(f);
        fclose(f);
        if (mark == ';') return case_refuse(cf, 1, "%s has a header of its own too", path);
    }
    return r ? r : case_runs_check(cf);
}

/* ---- arguments ----------------------------------------------------- */

/* Splits s into words at blanks, '...' quoting (no other escapes: '' is
 * an empty word), into buf; argv gets at most max words. The count, or
 * -1 (an unterminated quote, too many words, too long). */
static inline int case_words(const char *s, char **argv, int max, char *buf, size_t size)
{
    int n = 0, q = 0;
    size_t j = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) return n;
        if (n == max) return -1;
        argv[n++] = buf + j;
        for (; *s && (q || (*s != ' ' && *s != '\t')); s++) {
            if (*s == '\'') q = !q;
            else if (j + 2 >= size) return -1;
            else buf[j++] = *s;
        }
        if (q) return -1;
        buf[j++] = '\0';
    }
}

/* ---- what a run found, and whether it is what the header says -------------- */

/* What one run of a case gave: from the CLI (exit status, stdout, stderr)
 * or from the library (validity, the writers' output, the error). */
typedef struct case_got {
    int status;         /* 0 1 2 (the verdict), 3 (an error) */
    const char *text;   /* the text report ("" when none) */
    const char *json;   /* the JSON result ("" when none) */
    const char *errors; /* the error and warnings, one a line: "FILE:L:C: message" */
    const char *types;  /* the anomaly or error types, sorted, one space between */
    const char *nots;   /* Elle's :not, sorted, one space between */
    /* how many of a type were found; -1 when it cannot be told */
    long (*count)(void *ctx, const char *type);
    void *ctx;
} case_got;

/* Words of s sorted, one space between, into out. */
static inline void case_sorted(const char *s, char *out, size_t size)
{
    char buf[2048], *w[128];
    int n = case_words(s, w, 128, buf, sizeof buf);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(w[j - 1], w[j]) > 0; j--) {
            char *t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", w[i]);
}

/* Whether errors has a line holding "FILE:L:C: " with msg after it, for
 * want "L:C MSG" (an error at L:C of FILE); for want "MSG", a line holding
 * it (an error elsewhere, or without a place). */
static inline int case_has_error(const char *errors, const char *file, const char *want)
{
    char pos[1100] = "";
    long l, c;
    int n = 0;
    if (sscanf(want, "%ld:%ld %n", &l, &c, &n) == 2 && n > 0) {
        snprintf(pos, sizeof pos, "%s:%ld:%ld: ", file, l, c);
        want += n;
    }
    for (const char *p = errors; p && *p;) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p), *at = pos[0] ? strstr(p, pos) : p;
        const char *m = at && at < end ? strstr(at, want) : NULL;
        if (m && m + strlen(want) <= end) return 1;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

/* Reports one disagreement of a run (its header line, what it says, what
 * came). */
static inline int case_differs(FILE *out, const case_file *cf, const case_line *l, const char *fmt, ...)
{
    char got[1500];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(got, sizeof got, fmt, ap);
    va_end(ap);
    fprintf(out, "%s:%d: %s: %s: %s\n", cf->from, l->line, case_key_names[l->key], l->value, got);
    return 1;
}

static inline int case_compare_list(FILE *out, const case_file *cf, const case_line *l, const char *got)
{
    char want[2048], have[2048];
    case_sorted(l->value, want, sizeof want);
    case_sorted(got ? got : "", have, sizeof have);
    return strcmp(want, have) ? case_differs(out, cf, l, "got [%s]", have) : 0;
}

static inline int case_compare_count(FILE *out, const case_file *cf, const case_line *l, const case_got *g)
{
    char type[256];
    long want, have;
    if (sscanf(l->value, "%255s %ld", type, &want) != 2) return case_differs(out, cf, l, "not \"TYPE N\"");
    have = g->count ? g->count(g->ctx, type) : -1;
    return have != want ? case_differs(out, cf, l, "got %ld", have) : 0;
}

static inline int case_compare_status(FILE *out, const case_file *cf, const case_line *l, const case_got *g)
{
    if (g->status == l->value[0] - '0') return 0;
    if (g->status == 3) return case_differs(out, cf, l, "got 3: %.300s", g->errors);
    return case_differs(out, cf, l, "got %d", g->status);
}

/* One key line of a run against g; 1 when it disagrees (reported). */
static inline int case_compare_line(FILE *out, const case_file *cf, const case_line *l, const case_got *g)
{
    switch (l->key) {
    case CK_STATUS: return case_compare_status(out, cf, l, g);
    case CK_ERROR:
        if (g->status != 3) return case_differs(out, cf, l, "got status %d, no error", g->status);
        return case_has_error(g->errors, cf->path, l->value) ? 0 : case_differs(out, cf, l, "got %.1000s", g->errors);
    case CK_TYPES: return case_compare_list(out, cf, l, g->types);
    case CK_NOT: return case_compare_list(out, cf, l, g->nots);
    case CK_COUNT: return case_compare_count(out, cf, l, g);
    case CK_OUT: return strstr(g->text, l->value) ? 0 : case_differs(out, cf, l, "not in the text report");
    case CK_JSON: return strstr(g->json, l->value) ? 0 : case_differs(out, cf, l, "not in the JSON result");
    default: return 0; /* check:, edge: (the rw-register unit test's), oracle: (t2700's) */
    }
}

/* Run [b, e) of cf against g: the number of disagreements, each reported
 * on out naming the header's FILE:LINE. */
static inline int case_compare(FILE *out, const case_file *cf, size_t b, size_t e, const case_got *g)
{
    int bad = 0;
    if (g->status == 3 && !case_find(cf, b, e, CK_ERROR))
        return case_differs(out, cf, &cf->lines[b], "the run failed: %.1000s", g->errors);
    for (size_t i = b; i < e; i++) bad += case_compare_line(out, cf, &cf->lines[i], g);
    return bad;
}

/* ---- the cases of a directory --------------------------------------- */

static inline int case_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name in dir is a case: a regular file, not hidden, not a
 * sidecar (.case), not README or a table (.tsv). */
static inline int case_is_case(const char *dir, const char *name)
{
    char path[2048];
    struct stat st;
    size_t n = strlen(name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (name[0] == '.' || strcmp(name, "README") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    return !(n > 5 && strcmp(name + n - 5, ".case") == 0) && !(n > 4 && strcmp(name + n - 4, ".tsv") == 0);
}

/* The cases of dir, sorted by name (the caller frees each and the array);
 * their count, or -1 when dir cannot be read. */
static inline long case_list(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **v = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!case_is_case(dir, de->d_name)) continue;
        char **w = realloc(v, (n + 1) * sizeof *v);
        if (!w || !(w[n] = strdup(de->d_name))) break;
        v = w;
        n++;
    }
    closedir(d);
    qsort(v, n, sizeof *v, case_cmp_names);
    *names = v;
    return (long)n;
}

/* ---- tables of malformed inputs ------------------------------------ */

/* One row of a table (tests/data/read/malformed.tsv): FORMAT KIND L:C
 * MESSAGE INPUT, tab-separated; INPUT with C escapes (\n \t \r \\ \xHH). */
typedef struct case_row {
    int line;            /* in the table */
    char format[32];     /* as -f takes it (auto: detected) */
    char kind[16];       /* error, limit or cut */
    long at_line, at_col;
    char msg[512];
    char input[8192];    /* unescaped */
    size_t len;
} case_row;

static inline int case_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* s unescaped into r->input; -1 on a bad escape. */
static inline int case_unescape(case_row *r, const char *s)
{
    r->len = 0;
    for (; *s && r->len + 1 < sizeof r->input; s++) {
        char c = *s;
        if (c == '\\') {
            c = *++s;
            if (c == 'x' && case_hex(s[1]) >= 0 && case_hex(s[2]) >= 0) {
                c = (char)(case_hex(s[1]) * 16 + case_hex(s[2]));
                s += 2;
            } else if (c == 'n' || c == 't' || c == 'r') {
                c = c == 'n' ? '\n' : c == 't' ? '\t' : '\r';
            } else if (c != '\\') {
                return -1;
            }
        }
        r->input[r->len++] = c;
    }
    r->input[r->len] = '\0';
    return *s ? -1 : 0;
}

/* Reads the next row of f into r (blank lines and '#' lines skipped): 1,
 * 0 at the end, -1 (err says FILE:LINE: why) when malformed. */
static inline int case_row_next(FILE *f, const char *name, int *line, case_row *r, char *err, size_t size)
{
    char buf[16384], *field[5];
    while (fgets(buf, sizeof buf, f)) {
        ++*line;
        buf[strcspn(buf, "\n")] = '\0';
        if (!buf[0] || buf[0] == '#') continue;
        int n = 0;
        for (char *p = buf; n < 5 && p; n++) {
            field[n] = p;
            p = n < 4 ? strchr(p, '\t') : NULL;
            if (p) *p++ = '\0';
        }
        memset(r, 0, sizeof *r);
        r->line = *line;
        if (n == 5 && sscanf(field[2], "%ld:%ld", &r->at_line, &r->at_col) == 2 && case_unescape(r, field[4]) == 0 &&
            (!strcmp(field[1], "error") || !strcmp(field[1], "limit") || !strcmp(field[1], "cut"))) {
            snprintf(r->format, sizeof r->format, "%s", field[0]);
            snprintf(r->kind, sizeof r->kind, "%s", field[1]);
            snprintf(r->msg, sizeof r->msg, "%s", field[3]);
            return 1;
        }
        snprintf(err, size, "%s:%d: not FORMAT, KIND (error, limit, cut), L:C, MESSAGE, INPUT", name, *line);
        return -1;
    }
    return 0;
}

#endif
