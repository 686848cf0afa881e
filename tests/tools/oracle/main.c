/*
 * main.c -- the oracle's command line (tests/oracle.sh drives it):
 *
 *   oracle gen -w la|rw -m MODEL -n N -s SEED -o DIR
 *       N random histories for MODEL (gen.c) as DIR/NNNNN.jsonl, and
 *       DIR/oracle.tsv: file, micro-ops, how it was made, whether it was
 *       simulated at MODEL, the oracle's verdict at MODEL and at
 *       read-committed. Exits 1 when the oracle rejects a history simulated
 *       at MODEL (an oracle bug).
 *   oracle check -w la|rw -m MODEL[,MODEL...] [-v] FILE...
 *       "FILE<TAB>MODEL<TAB>valid|invalid" per file and model; -v adds the
 *       witness order (and what each transaction sees).
 *   oracle selfcheck -n N -s SEED
 *       random histories of both workloads checked against what must hold
 *       between the models (selfcheck.c).
 *   oracle cases [--list] [--only NAME] [-v] FILE    the textbook cases
 *   oracle case-jsonl FILE NAME                       one case as JSON lines
 *   oracle shrink -w la|rw -m MODEL FILE
 *       the smallest history found (removing transactions and micro-ops)
 *       on which isolde (linked, -c MODEL) and the oracle still disagree as
 *       they do on FILE.
 *   oracle models                                     the model names
 *
 * Exit status: 0 done, 1 a check failed, 2 usage or unreadable input.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "oracle.h"

static int usage(void)
{
    fprintf(stderr, "usage: oracle gen|check|selfcheck|cases|case-jsonl|shrink|models ... "
                    "(tests/tools/oracle/main.c says what each takes)\n");
    return 2;
}

struct args {
    int wl, n, verbose, list;
    uint64_t seed;
    const char *model, *out, *only;
    int first; /* index of the first operand */
};

static bool parse_args(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    a->wl = -1, a->n = 100, a->seed = 1;
    int i = 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-v")) a->verbose = 1;
        else if (!strcmp(o, "--list")) a->list = 1;
        else if (i + 1 >= argc) return false;
        else if (!strcmp(o, "-w")) a->wl = !strcmp(argv[++i], "la") || !strcmp(argv[i], "list-append") ? OR_LA : OR_RW;
        else if (!strcmp(o, "-m")) a->model = argv[++i];
        else if (!strcmp(o, "-n")) a->n = atoi(argv[++i]);
        else if (!strcmp(o, "-s")) a->seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(o, "-o")) a->out = argv[++i];
        else if (!strcmp(o, "--only")) a->only = argv[++i];
        else return false;
    }
    a->first = i;
    return true;
}

/* mkdir -p */
static void make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1; *s; s++)
        if (*s == '/') *s = 0, mkdir(path, 0777), *s = '/';
    mkdir(path, 0777);
}

static int cmd_gen(const struct args *a)
{
    const struct or_model *m = a->model ? or_model_find(a->model) : NULL;
    if (!m || a->wl < 0 || !a->out) return usage();
    make_dirs(a->out);
    char path[4096];
    snprintf(path, sizeof path, "%s/oracle.tsv", a->out);
    FILE *tsv = fopen(path, "w");
    if (!tsv) return fprintf(stderr, "oracle: cannot write %s\n", path), 2;
    struct or_rng r = {a->seed * 0x100000001b3ULL + (uint64_t)a->wl};
    int bad = 0;
    for (int i = 0; i < a->n; i++) {
        static struct or_hist h;
        char kind[64], name[32];
        bool built;
        or_gen(&h, a->wl, m->name, &r, kind, sizeof kind, &built);
        snprintf(name, sizeof name, "%05d.jsonl", i);
        snprintf(path, sizeof path, "%s/%s", a->out, name);
        FILE *f = fopen(path, "w");
        if (!f) return fprintf(stderr, "oracle: cannot write %s\n", path), 2;
        or_write_jsonl(&h, f);
        fclose(f);
        bool v = or_decide(&h, m, NULL), rc = or_decide(&h, or_model_find("read-committed"), NULL);
        fprintf(tsv, "%s\t%d\t%s\t%d\t%s\t%s\n", name, or_size(&h), kind, built, v ? "valid" : "invalid",
                rc ? "valid" : "invalid");
        if (built && !v) fprintf(stderr, "oracle: ORACLE BUG: %s simulated at %s, judged invalid\n", path, m->name);
        bad += built && !v;
    }
    fclose(tsv);
    return bad ? 1 : 0;
}

static int cmd_check(const struct args *a, int argc, char **argv)
{
    if (!a->model || a->wl < 0) return usage();
    for (int i = a->first; i < argc; i++) {
        static struct or_hist h;
        if (!or_read_jsonl(argv[i], a->wl, &h)) return 2;
        char models[1024];
        snprintf(models, sizeof models, "%s", a->model);
        for (char *save = NULL, *name = strtok_r(models, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            const struct or_model *m = or_model_find(name);
            if (!m) return fprintf(stderr, "oracle: unknown model %s\n", name), 2;
            struct or_witness w;
            bool v = or_decide(&h, m, &w);
            printf("%s\t%s\t%s\n", argv[i], name, v ? "valid" : "invalid");
            if (a->verbose) or_print_witness(&h, &w, stdout);
        }
    }
    return 0;
}

static int cmd_models(void)
{
    for (int i = 0; or_model_at(i); i++) printf("%-36s %s\n", or_model_at(i)->name, or_model_at(i)->what);
    return 0;
}

int main(int argc, char **argv)
{
    struct args a;
    if (argc < 2 || !parse_args(argc, argv, &a)) return usage();
    const char *cmd = argv[1];
    if (!strcmp(cmd, "gen")) return cmd_gen(&a);
    if (!strcmp(cmd, "check")) return cmd_check(&a, argc, argv);
    if (!strcmp(cmd, "models")) return cmd_models();
    if (!strcmp(cmd, "selfcheck")) return or_selfcheck(a.n, a.seed, a.verbose);
    if (!strcmp(cmd, "cases") && a.first + 1 == argc) {
        int bad = or_cases(argv[a.first], a.only, a.list, a.verbose);
        return bad < 0 ? 2 : bad > 0;
    }
    if (!strcmp(cmd, "case-jsonl") && a.first + 2 == argc)
        return or_case_jsonl(argv[a.first], argv[a.first + 1], stdout) ? 0 : 2;
    if (!strcmp(cmd, "shrink") && a.first + 1 == argc && a.model && a.wl >= 0)
        return or_shrink(argv[a.first], a.wl, a.model, stdout);
    return usage();
}
