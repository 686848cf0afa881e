/*
 * cases.h -- the library side of the test cases of tests/data: each case
 * file's header (tests/tools/case.h, format in tests/data/README) run
 * through isolde_history_read_file, isolde_check and the result's writers,
 * and compared by the same code the CLI side (tests/tools/case.c) uses, so
 * a header is one statement both must agree with. A check: line is read
 * as `isolde check` reads it, for the options the cases use; an option
 * this file does not know fails the case (it is never dropped).
 */
#ifndef ISO_UNIT_CASES_H
#define ISO_UNIT_CASES_H

#include "testutil.h"
#include "../tools/case.h"

/* A run's check: line as options: the checkers' own as "name=value"
 * strings (isolde_check_opts.checker_opts) kept in copts. */
#define TC_MAX_COPTS 16
typedef struct tc_opts {
    isolde_read_opts read;
    isolde_check_opts check;
    isolde_report_opts report;
    char words[4096];
    char *argv[64];
    int argc;
    char copt_text[TC_MAX_COPTS][256];
    const char *copts[TC_MAX_COPTS];
} tc_opts;

/* An option with a value: its index in o->argv, advanced; NULL at the end. */
static inline const char *tc_value(tc_opts *o, int *i) { return ++*i < o->argc ? o->argv[*i] : NULL; }

static inline int tc_long(const char *s, long long *v)
{
    char *end;
    if (!s) return -1;
    *v = strtoll(s, &end, 10);
    return *end || end == s ? -1 : 0;
}

/* The checker option called name (any workload's), or NULL. */
static inline const isolde_option *tc_checker_option(const char *name)
{
    for (int w = ISOLDE_WORKLOAD_LIST_APPEND; w <= ISOLDE_WORKLOAD_LONG_FORK; w++)
        for (size_t k = 0; isolde_checker_option((isolde_workload)w, k); k++)
            if (!strcmp(isolde_checker_option((isolde_workload)w, k)->name, name))
                return isolde_checker_option((isolde_workload)w, k);
    return NULL;
}

/* --NAME [VALUE] for a checker's option NAME (--realtime-versions: the
 * linearizable-keys it stands for; --exact[=WHEN], --no-exact: exact=...),
 * as the CLI gives it. */
static inline int tc_checker_opt(tc_opts *o, const char *a, int *i)
{
    size_t n = o->check.n_checker_opts;
    const char *exact = !strcmp(a, "--no-exact") ? "never" : !strcmp(a, "--exact") ? "always"
                      : !strncmp(a, "--exact=", 8) ? a + 8 : NULL;
    if (exact && n < TC_MAX_COPTS) {
        snprintf(o->copt_text[n], sizeof o->copt_text[n], "exact=%s", exact);
        o->copts[n] = o->copt_text[n];
        o->check.n_checker_opts = n + 1;
        return 0;
    }
    const char *name = !strcmp(a, "--realtime-versions") ? "linearizable-keys" : a + 2;
    const isolde_option *opt = a[0] == '-' && a[1] == '-' ? tc_checker_option(name) : NULL;
    if (!opt || n == TC_MAX_COPTS) return -1;
    const char *v = opt->type == ISOLDE_OPTION_FLAG ? NULL : tc_value(o, i);
    if (opt->type != ISOLDE_OPTION_FLAG && !v) return -1;
    snprintf(o->copt_text[n], sizeof o->copt_text[n], "%s%s%s", name, v ? "=" : "", v ? v : "");
    o->copts[n] = o->copt_text[n];
    o->check.n_checker_opts = n + 1;
    return 0;
}

/* The check's and the report's own options. */
static inline int tc_opt(tc_opts *o, const char *a, int *i)
{
    long long n;
    if (!strcmp(a, "--timeout")) return tc_long(tc_value(o, i), &n) ? -1 : (o->check.timeout_ms = (long)n, 0);
    if (!strcmp(a, "--max-examples"))
        return tc_long(tc_value(o, i), &n) ? -1 : (o->report.max_examples = (int)n, 0);
    const char *v = tc_value(o, i);
    if (!v) return -1;
    if (!strcmp(a, "-m")) return isolde_workload_parse(v, &o->check.workload) ? -1 : 0;
    if (!strcmp(a, "-f")) return isolde_format_parse(v, &o->read.format) ? -1 : 0;
    if (!strcmp(a, "-c")) o->check.models = v;
    else if (!strcmp(a, "-a")) o->check.anomalies = v;
    else return -1;
    return 0;
}

/* The options of args (a check: line's value, NULL for none); 0, or -1
 * with why saying which option this file cannot read. */
static inline int tc_parse(const char *args, tc_opts *o, char *why, size_t size)
{
    isolde_read_opts_init(&o->read);
    isolde_check_opts_init(&o->check);
    isolde_report_opts_init(&o->report);
    o->check.checker_opts = o->copts;
    o->argc = args ? case_words(args, o->argv, 64, o->words, sizeof o->words) : 0;
    if (o->argc < 0) return snprintf(why, size, "check: does not split into words"), -1;
    for (int i = 0; i < o->argc; i++) {
        const char *a = o->argv[i];
        int j = i;
        if (tc_checker_opt(o, a, &j) && (j = i, tc_opt(o, a, &j)))
            return snprintf(why, size, "option %s: unknown to tests/unit/cases.h, or its value is bad", a), -1;
        i = j;
    }
    return 0;
}

/* ---- one run through the library ---------------------------------- */

static inline long tc_count(void *ctx, const char *type)
{
    return (long)isolde_result_instance_count(ctx, type);
}

/* "FILE:L:C: message" (FILE: message without a place) into out. */
static inline void tc_error_text(const isolde_error *err, char *out, size_t size)
{
    if (err->line > 0) snprintf(out, size, "%s:%ld:%ld: %s", err->file, err->line, err->col, err->msg);
    else snprintf(out, size, "%s: %s", err->file, err->msg);
}

/* The names of a result's types (nots when nots), one space between. */
static inline void tc_names(isolde_result *r, int nots, char *out, size_t size)
{
    size_t n = nots ? isolde_result_not_count(r) : isolde_result_type_count(r);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "",
                 nots ? isolde_result_not(r, i) : isolde_result_type(r, i));
}

/* What a result says, as case_compare reads it (text and json are the
 * caller's to free). */
static inline void tc_result(isolde_result *r, const tc_opts *o, case_got *g, char *types, char *nots, size_t size)
{
    size_t n;
    char *text = NULL, *json = NULL;
    FILE *f = open_memstream(&text, &n);
    isolde_result_write_text(r, f, &o->report, NULL);
    fclose(f);
    f = open_memstream(&json, &n);
    isolde_result_write_json(r, f, NULL);
    fclose(f);
    tc_names(r, 0, types, size);
    tc_names(r, 1, nots, size);
    *g = (case_got){(int)isolde_result_validity(r), text, json, "", types, nots, tc_count, r};
}

/* Set by the test that checks edge: lines (rw-register's, through its
 * workload's analysis); anywhere else one would assert nothing. */
static int tc_edges_checked;

/* Run [b, e) of cf through the library: its disagreements (printed). */
static inline int tc_run(const case_file *cf, size_t b, size_t e)
{
    tc_opts o;
    char why[512], errors[1200], types[4096], nots[4096];
    const case_line *edge = case_find(cf, b, e, CK_EDGE);
    if (edge && !tc_edges_checked)
        return case_differs(stderr, cf, edge, "no test checks edge: here (tests/data/rw_register's do)");
    if (tc_parse(cf->lines[b].key == CK_CHECK ? cf->lines[b].value : NULL, &o, why, sizeof why))
        return case_differs(stderr, cf, &cf->lines[b], "%s", why);
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    isolde_error err = {0};
    case_got g = {3, "", "", errors, "", "", NULL, NULL};
    if (isolde_history_read_file(cf->path, &o.read, &h, &err) || isolde_check(h, &o.check, &r, &err))
        tc_error_text(&err, errors, sizeof errors);
    else
        tc_result(r, &o, &g, types, nots, sizeof types);
    int bad = case_compare(stderr, cf, b, e, &g);
    if (r) free((char *)g.text), free((char *)g.json);
    isolde_result_free(r);
    isolde_history_free(h);
    return bad;
}

/* Every run of the case at path: the number that disagree (each printed
 * naming the header's FILE:LINE); a header refused counts one. */
static inline int tc_file(const char *path)
{
    case_file cf;
    size_t b, e;
    int bad = 0;
    if (case_read(&cf, path)) {
        print_error("%s\n", cf.err);
        bad = 1;
    }
    for (size_t r = 0; !bad && case_run_bounds(&cf, r, &b, &e); r++) bad += tc_run(&cf, b, e) > 0;
    case_file_free(&cf);
    return bad;
}

/* each(path, ctx) for every case of dir, in name order: the sum of what
 * it returns (disagreements). Fails the test when dir has none. */
static inline int tc_each(const char *dir, int (*each)(const char *path, void *ctx), void *ctx)
{
    char **names = NULL, path[2048];
    long n = case_list(dir, &names);
    int bad = 0;
    if (n <= 0) fail_msg("no cases in %s (run from the repository root)", dir);
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        bad += each(path, ctx);
        free(names[i]);
    }
    free(names);
    return bad;
}

static inline int tc_file_each(const char *path, void *ctx)
{
    (void)ctx;
    return tc_file(path);
}

/* Every case of dir through the library; fails naming how many disagree. */
static inline void tc_dir(const char *dir)
{
    int bad = tc_each(dir, tc_file_each, NULL);
    if (bad) fail_msg("%d of the cases in %s disagree with their headers (named above)", bad, dir);
}

#endif
