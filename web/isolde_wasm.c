/*
 * web/isolde_wasm.c -- the playground's one entry into the checker, which
 * `make playground` compiles to WebAssembly with emscripten (the checker
 * needs libc alone): check a history given as text and return the same
 * self-contained HTML page as `isolde check --html`, viewer included.
 * Like src/, it uses nothing but the public header.
 *
 * Invariant: every call returns a NUL-terminated string the caller frees
 * with free() -- the page, or one line saying why there is none -- and
 * frees everything else it made, whatever the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolde.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

static char *message(const char *what, const isolde_error *err, int *status)
{
    char line[1200];
    char *s = malloc(sizeof line);
    if (!s) return NULL;
    if (err) isolde_error_text(err, line, sizeof line);
    snprintf(s, sizeof line, "%s%s%s", what, err ? ": " : "", err ? line : "");
    *status = 3;
    return s;
}

/* The page of r, into a string. */
static char *page(isolde_result *r, int *status)
{
    char *html = NULL;
    size_t n = 0;
    isolde_error err;
    FILE *mem = open_memstream(&html, &n);
    if (!mem) return message("out of memory", NULL, status);
    isolde_status s = isolde_result_write_html(r, mem, &err);
    if (fclose(mem) || s) {
        free(html);
        return message("cannot write the report", s ? &err : NULL, status);
    }
    *status = (int)isolde_result_validity(r);
    return html;
}

char *isolde_web_check(const char *text, int len, const char *workload, const char *models,
                       const char *anomalies, int *status);

/* Check text (len bytes) as workload ("" or "auto": from the history)
 * against models (Elle's names, comma-separated; "" the default) and
 * anomalies; *status is the CLI's exit status (0 valid, 1 not, 2 unknown,
 * 3 an error, when the string returned is that error's words). */
EMSCRIPTEN_KEEPALIVE
char *isolde_web_check(const char *text, int len, const char *workload, const char *models,
                       const char *anomalies, int *status)
{
    isolde_check_opts o;
    isolde_check_opts_init(&o);
    o.threads = 1;
    if (workload[0] && strcmp(workload, "auto") && isolde_workload_parse(workload, &o.workload))
        return message("unknown model", NULL, status);
    if (models[0]) o.models = models;
    if (anomalies[0]) o.anomalies = anomalies;
    isolde_error err;
    if (isolde_check_opts_validate(&o, &err)) return message("bad options", &err, status);
    isolde_history *h = NULL;
    if (isolde_history_read_mem("history", text, (size_t)len, NULL, &h, &err))
        return message("cannot read the history", &err, status);
    isolde_result *r = NULL;
    char *out = isolde_check(h, &o, &r, &err) ? message("cannot check", &err, status) : page(r, status);
    isolde_result_free(r);
    isolde_history_free(h);
    return out;
}
