/*
 * case.c -- the CLI side of the test cases of tests/data (tests/tools/case.h;
 * format: tests/data/README): runs each case through the isolde binary as
 * its header says, for the CLI scripts (tests/cli/tNNNN-x.sh), which make one
 * named test case of each file. The library side is tests/unit/cases.h,
 * reading the same headers through the same code. Every disagreement is
 * printed naming the header's FILE:LINE; a header that does not parse is
 * a failure, never a case skipped.
 *
 *   case what FILE                the case's first header line
 *   case list DIR                 DIR's cases, one path a line
 *   case check ISOLDE FILE        runs FILE's runs: `ISOLDE check ARGS FILE`,
 *                                 then the same with --json
 *   case rows TABLE               a table's rows: LINE, FORMAT, KIND, MESSAGE
 *   case row ISOLDE TABLE LINE    runs one row of a table of malformed inputs
 * Exit status: 0 as the data says, 1 a disagreement, 2 bad data or usage.
 */
#include "tools/case.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running isolde --------------------------------------------------- */

typedef struct ran {
    int status; /* the exit status; 128 + N after signal N */
    char *out, *err;
} ran;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&p, &n);
    for (int c; f && m && (c = fgetc(f)) != EOF;) fputc(c, m);
    if (f) fclose(f);
    if (m) fclose(m);
    return p ? p : strdup("");
}

static int scratch(char *path, size_t size, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/isolde-case-%s-XXXXXX", dir && *dir ? dir : "/tmp", name);
    return mkstemp(path);
}

/* Runs argv, its stdout and stderr kept in r. */
static void run(char **argv, ran *r)
{
    char out[512], err[512];
    int fo = scratch(out, sizeof out, "out"), fe = scratch(err, sizeof err, "err"), st = 0;
    pid_t pid = fo < 0 || fe < 0 ? -1 : fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid > 0) waitpid(pid, &st, 0);
    r->status = pid < 0 ? 127 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->out = slurp(out);
    r->err = slurp(err);
    close(fo);
    close(fe);
    unlink(out);
    unlink(err);
}

static void ran_free(ran *r)
{
    free(r->out);
    free(r->err);
}

/* ---- what the output says ------------------------------------------- */

/* The value of the report's line "KEY: ...", with its continuation lines
 * (indented), into out as words; 0 when the report has no such line. */
static int report_field(const char *text, const char *key, char *out, size_t size)
{
    size_t k = strlen(key), j = 0;
    const char *p = text;
    while (p && strncmp(p, key, k) != 0) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    if (!p) return 0;
    for (p += k; *p && j + 1 < size; p++) {
        if (*p == '\n' && p[1] != ' ') break;
        out[j++] = *p == ',' || *p == '\n' ? ' ' : *p;
    }
    out[j] = '\0';
    return 1;
}

/* The strings of JSON's top-level "KEY":[...] as words (the flat arrays
 * of anomaly-types and not). */
static int json_field(const char *json, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":[", key);
    const char *p = strstr(json, pat);
    size_t j = 0;
    if (!p) return 0;
    for (p += strlen(pat); *p && *p != ']' && j + 1 < size; p++)
        if (*p != '"') out[j++] = *p == ',' ? ' ' : *p;
    out[j] = '\0';
    return 1;
}

/* Jepsen's "errors: a (1), b (2)": the types alone. */
static void drop_counts(char *s)
{
    char *w = s;
    for (const char *p = s; *p; p++) {
        if (*p == '(') {
            while (*p && *p != ')') p++;
            if (!*p) break;
            continue;
        }
        *w++ = *p;
    }
    *w = '\0';
}

/* How many of a type the text report found: "== T: N found" (Elle's) or
 * "T (N)" on the errors: line (Jepsen's); -1 when it does not say. */
static long count_in(void *ctx, const char *type)
{
    const char *text = ctx;
    char pat[300];
    long n;
    snprintf(pat, sizeof pat, "\n== %s: ", type);
    const char *p = strstr(text, pat);
    if (p && sscanf(p + strlen(pat), "%ld found", &n) == 1) return n;
    char errors[4096];
    snprintf(pat, sizeof pat, " %s (", type);
    if (report_field(text, "errors:", errors, sizeof errors) && (p = strstr(text, pat)) &&
        sscanf(p + strlen(pat), "%ld)", &n) == 1)
        return n;
    return -1;
}

/* ---- JSON, checked whole ------------------------------------------------ */

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p)
{
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\' && !*++p) return NULL;
    }
    return *p ? p + 1 : NULL;
}

/* The members of an object or the items of an array, to close. */
static const char *json_items(const char *p, char close, int depth)
{
    p = json_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (close == '}') {
            if (*p != '"' || !(p = json_string(p)) || *(p = json_ws(p)) != ':') return NULL;
            p = json_ws(p + 1);
        }
        if (!(p = json_value(p, depth + 1))) return NULL;
        p = json_ws(p);
        if (*p == close) return p + 1;
        if (*p != ',') return NULL;
        p = json_ws(p + 1);
    }
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 200) return NULL;
    if (*p == '{' || *p == '[') return json_items(p, *p == '{' ? '}' : ']', depth);
    if (*p == '"') return json_string(p);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++)
        if (strncmp(p, words[i], strlen(words[i])) == 0) return p + strlen(words[i]);
    char *end;
    strtod(p, &end);
    return end > p ? end : NULL;
}

static int json_whole(const char *s)
{
    const char *p = json_value(json_ws(s), 0);
    return p && *json_ws(p) == '\0';
}

/* ---- a case --------------------------------------------------------- */

/* argv for `isolde check [--json] ARGS FILE`; 0, or -1 on args that do
 * not split. */
static int check_argv(const char *isolde, const case_file *cf, size_t b, int json, char **argv, char *buf)
{
    int n = 0;
    argv[n++] = (char *)isolde;
    argv[n++] = "check";
    if (json) argv[n++] = "--json";
    if (cf->lines[b].key == CK_CHECK) {
        int k = case_words(cf->lines[b].value, argv + n, 60, buf, 4096);
        if (k < 0) return -1;
        n += k;
    }
    argv[n++] = (char *)cf->path;
    argv[n] = NULL;
    return 0;
}

/* What the text run and the JSON run said, as case_compare reads it. */
static void got_of(const ran *t, const ran *j, case_got *g, char *types, char *nots, size_t size)
{
    if (!report_field(t->out, "anomaly-types:", types, size) && report_field(t->out, "errors:", types, size))
        drop_counts(types);
    else if (!types[0]) json_field(j->out, "anomaly-types", types, size);
    if (!report_field(t->out, "not:", nots, size)) json_field(j->out, "not", nots, size);
    *g = (case_got){t->status, t->out, j->out, t->err, types, nots, count_in, t->out};
}

/* Run [b, e) of cf through isolde: the number of disagreements. */
static int check_run(const char *isolde, const case_file *cf, size_t b, size_t e)
{
    char *argv[72], buf[4096], types[4096] = "", nots[4096] = "";
    ran t = {0}, j = {0};
    if (check_argv(isolde, cf, b, 0, argv, buf))
        return case_differs(stdout, cf, &cf->lines[b], "an unterminated quote, or too many words");
    run(argv, &t);
    check_argv(isolde, cf, b, 1, argv, buf);
    run(argv, &j);
    case_got g;
    got_of(&t, &j, &g, types, nots, sizeof types);
    int bad = case_compare(stdout, cf, b, e, &g);
    if (j.status != t.status) bad += case_differs(stdout, cf, &cf->lines[b], "--json exits %d, without it %d", j.status, t.status);
    if (t.status < 3 && !json_whole(j.out)) bad += case_differs(stdout, cf, &cf->lines[b], "--json's output is no JSON: %.300s", j.out);
    ran_free(&t);
    ran_free(&j);
    return bad;
}

static int cmd_check(const char *isolde, const char *path)
{
    case_file cf;
    size_t b, e;
    int bad = 0;
    if (case_read(&cf, path)) {
        printf("%s\n", cf.err);
        case_file_free(&cf);
        return 2;
    }
    for (size_t r = 0; case_run_bounds(&cf, r, &b, &e); r++) bad += check_run(isolde, &cf, b, e);
    case_file_free(&cf);
    return bad ? 1 : 0;
}

static int cmd_what(const char *path)
{
    case_file cf;
    int r = case_read(&cf, path);
    printf("%s\n", r ? cf.err : cf.what);
    case_file_free(&cf);
    return r ? 2 : 0;
}

static int cmd_list(const char *dir)
{
    char **names = NULL;
    long n = case_list(dir, &names);
    if (n < 0) fprintf(stderr, "case: cannot read %s: %s\n", dir, strerror(errno));
    for (long i = 0; i < n; i++) {
        printf("%s/%s\n", dir, names[i]);
        free(names[i]);
    }
    if (n >= 0) free(names);
    return n > 0 ? 0 : 2;
}

/* ---- tables of malformed inputs ------------------------------------- */

/* Row `want` of table (all rows when want is 0, printed). */
static int find_row(const char *table, int want, case_row *r)
{
    FILE *f = fopen(table, "r");
    char err[512];
    int line = 0, got = 0;
    if (!f) return fprintf(stderr, "case: cannot open %s\n", table), 2;
    while ((got = case_row_next(f, table, &line, r, err, sizeof err)) == 1) {
        if (want == 0) printf("%d\t%s\t%s\t%s\n", r->line, r->format, r->kind, r->msg);
        if (r->line == want) break;
    }
    fclose(f);
    if (got < 0) printf("%s\n", err);
    return got < 0 ? 2 : want && got == 0 ? (printf("%s: no row at line %d\n", table, want), 2) : 0;
}

/* A cut row: read, with a warning at its line that it is cut short and
 * why; an error row: exit 3 at its place. */
static int row_agrees(const case_row *r, const ran *x, const char *file)
{
    char want[700];
    if (strcmp(r->kind, "cut") == 0) {
        snprintf(want, sizeof want, "%s:%ld:", file, r->at_line);
        const char *w = strstr(x->err, want);
        return x->status != 3 && w && strstr(w, "warning:") && strstr(w, "cut short") && strstr(w, r->msg);
    }
    snprintf(want, sizeof want, "%ld:%ld %s", r->at_line, r->at_col, r->msg);
    return x->status == 3 && case_has_error(x->err, file, want);
}

static int cmd_row(const char *isolde, const char *table, int line)
{
    case_row r;
    char path[512];
    int st = find_row(table, line, &r);
    if (st) return st;
    int fd = scratch(path, sizeof path, "row");
    if (fd < 0 || write(fd, r.input, r.len) != (ssize_t)r.len) return fprintf(stderr, "case: cannot write %s\n", path), 2;
    close(fd);
    char *argv[] = {(char *)isolde, "check", "-f", r.format, path, NULL};
    ran x = {0};
    if (strcmp(r.format, "auto") == 0) argv[2] = path, argv[3] = NULL;
    run(argv, &x);
    int ok = row_agrees(&r, &x, path);
    if (!ok) printf("%s:%d: %s %s at %ld:%ld: %s; got exit %d: %.800s\n", table, line, r.format, r.kind, r.at_line,
                    r.at_col, r.msg, x.status, x.err);
    ran_free(&x);
    unlink(path);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "what") == 0) return cmd_what(argv[2]);
    if (argc == 3 && strcmp(argv[1], "list") == 0) return cmd_list(argv[2]);
    if (argc == 4 && strcmp(argv[1], "check") == 0) return cmd_check(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "rows") == 0) return find_row(argv[2], 0, &(case_row){0});
    if (argc == 5 && strcmp(argv[1], "row") == 0) return cmd_row(argv[2], argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: case what FILE | list DIR | check ISOLDE FILE | rows TABLE | row ISOLDE TABLE LINE\n");
    return 2;
}
