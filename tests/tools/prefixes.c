/*
 * prefixes.c -- every prefix of a history, checked early as a stream would
 * (docs/ONLINE.md): the test that what isolde calls certain early is. For
 * each line boundary of FILE a fresh isolde_stream is given the lines up to
 * it and one early check; each finding it hands over must be one of the
 * batch check's findings of the whole file: the same type and, for a
 * linearizability model, the same partition (the JSON's "key", or the
 * whole history), else the same set of ops (every "index" of the JSON).
 *
 *   prefixes [-m WORKLOAD] [-c MODELS] [-o NAME=VALUE ...] FILE
 *
 * -o passes a checker option (isolde_checker_option's names: initial-value,
 * total, ...), as `isolde check --NAME VALUE` does.
 *
 * Prints "FILE: N prefixes, E early findings, all among the batch's"
 * (exit 0), or each early finding the batch has not (exit 1); 2 for bad
 * usage or a file that does not read or check.
 */
#include <isolde.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FINDINGS 100000

typedef struct ids {
    char **v; /* "TYPE\tIDENTITY" strings */
    size_t n;
} ids;

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A finding's identity: its partition for a linearizability result, the
 * sorted set of the ops it names otherwise. */
static char *identity(const char *type, const char *json, int lin)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    fprintf(m, "%s\t", type);
    if (lin) {
        const char *end = strstr(json, ",\"ops-before\":");
        if (!strncmp(json, "{\"key\":", 7) && end) fwrite(json + 7, 1, (size_t)(end - json - 7), m);
    } else {
        int64_t idx[4096];
        size_t n = 0;
        for (const char *p = strstr(json, "\"index\":"); p && n < 4096; p = strstr(p + 1, "\"index\":"))
            idx[n++] = strtoll(p + 8, NULL, 10);
        qsort(idx, n, sizeof *idx, cmp_i64);
        for (size_t i = 0; i < n; i++)
            if (!i || idx[i] != idx[i - 1]) fprintf(m, "%lld,", (long long)idx[i]);
    }
    fclose(m);
    return out;
}

static void add(ids *s, char *id)
{
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = id;
}

static int has(const ids *s, const char *id)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], id)) return 1;
    return 0;
}

struct collect {
    ids *into;
    const char *type;
    int lin;
};

static void collect_finding(void *arg, size_t i, const char *text, const char *json)
{
    struct collect *c = arg;
    (void)i;
    (void)text;
    add(c->into, identity(c->type, json, c->lin));
}

static int is_lin(isolde_workload w)
{
    return w == ISOLDE_WORKLOAD_REGISTER || w == ISOLDE_WORKLOAD_CAS_REGISTER || w == ISOLDE_WORKLOAD_KV ||
           w == ISOLDE_WORKLOAD_MUTEX || w == ISOLDE_WORKLOAD_FIFO_QUEUE || w == ISOLDE_WORKLOAD_LIN_SET ||
           w == ISOLDE_WORKLOAD_MULTI_REGISTER || w == ISOLDE_WORKLOAD_PORCUPINE_KV;
}

/* The batch check of the whole text: every finding's identity. */
static int batch(const char *name, const char *text, size_t len, const isolde_check_opts *co, ids *out, int *lin)
{
    isolde_history *h = NULL;
    isolde_result *r = NULL;
    isolde_error err;
    if (isolde_history_read_mem(name, text, len, NULL, &h, &err) || isolde_check(h, co, &r, &err)) {
        fprintf(stderr, "prefixes: %s: %s\n", name, err.msg);
        isolde_history_free(h);
        return -1;
    }
    *lin = is_lin(isolde_result_workload(r));
    for (size_t i = 0; i < isolde_result_type_count(r); i++) {
        struct collect c = {out, isolde_result_type(r, i), *lin};
        isolde_result_findings(r, c.type, 0, MAX_FINDINGS, collect_finding, &c, NULL);
    }
    isolde_result_free(r);
    isolde_history_free(h);
    return 0;
}

struct early {
    const ids *whole;
    int lin;
    size_t prefix, found, wrong;
};

static void early_finding(void *arg, const char *type, const char *text, const char *json)
{
    struct early *e = arg;
    char *id = identity(type, json, e->lin);
    e->found++;
    if (!has(e->whole, id)) {
        e->wrong++;
        printf("the prefix of %zu lines: early %s is none of the batch's findings:\n%s\n", e->prefix, type, text);
    }
    free(id);
}

/* One stream given text[0, len) and polled until an early check ran. */
static int check_prefix(const char *name, const char *text, size_t len, const isolde_check_opts *co,
                        struct early *e)
{
    isolde_stream *s = NULL;
    isolde_stream_stats st = {0};
    isolde_error err;
    if (isolde_stream_open(name, NULL, co, &s, &err) || isolde_stream_append(s, text, len, &err)) {
        fprintf(stderr, "prefixes: %s: %s\n", name, err.msg);
        isolde_stream_free(s);
        return -1;
    }
    isolde_stream_stats_get(s, &st);
    for (int i = 0; st.ops && i < 1000 && !st.early_checks; i++) { /* no op yet: no check */
        if (isolde_stream_poll(s, early_finding, e, &err)) break;
        isolde_stream_stats_get(s, &st);
        if (!st.early_checks) usleep(1000);
    }
    isolde_stream_free(s);
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    FILE *m = open_memstream(&p, len);
    for (int c; f && (c = fgetc(f)) != EOF;) fputc(c, m);
    fclose(m);
    if (!f) {
        free(p);
        return NULL;
    }
    fclose(f);
    return p;
}

int main(int argc, char **argv)
{
    isolde_check_opts co;
    isolde_check_opts_init(&co);
    const char *checker_opts[16];
    int opt;
    while ((opt = getopt(argc, argv, "m:c:o:")) != -1) {
        if (opt == 'c') co.models = optarg;
        else if (opt == 'o' && co.n_checker_opts < 16) checker_opts[co.n_checker_opts++] = optarg;
        else if (opt != 'm' || isolde_workload_parse(optarg, &co.workload)) return fprintf(stderr, "prefixes: bad usage\n"), 2;
    }
    co.checker_opts = checker_opts;
    if (optind + 1 != argc) return fprintf(stderr, "usage: prefixes [-m WORKLOAD] [-c MODELS] [-o NAME=VALUE] FILE\n"), 2;
    const char *name = argv[optind];
    size_t len = 0;
    char *text = slurp(name, &len);
    ids whole = {0};
    struct early e = {&whole, 0, 0, 0, 0};
    int rc = text ? batch(name, text, len, &co, &whole, &e.lin) : -1;
    for (size_t end = 0; !rc && end < len; end++)
        if (text[end] == '\n') {
            e.prefix++;
            rc = check_prefix(name, text, end + 1, &co, &e);
        }
    if (!rc) printf("%s: %zu prefixes, %zu early findings, %s\n", name, e.prefix, e.found,
                    e.wrong ? "some not among the batch's" : "all among the batch's");
    for (size_t i = 0; i < whole.n; i++) free(whole.v[i]);
    free(whole.v);
    free(text);
    return rc ? 2 : e.wrong ? 1 : 0;
}
