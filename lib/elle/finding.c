/* elle/finding.c -- the findings sink: findings appended in the order found. */
#include "elle/finding.h"
#include "elle/picture.h"

void iso_findings_add_text(iso_findings *s, int type, const char *text, const char *json)
{
    ISO_GROW(s->f, s->cap, s->n + 1);
    s->f[s->n++] = (iso_finding){type, ISO_FS_TEXT, iso_xstrdup(text), iso_xstrdup(json), NULL, 0, NULL};
}

void iso_findings_add_pending(iso_findings *s, int type, iso_render_fn render, size_t arg)
{
    ISO_GROW(s->f, s->cap, s->n + 1);
    s->f[s->n++] = (iso_finding){type, ISO_FS_RENDER, NULL, NULL, render, arg, NULL};
}

void iso_findings_add_search(iso_findings *s, int type, int source, size_t arg)
{
    ISO_GROW(s->f, s->cap, s->n + 1);
    s->f[s->n++] = (iso_finding){type, (uint8_t)source, NULL, NULL, NULL, arg, NULL};
}

void iso_findings_join(iso_findings *to, iso_findings *from)
{
    ISO_GROW(to->f, to->cap, to->n + from->n);
    for (size_t i = 0; i < from->n; i++) to->f[to->n++] = from->f[i];
    iso_free(from->f);
    *from = (iso_findings){0};
}

void iso_finding_free(iso_finding *f)
{
    iso_free(f->text);
    iso_free(f->json);
    if (f->pic) iso_picture_free(f->pic);
    iso_free(f->pic);
}

void iso_findings_free(iso_findings *s)
{
    for (size_t i = 0; i < s->n; i++) iso_finding_free(&s->f[i]);
    iso_free(s->f);
    *s = (iso_findings){0};
}
