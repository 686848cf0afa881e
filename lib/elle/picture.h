/*
 * elle/picture.h -- the picture of a finding: the transactions its proof
 * names and the edges among them, each labelled with its types ("wr",
 * "rw", "process", "co", ...) and the proof's words for it; written as DOT
 * (and SVG when built with Graphviz's libgvc, report/svg.c) for -d, as
 * JSON for the HTML viewer.
 *
 * One shape serves every finding: a cycle of the search (its edges
 * explained as its proof explains them), a bounded piece of a strongly
 * connected component (a cycle-exists fallback or a timeout), and the
 * steps of a finding that is no plain cycle (a fractured read, a
 * causality violation, ...), which its renderer adds beside its words
 * with iso_picture_edge.
 *
 * Invariant: a picture never holds more than ISO_PIC_MAX_CYCLES cycles of
 * a component, and never more than ISO_PIC_MAX_V transactions, however
 * large the component: what is left out is counted, never drawn.
 */
#ifndef ISO_ELLE_PICTURE_H
#define ISO_ELLE_PICTURE_H

#include "elle/elle.h"

enum { ISO_PIC_MAX_CYCLES = 4, ISO_PIC_MAX_V = 256 };

/* Edge a -> b (positions in the picture's transactions), its types
 * ("ww,rw") and its words, one line per type. */
typedef struct iso_pic_edge {
    uint32_t a, b;
    iso_buf types, words;
} iso_pic_edge;

typedef struct iso_picture {
    uint32_t n, *v;        /* transactions; v[i] is named T(i+1); ISO_NONE: the initial state */
    size_t cap_v;
    iso_pic_edge *e;
    size_t n_e, cap_e;
    uint32_t comp_n;       /* 0 for a cycle; else the component's transactions */
    uint64_t comp_e;       /* and its edges (0: too many were kept to know) */
    uint32_t cycles;       /* for a component: the shortest cycles drawn */
} iso_picture;

/* The picture of finding f into p (zeroed first): 1, or 0 when the
 * finding has none (a direct anomaly). Free it with iso_picture_free. */
int iso_picture_of(const iso_proof_ctx *pc, const iso_finding *f, iso_picture *p);
void iso_picture_free(iso_picture *p);

/* Building a picture beside a proof (p zeroed first): the transactions in
 * the order the proof names them (its Let:), then its steps. */
/* Transaction txn's position in p, added when new (ISO_NONE: the initial
 * state, which is named by no T). */
uint32_t iso_picture_txn(iso_picture *p, uint32_t txn);
/* Step a -> b (transactions, added when new) of type, in words: one more
 * type and line of the edge a -> b when there is one (unless it has this
 * step already). */
void iso_picture_edge(iso_picture *p, uint32_t a, uint32_t b, const char *type, const char *words);

/* p moved to the heap to be kept (with a finding), its memory no more
 * than it holds; *p is left zeroed. */
iso_picture *iso_picture_keep(iso_picture *p);

/* What the picture leaves out, in words ("" for a cycle). */
void iso_picture_note(const iso_picture *p, iso_buf *out);

/* The picture as a DOT digraph titled title, every label escaped. */
void iso_picture_dot(const iso_proof_ctx *pc, const iso_picture *p, const char *title, iso_buf *out);
/* The picture as JSON: {"v":[txn|null],"e":[[a,b,"types","words"]],"note":"..."}
 * (null: the initial state). */
void iso_picture_json(const iso_picture *p, iso_buf *out);

#endif
