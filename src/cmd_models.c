/* cmd_models.c -- `isolde models [NAME...]`: every consistency model name
 * -c takes and every anomaly name -a takes; with names, what a check with
 * each one reports as a violation (for a model not checked, what to use
 * instead). All from the library's own tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { WIDTH = 78 };

void cmd_models_help(FILE *out, cli_style st)
{
    cli_doc_usage(out, st, "isolde models [NAME...]");
    cli_doc_text(out, st, "Lists the consistency models `isolde check -c` takes (Elle's 54 names and\n"
                          "read-committed-be, 37 models) and the anomalies `-a` takes. With names, prints\n"
                          "for each what a check with `-c NAME` (a model) or `-c '' -a NAME` (an anomaly)\n"
                          "reports as a violation.\n");
    cli_doc_item(out, st, "-h, --help", "this text");
    cli_doc_item(out, st, "-V, --version", "print the version");
}

/* Words after a heading, wrapped at WIDTH, each line indented. */
static void words(const char *(*at)(size_t), const isolde_check_opts *o)
{
    size_t col = 0;
    const char *w;
    for (size_t i = 0; (w = at(i)); i++) {
        if (o && isolde_check_opts_forbid(o, w) != 1) continue;
        size_t n = strlen(w);
        if (col && col + 1 + n > WIDTH) printf("\n"), col = 0;
        col += (size_t)printf(col ? " %s" : "    %s", w);
    }
    if (col) printf("\n");
}

/* text, wrapped at WIDTH at its spaces, each line indented by 4. */
static void paragraph(const char *text)
{
    size_t col = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        if (col && col + 1 + n > WIDTH) printf("\n"), col = 0;
        col += (size_t)printf(col ? " %.*s" : "    %.*s", (int)n, p);
        for (p += n; *p == ' '; p++) {}
    }
    if (col) printf("\n");
}

static void list_models(void)
{
    size_t n_names = 0, n_models = 0;
    while (isolde_model_name(n_names)) n_names++;
    for (const char *m; (m = isolde_model_name(n_models)) && !strcmp(isolde_model_canonical(m), m);)
        n_models++;
    printf("consistency models (isolde check -c NAME,...): %zu names for %zu models\n", n_names, n_models);
    for (size_t i = 0; i < n_models; i++) {
        const char *m = isolde_model_name(i);
        int first = 1;
        printf("  %s", m);
        for (size_t j = n_models; j < n_names; j++) {
            if (strcmp(isolde_model_canonical(isolde_model_name(j)), m)) continue;
            if (first) printf("%*s", (int)(35 - strlen(m)), ""); /* the other names' column */
            printf("%s%s", first ? "" : ", ", isolde_model_name(j));
            first = 0;
        }
        printf("\n");
    }
    char text[1024];
    size_t n = (size_t)snprintf(text, sizeof text, "These isolde does not check on transactional histories "
                                                   "(isolde models NAME says what to use instead):");
    for (size_t i = 0; i < n_models; i++)
        if (isolde_model_not_checked(isolde_model_name(i)) && n < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, " %s", isolde_model_name(i));
    paragraph(text);
}

static void list_anomalies(void)
{
    size_t n = 0;
    while (isolde_anomaly_name(n)) n++;
    printf("\nanomalies (isolde check -a NAME,...): %zu names\n", n);
    words(isolde_anomaly_name, NULL);
}

/* A name that is neither: both errors, each with its closest name. */
static int unknown(const char *name)
{
    isolde_check_opts o;
    isolde_error err;
    isolde_check_opts_init(&o);
    o.models = name;
    isolde_check_opts_validate(&o, &err);
    cli_print_error(&err);
    o.models = "", o.anomalies = name;
    isolde_check_opts_validate(&o, &err);
    cli_print_error(&err);
    return EXIT_ERROR;
}

/* What a check with the one name reports: 0, or 3 having said why not. */
static int show(const char *name)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    const char *canon = isolde_model_canonical(name);
    if (canon) o.models = name;
    else o.models = "", o.anomalies = name;
    if (isolde_check_opts_validate(&o, NULL)) return unknown(name);
    if (canon) printf("%s (%s): a check with -c %s reports\n", name, canon, name);
    else printf("%s (an anomaly): a check with -c '' -a %s reports\n", name, name);
    if (canon)
        printf("    list-append: %s; rw-register: %s\n", isolde_model_coverage(name, "list-append"),
               isolde_model_coverage(name, "rw-register"));
    for (int rw = 0; canon && rw < 2; rw++) {
        const char *note = isolde_model_coverage_note(name, rw ? "rw-register" : "list-append");
        if (note) paragraph(note);
    }
    const char *instead = canon ? isolde_model_not_checked(name) : NULL;
    if (!instead) {
        words(isolde_anomaly_name, &o);
        return 0;
    }
    char text[1024];
    snprintf(text, sizeof text, "nothing: isolde does not check %s on transactional histories, so a check of it "
                                "never says valid (unknown, when nothing else is found); %s.",
             name, instead);
    paragraph(text);
    return 0;
}

int cmd_models(int argc, char **argv)
{
    const char **names = malloc((size_t)argc * sizeof *names);
    int n = 0, rc = cli_parse(argc, argv, "models", NULL, 0, NULL, NULL, names, &n);
    if (rc == CLI_VERSION) cli_version();
    else if (rc) cmd_models_help(rc > 0 ? stdout : stderr, CLI_TEXT);
    int status = rc > 0 ? 0 : rc < 0 ? EXIT_ERROR : 0;
    if (!rc && !n) list_models(), list_anomalies();
    for (int i = 0; !rc && i < n; i++) {
        if (i) printf("\n");
        int s = show(names[i]);
        if (s) status = s;
    }
    free(names);
    return status;
}
