/*
 * report/write.c -- the public writers of a result of any kind: the
 * report options as this library knows them, then the kind's text or
 * JSON, the page or the directory, under the call's guard; a stream is
 * flushed, and what it could not take is an IO error saying why.
 */
#include "report/report.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

void isolde_report_opts_init(isolde_report_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->max_examples = 3;
}

enum { WRITE_TEXT, WRITE_JSON, WRITE_HTML, WRITE_DIR };

struct write_call {
    const isolde_result *r;
    int what;
    FILE *out;
    const char *dir;
    const isolde_report_opts *user;
};

/* The caller's report options as this library knows them. */
static int report_opts(const isolde_report_opts *user, isolde_report_opts *o, isolde_error *err)
{
    isolde_report_opts_init(o);
    if (!user) return 0;
    if (user->size < offsetof(isolde_report_opts, max_examples) + sizeof user->max_examples)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0,
                        "report options not initialised (isolde_report_opts_init)");
    memcpy(o, user, user->size < sizeof *o ? user->size : sizeof *o);
    o->size = sizeof *o;
    return 0;
}

static int write_report(void *arg, isolde_error *err)
{
    struct write_call *c = arg;
    const isolde_result *r = c->r;
    isolde_report_opts o;
    if (report_opts(c->user, &o, err)) return -1;
    if (c->what == WRITE_DIR) return iso_report_dir(r, c->dir, err);
    int rc = c->what == WRITE_TEXT ? r->kind->text(r, c->out, &o)
           : c->what == WRITE_JSON ? r->kind->json(r, c->out, 0)
           : iso_report_page(r, c->out);
    errno = 0; /* a stream keeps what it could not write: flushing says why (a full disk) */
    if (fflush(c->out) == 0 && !rc && !ferror(c->out)) return 0;
    return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot write the report%s%s", errno ? ": " : "",
                    errno ? strerror(errno) : "");
}

isolde_status isolde_result_write_text(const isolde_result *r, FILE *out, const isolde_report_opts *o,
                                       isolde_error *err)
{
    struct write_call c = {r, WRITE_TEXT, out, NULL, o};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_json(const isolde_result *r, FILE *out, isolde_error *err)
{
    struct write_call c = {r, WRITE_JSON, out, NULL, NULL};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_html(const isolde_result *r, FILE *out, isolde_error *err)
{
    struct write_call c = {r, WRITE_HTML, out, NULL, NULL};
    return iso_call(write_report, &c, err);
}

isolde_status isolde_result_write_dir(const isolde_result *r, const char *dir, isolde_error *err)
{
    struct write_call c = {r, WRITE_DIR, NULL, dir, NULL};
    return iso_call(write_report, &c, err);
}
