/* test_list_append.c -- list-append inference and direct anomalies, end to
 * end through isolde_check: verdict, anomaly types and the not boundary of
 * every case in tests/data/list_append (NAME.edn, NAME.expect; the format
 * is in tests/data/README, shared with tests/cli/t2100-list-append-cases.sh);
 * duplicate appends as errors; the proof's wording. */
#include <dirent.h>
#include <errno.h>
#include "testutil.h"

#ifndef ISO_TEST_DATA
#define ISO_TEST_DATA "tests/data" /* tests run from the repository root */
#endif
#define CASES ISO_TEST_DATA "/list_append"

#define OK(p, v) "{:type :ok, :process " #p ", :value " v "}\n"

/* ---- the case files ---- */

typedef struct la_expect {
    char models[256], anomalies[256], types[512], not_[512];
    int has_models, has_anomalies, has_types, has_not, status; /* status -1: absent */
} la_expect;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

/* s with runs of blanks made one space, trimmed, into out. */
static void squeeze(const char *s, char *out, size_t size)
{
    size_t j = 0;
    for (; *s && j + 1 < size; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
            if (j && out[j - 1] != ' ') out[j++] = ' ';
        } else {
            out[j++] = *s;
        }
    }
    while (j && out[j - 1] == ' ') j--;
    out[j] = '\0';
}

/* A case that disagrees or is malformed: named by its file, counted. */
static size_t n_bad;
static int bad(const char *file, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_error("FAIL %s: %s\n", file, msg);
    n_bad++;
    return 0;
}

/* Parses an .expect file; 0 (reported) when malformed. */
static int read_expect(const char *path, la_expect *e)
{
    memset(e, 0, sizeof *e);
    e->status = -1;
    FILE *f = fopen(path, "r");
    if (!f) return bad(path, "cannot open: %s", strerror(errno));
    char line[1024];
    int no = 0, ok = 1;
    while (ok && fgets(line, sizeof line, f)) {
        no++;
        char val[1024];
        squeeze(line, val, sizeof val);
        if (val[0] == '\0' || val[0] == '#') continue;
        char *colon = strchr(val, ':');
        if (!colon) {
            ok = bad(path, "line %d: not \"key: value\"", no);
            break;
        }
        *colon = '\0';
        const char *key = val, *v = colon[1] == ' ' ? colon + 2 : colon + 1;
        struct { const char *key; char *dst; size_t size; int *seen; } fields[] = {
            {"models", e->models, sizeof e->models, &e->has_models},
            {"anomalies", e->anomalies, sizeof e->anomalies, &e->has_anomalies},
            {"anomaly-types", e->types, sizeof e->types, &e->has_types},
            {"not", e->not_, sizeof e->not_, &e->has_not},
        };
        int known = 0;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            if (strcmp(key, fields[i].key) != 0) continue;
            known = 1;
            if (*fields[i].seen) ok = bad(path, "line %d: %s given twice", no, key);
            *fields[i].seen = 1;
            snprintf(fields[i].dst, fields[i].size, "%s", v);
        }
        if (!known && strcmp(key, "status") == 0) {
            known = 1;
            if (e->status != -1) ok = bad(path, "line %d: status given twice", no);
            else if (strlen(v) != 1 || v[0] < '0' || v[0] > '2')
                ok = bad(path, "line %d: status must be 0, 1 or 2, not \"%s\"", no, v);
            else e->status = v[0] - '0';
        }
        if (!known) ok = bad(path, "line %d: unknown key \"%s\"", no, key);
    }
    fclose(f);
    if (ok && (!e->has_models || e->status < 0 || !e->has_types || !e->has_not))
        ok = bad(path, "needs models:, status:, anomaly-types: and not:");
    return ok;
}

/* Checks one case through the library; 0 (reported) when it disagrees. */
static int run_case(const char *edn, const la_expect *e)
{
    FILE *f = fopen(edn, "r");
    int c = f ? fgetc(f) : EOF;
    if (f) fclose(f);
    if (c != ';') return bad(edn, "does not open with a `;` comment saying what it proves");
    isolde_history *h = NULL;
    isolde_error err = {0};
    if (isolde_history_read_file(edn, tu_fmt(ISOLDE_FORMAT_EDN), &h, &err) != ISOLDE_OK)
        return bad(edn, "read failed: %s:%ld:%ld: %s", err.file, err.line, err.col, err.msg);
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.workload = ISOLDE_WORKLOAD_LIST_APPEND;
    o.models = e->models;
    o.anomalies = e->has_anomalies ? e->anomalies : NULL;
    isolde_result *r = NULL;
    int ok = 1;
    if (isolde_check(h, &o, &r, &err) != ISOLDE_OK) {
        ok = bad(edn, "check failed: %s", err.msg);
    } else {
        char types[512] = "", nots[512] = "";
        for (size_t i = 0; i < isolde_result_type_count(r); i++)
            snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", i ? " " : "",
                     isolde_result_type(r, i));
        for (size_t i = 0; i < isolde_result_not_count(r); i++)
            snprintf(nots + strlen(nots), sizeof nots - strlen(nots), "%s%s", i ? " " : "",
                     isolde_result_not(r, i));
        int v = (int)isolde_result_validity(r);
        if (v != e->status || strcmp(types, e->types) != 0 || strcmp(nots, e->not_) != 0)
            ok = bad(edn, "got status %d, anomaly-types [%s], not [%s]; the .expect says %d, [%s], [%s]", v,
                     types, nots, e->status, e->types, e->not_);
        isolde_result_free(r);
    }
    isolde_history_free(h);
    return ok;
}

static void data_cases(void **state)
{
    (void)state;
    DIR *d = opendir(CASES);
    if (!d) fail_msg("cannot open %s: %s (run from the repository root)", CASES, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!ends_with(de->d_name, ".edn") && !ends_with(de->d_name, ".expect")) continue;
        if (n == cap) names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
        assert_non_null(names);
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    size_t cases = 0;
    n_bad = 0;
    for (size_t i = 0; i < n; i++) {
        char edn[512], expect[512];
        int stem = (int)(strrchr(names[i], '.') - names[i]);
        snprintf(edn, sizeof edn, "%s/%.*s.edn", CASES, stem, names[i]);
        snprintf(expect, sizeof expect, "%s/%.*s.expect", CASES, stem, names[i]);
        la_expect e;
        if (!ends_with(names[i], ".edn")) { /* an .expect: its .edn must exist */
            if (access(edn, R_OK) != 0) bad(expect, "no %s", edn);
        } else if (access(expect, R_OK) != 0) {
            bad(edn, "no %s", expect);
        } else if (read_expect(expect, &e)) {
            cases++;
            run_case(edn, &e);
        }
        free(names[i]);
    }
    free(names);
    if (cases == 0) fail_msg("no cases in %s", CASES);
    if (n_bad) fail_msg("%zu of the files in %s disagree or are malformed (named above)", n_bad, CASES);
}

static void duplicate_append_is_an_error(void **state)
{
    (void)state;
    static const char *const histories[] = {
        /* dense per-key values, strings, sparse integers */
        OK(0, "[[:append :x 1]]") OK(1, "[[:append :x 1]]"),
        OK(0, "[[:append :x \"a\"]]") OK(1, "[[:append :x \"a\"] [:append :x \"b\"]]"),
        OK(0, "[[:append :x 1] [:append :x 1000000]]") OK(1, "[[:append :x 1000000]]"),
    };
    for (size_t i = 0; i < sizeof histories / sizeof histories[0]; i++) {
        isolde_history *h = tu_read(histories[i], ISOLDE_FORMAT_EDN);
        isolde_check_opts o;
        isolde_check_opts_init(&o);
        o.workload = ISOLDE_WORKLOAD_LIST_APPEND;
        isolde_result *r = NULL;
        isolde_error err = {0};
        assert_int_equal(isolde_check(h, &o, &r, &err), ISOLDE_ERR_PARSE);
        assert_null(r);
        assert_int_equal(err.line, 2);
        assert_non_null(strstr(err.msg, "already appended"));
        assert_non_null(strstr(err.msg, "line 1"));
        isolde_history_free(h);
    }
}

static void proof_names_keys_and_values(void **state)
{
    (void)state;
    isolde_history *h = tu_read(OK(0, "[[:append :x 1] [:r :y [1]]]") OK(1, "[[:append :y 1] [:r :x [1]]]"),
                             ISOLDE_FORMAT_EDN);
    isolde_result *r = NULL;
    assert_int_equal(isolde_check(h, NULL, &r, NULL), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    isolde_result_write_text(r, f, NULL, NULL);
    fclose(f);
    assert_non_null(strstr(text, "T2 observed T1's append of 1 to key :"));
    assert_non_null(strstr(text, "However, T2 < T1, because"));
    free(text);
    isolde_result_free(r);
    isolde_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_cases),
        cmocka_unit_test(duplicate_append_is_an_error),
        cmocka_unit_test(proof_names_keys_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
