/*
 * options.c -- the one option mechanism of the CLI: tables of options
 * with offsets into a command's settings; one parser for all of them and
 * one help printer, as text for --help and as roff for the man page
 * (isolde --man), so neither can disagree with what is parsed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_long(const char *cmd, const char *opt, const char *v, double lo, double hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        if (lo == 0 && hi >= 1e15) fprintf(stderr, "isolde %s: %s wants a non-negative integer, not '%s'\n", cmd, opt, v);
        else fprintf(stderr, "isolde %s: %s wants an integer in [%.0f, %.0f], not '%s'\n", cmd, opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cli_double(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) {
        fprintf(stderr, "isolde %s: %s wants a number in [%g, %g], not '%s'\n", cmd, opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* The option named by a (without its dashes), of length n; short: a is
 * one letter. */
static const cli_opt *find(const cli_table *t, size_t nt, const char *a, size_t n, int is_short,
                           const cli_table **in)
{
    for (size_t i = 0; i < nt; i++)
        for (size_t j = 0; j < t[i].n; j++) {
            const cli_opt *o = &t[i].opts[j];
            int hit = is_short ? o->short_name && o->short_name == a[0]
                               : strlen(o->long_name) == n && memcmp(o->long_name, a, n) == 0;
            if (hit) {
                *in = &t[i];
                return o;
            }
        }
    return NULL;
}

int cli_pass_add(cli_pass *p, const char *cmd, const char *name, const char *value)
{
    if (p->n == CLI_MAX_PASS) return fprintf(stderr, "isolde %s: too many options\n", cmd), -1;
    p->given[p->n].name = name;
    p->given[p->n++].value = value;
    return 0;
}

/* Pass value on as o's (checked as the row says), into p. */
static int pass(const char *cmd, cli_pass *p, const cli_opt *o, const char *spelled, const char *value)
{
    long x;
    if (o->lo < o->hi && cli_long(cmd, spelled, value, o->lo, o->hi, &x)) return -1;
    if (o->call && o->call(NULL, value)) return -1;
    return cli_pass_add(p, cmd, o->long_name, value);
}

char *cli_pass_strings(const cli_pass *p, const char *const **strings)
{
    size_t size = (size_t)p->n * sizeof(char *) + 1;
    for (int i = 0; i < p->n; i++)
        size += strlen(p->given[i].name) + (p->given[i].value ? strlen(p->given[i].value) + 1 : 0) + 1;
    char *block = malloc(size);
    if (!block) return fputs("isolde: out of memory\n", stderr), NULL;
    const char **at = (const char **)(void *)block;
    char *text = block + (size_t)p->n * sizeof(char *);
    for (int i = 0; i < p->n; i++) {
        at[i] = text;
        size_t left = size - (size_t)(text - block);
        text += snprintf(text, left, "%s%s%s", p->given[i].name, p->given[i].value ? "=" : "",
                         p->given[i].value ? p->given[i].value : "") + 1;
    }
    *strings = at;
    return block;
}

/* Store value as o's in t's target. */
static int store(const char *cmd, const cli_table *t, const cli_opt *o, const char *spelled,
                 const char *value)
{
    char *at = (char *)t->target + o->off;
    switch (o->type) {
    case CLI_FLAG: *(int *)at = o->flag; return 0;
    case CLI_STRING: *(const char **)at = value; return 0;
    case CLI_LONG: return cli_long(cmd, spelled, value, o->lo, o->hi, (long *)at);
    case CLI_DOUBLE: return cli_double(cmd, spelled, value, o->lo, o->hi, (double *)at);
    case CLI_PASS: return pass(cmd, (cli_pass *)at, o, spelled, value);
    default: return o->call(at, value);
    }
}

struct arg {
    const char *name;  /* without dashes */
    size_t n;
    int is_short;
    const char *attached; /* -xV, --name=V: the V */
};

/* Split argument a ("-x", "-xV", "--name", "--name=V") into its parts. */
static struct arg split(const char *a)
{
    struct arg r = {0};
    if (a[1] == '-') {
        r.name = a + 2;
        const char *eq = strchr(r.name, '=');
        r.n = eq ? (size_t)(eq - r.name) : strlen(r.name);
        r.attached = eq ? eq + 1 : NULL;
    } else {
        r.name = a + 1;
        r.n = 1;
        r.is_short = 1;
        r.attached = a[2] ? a + 2 : NULL;
    }
    return r;
}

/* The i-th long name of the tables (arg: struct tables). */
struct tables {
    const cli_table *t;
    size_t n;
};
static const char *long_name_at(size_t i, void *arg)
{
    const struct tables *ts = arg;
    for (size_t k = 0; k < ts->n; i -= ts->t[k++].n)
        if (i < ts->t[k].n) return ts->t[k].opts[i].long_name;
    return NULL;
}

/* An option no table or hook knows, on stderr, with the closest long
 * name (name: a's without its dashes). */
static void unknown_option(const char *cmd, const char *a, const char *name, int is_short, const cli_table *t,
                           size_t nt)
{
    struct tables ts = {t, nt};
    const char *close = is_short ? NULL : isolde_closest_name(name, long_name_at, &ts);
    fprintf(stderr, "isolde %s: unknown option '%s' ", cmd, a);
    if (close) fprintf(stderr, "(did you mean --%s?)\n", close);
    else fprintf(stderr, "(see isolde %s --help)\n", cmd);
}

/* One option at argv[*i]: 1 taken, -1 bad. */
static int one(int argc, char **argv, int *i, const char *cmd, const cli_table *t, size_t nt,
               cli_unknown_fn unknown, void *uarg)
{
    const char *a = argv[*i];
    struct arg x = split(a);
    const cli_table *in = NULL;
    const cli_opt *o = find(t, nt, x.name, x.n, x.is_short, &in);
    const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!o) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(x.n < 120 ? x.n : 120), x.name);
        int took = 0, r = unknown && !x.is_short ? unknown(uarg, name, x.attached ? x.attached : next, &took) : 0;
        if (r == 0) unknown_option(cmd, a, name, x.is_short, t, nt);
        if (r > 0 && took && !x.attached) ++*i;
        return r > 0 ? 1 : -1;
    }
    int optional = o->arg && strncmp(o->arg, "[=", 2) == 0; /* "[=V]": a value only when attached (--name=V) */
    if (o->type == CLI_FLAG || ((o->type == CLI_PASS || o->type == CLI_CALL) && !o->arg) || (optional && !x.attached)) {
        if (x.attached && !x.is_short) {
            fprintf(stderr, "isolde %s: %s takes no value\n", cmd, a);
            return -1;
        }
        if (store(cmd, in, o, a, NULL)) return -1;
        if (x.attached) { /* -jv: more short flags after this one are not supported */
            fprintf(stderr, "isolde %s: unknown option '%s' (see isolde %s --help)\n", cmd, a, cmd);
            return -1;
        }
        return 1;
    }
    const char *value = x.attached ? x.attached : next;
    if (!value) {
        fprintf(stderr, "isolde %s: %s needs a value\n", cmd, a);
        return -1;
    }
    if (!x.attached) ++*i;
    char spelled[64];
    snprintf(spelled, sizeof spelled, "%s%.*s", x.is_short ? "-" : "--", (int)(x.n < 50 ? x.n : 50), x.name);
    return store(cmd, in, o, spelled, value) ? -1 : 1;
}

int cli_parse(int argc, char **argv, const char *cmd, const cli_table *tables, size_t n_tables,
              cli_unknown_fn unknown, void *unknown_arg, const char **pos, int *n_pos)
{
    int only_pos = 0;
    *n_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_pos || a[0] != '-' || !a[1]) {
            pos[(*n_pos)++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) { only_pos = 1; continue; }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return CLI_HELP;
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) return CLI_VERSION;
        if (one(argc, argv, &i, cmd, tables, n_tables, unknown, unknown_arg) < 0) return -1;
    }
    return 0;
}

int cli_suggest(FILE *out, const char *word, isolde_name_at name_at, void *arg)
{
    const char *close = isolde_closest_name(word, name_at, arg);
    if (close) fprintf(out, " (did you mean %s?)", close);
    return close != NULL;
}

void cli_version(void)
{
    printf("isolde %s\nfeatures:", isolde_version());
    int any = 0;
    for (size_t i = 0; isolde_feature_name(i); i++)
        if (isolde_feature(isolde_feature_name(i)) == 1) {
            printf(" %s", isolde_feature_name(i));
            any = 1;
        }
    printf("%s\n", any ? "" : " none");
}

/* s for roff: backslashes and minus signs escaped, a line that would
 * start with a control character ('.' or '\'') guarded. */
static void roff(FILE *out, const char *s)
{
    for (int bol = 1; *s; bol = *s++ == '\n') {
        if (bol && (*s == '.' || *s == '\'')) fputs("\\&", out);
        if (*s == '\\') fputs("\\e", out);
        else if (*s == '-') fputs("\\-", out);
        else fputc(*s, out);
    }
}

/* Text help fits HELP_WIDTH columns: an item's name takes ITEM_LEFT of
 * them after two spaces, its words start after one more. */
enum { HELP_WIDTH = 100, ITEM_LEFT = 30, ITEM_WORDS = ITEM_LEFT + 3 };

void cli_wrap(FILE *out, const char *s, size_t col, size_t indent)
{
    while (*s) {
        size_t spaces = strspn(s, " "), word = strcspn(s + spaces, " \n");
        if (col > indent && col + spaces + word > HELP_WIDTH && word) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
            s += spaces;
            spaces = 0;
        }
        fwrite(s, 1, spaces + word, out);
        col += spaces + word;
        s += spaces + word;
        if (*s == '\n') {
            s++;
            fprintf(out, *s ? "\n%*s" : "\n", (int)indent, "");
            col = indent;
        }
    }
}

void cli_doc_usage(FILE *out, cli_style st, const char *usage)
{
    if (st == CLI_TEXT) {
        fputs("usage: ", out);
        cli_wrap(out, usage, 7, 7);
        fputc('\n', out);
        return;
    }
    fputs(".SS \"", out);
    roff(out, usage);
    fputs("\"\n", out);
}

void cli_doc_text(FILE *out, cli_style st, const char *text)
{
    if (st == CLI_TEXT) {
        fputc('\n', out);
        cli_wrap(out, text, 0, 0);
        return;
    }
    fputs(".PP\n", out);
    roff(out, text);
    if (text[0] && text[strlen(text) - 1] != '\n') fputc('\n', out);
}

void cli_doc_heading(FILE *out, cli_style st, const char *heading)
{
    if (st == CLI_TEXT) fprintf(out, "\n%s:\n", heading);
    else fputs(".PP\n\\fB", out), roff(out, heading), fputs("\\fR\n", out);
}

void cli_doc_item(FILE *out, cli_style st, const char *left, const char *right)
{
    if (st == CLI_TEXT) { /* a name wider than its column has its words on the next line */
        if (strlen(left) > ITEM_LEFT) fprintf(out, "  %s\n%*s", left, ITEM_WORDS, "");
        else fprintf(out, "  %-*s ", ITEM_LEFT, left);
        cli_wrap(out, right, ITEM_WORDS, ITEM_WORDS);
        fputc('\n', out);
        return;
    }
    fputs(".TP\n\\fB", out);
    roff(out, left);
    fputs("\\fR\n", out);
    roff(out, right);
    fputc('\n', out);
}

void cli_help(FILE *out, cli_style st, const cli_table *tables, size_t n_tables)
{
    for (size_t i = 0; i < n_tables; i++) {
        if (tables[i].heading) cli_doc_heading(out, st, tables[i].heading);
        for (size_t j = 0; j < tables[i].n; j++) {
            const cli_opt *o = &tables[i].opts[j];
            if (!o->help) continue;
            char name[80], shrt[8] = "";
            if (o->short_name) snprintf(shrt, sizeof shrt, "-%c, ", o->short_name);
            else if (st == CLI_TEXT) snprintf(shrt, sizeof shrt, "    "); /* text aligns the long names */
            snprintf(name, sizeof name, "%s--%s%s%s", shrt, o->long_name, o->arg && strncmp(o->arg, "[=", 2) != 0 ? " " : "",
                     o->arg ? o->arg : "");
            cli_doc_item(out, st, name, o->help);
        }
    }
}
