/*
 * elle/finding.h -- findings: one anomaly instance each, and the sink a
 * check collects them in.
 *
 * A finding is rendered -- its proof for people (text) and its JSON object
 * with Elle's keys -- either when it is found, or later, when a report
 * shows it (elle/proof.c): by its workload's renderer, or from the cycle
 * search's output for the findings the search produced. Renderers only
 * read the proof context, so several threads may render at once. A
 * finding rendered when found may keep its picture (elle/picture.h).
 */
#ifndef ISO_ELLE_FINDING_H
#define ISO_ELLE_FINDING_H

#include "core/core.h"

struct iso_proof_ctx;
struct iso_picture;

/* A finding as it is built: its text for people and its JSON object, side
 * by side (elle/render.h has the builders). */
typedef struct iso_fb {
    iso_buf text, json;
} iso_fb;

/* Renders a pending finding into f (both buffers empty on entry), from what
 * the module that found it kept under arg. */
typedef void (*iso_render_fn)(const struct iso_proof_ctx *pc, size_t arg, iso_fb *f);

/* How a finding gets its text. */
enum iso_finding_source {
    ISO_FS_TEXT = 0,  /* rendered when found */
    ISO_FS_RENDER,    /* pending: render(pc, arg) */
    ISO_FS_CYCLE,     /* pending: the search's cycle arg */
    ISO_FS_EXISTS,    /* pending: the search's cycle-exists arg */
    ISO_FS_TIMEOUT    /* pending: the search's timeout arg */
};

typedef struct iso_finding {
    int type;             /* anomaly id */
    uint8_t source;       /* enum iso_finding_source */
    char *text;           /* for people: several lines, no trailing newline */
    char *json;           /* one JSON object with Elle's keys for this type */
    iso_render_fn render; /* ISO_FS_RENDER */
    size_t arg;
    struct iso_picture *pic; /* ISO_FS_TEXT: its picture, or NULL (owned) */
} iso_finding;

static inline int iso_finding_pending(const iso_finding *f) { return !f->text; }

/* Findings in the order they were found. */
typedef struct iso_findings {
    iso_finding *f;
    size_t n, cap;
} iso_findings;

/* A finding rendered now (both strings copied). */
void iso_findings_add_text(iso_findings *s, int type, const char *text, const char *json);
/* A finding rendered when shown by render(pc, arg), which must work as
 * long as the proof context lives. */
void iso_findings_add_pending(iso_findings *s, int type, iso_render_fn render, size_t arg);
/* A finding of the cycle search: source CYCLE, EXISTS or TIMEOUT, arg its
 * index in the search's output. */
void iso_findings_add_search(iso_findings *s, int type, int source, size_t arg);
/* Move every finding of from to the end of to (from is left empty). */
void iso_findings_join(iso_findings *to, iso_findings *from);
/* What one finding owns, freed. */
void iso_finding_free(iso_finding *f);
void iso_findings_free(iso_findings *s);

#endif
