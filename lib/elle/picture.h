/*
 * elle/picture.h -- the picture of a finding: the transactions of a
 * cycle, or of a bounded piece of a strongly connected component (a
 * cycle-exists fallback or a timeout), and the edges among them, each
 * named by its type and explained in the proof's words; written as DOT
 * (and SVG when built with Graphviz's libgvc, report/svg.c) for -d, as JSON
 * for the HTML viewer.
 *
 * Invariant: a picture never holds more than ISO_PIC_MAX_CYCLES cycles of
 * a component, and never more than ISO_PIC_MAX_V transactions, however
 * large the component: what is left out is counted, never drawn.
 */
#ifndef ISO_ELLE_PICTURE_H
#define ISO_ELLE_PICTURE_H

#include "elle/elle.h"

enum { ISO_PIC_MAX_CYCLES = 4, ISO_PIC_MAX_V = 256 };

typedef struct iso_picture {
    uint32_t n, *v;        /* transactions; v[i] is named T(i+1) */
    uint32_t n_e;          /* edges: a[i] -> b[i] (positions in v) carrying bits[i] */
    uint32_t *a, *b;
    uint8_t *bits;
    uint32_t comp_n;       /* 0 for a cycle; else the component's transactions */
    uint64_t comp_e;       /* and its edges (0: too many were kept to know) */
    uint32_t cycles;       /* for a component: the shortest cycles drawn */
} iso_picture;

/* The picture of finding f into p (zeroed first): 1, or 0 when the
 * finding has none (a direct anomaly). Free it with iso_picture_free. */
int iso_picture_of(const iso_proof_ctx *pc, const iso_finding *f, iso_picture *p);
void iso_picture_free(iso_picture *p);

/* What the picture leaves out, in words ("" for a cycle). */
void iso_picture_note(const iso_picture *p, iso_buf *out);

/* The picture as a DOT digraph titled title, every label escaped. */
void iso_picture_dot(const iso_proof_ctx *pc, const iso_picture *p, const char *title, iso_buf *out);
/* The picture as JSON: {"v":[txn],"ops":[text],"e":[[a,b,"types","words"]],"note":"..."}. */
void iso_picture_json(const iso_proof_ctx *pc, const iso_picture *p, iso_buf *out);

#endif
