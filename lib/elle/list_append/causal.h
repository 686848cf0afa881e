/*
 * elle/list_append/causal.h -- what causal.c (the check of causal
 * consistency on list-append) and causal_proof.c (its findings in words)
 * share: the graph of the committed transactions, each edge an
 * observation (the writer of an element a read shows -> the reader),
 * session order (causal only) or the version order of two consecutive
 * appends some read shows (ww), and the order the check walked it in.
 */
#ifndef ISO_LA_CAUSAL_H
#define ISO_LA_CAUSAL_H

#include "elle/list_append/list_append_int.h"

enum { CV_OBS = 1, CV_SO = 2, CV_WW = 4 };

/* The position of an append no read shows: after every one read. */
#define CV_UNREAD (ISO_NONE - 1)

typedef struct cv {
    const la_state *st;
    const iso_proof_ctx *pc;
    uint32_t n;                 /* transactions */
    int so;                     /* session order is in the causal past */
    uint8_t *in;                /* per txn: committed (ok, or :info with an append a read shows) */
    uint32_t *poff, *p;         /* per txn its predecessors p[poff[t] .. poff[t+1]) */
    uint8_t *pk;                /* and each one's kind (CV_*) */
    uint32_t *rank;             /* per txn: its place in the walk, ISO_NONE if unranked */
    uint32_t *parent, *queue;   /* the proofs' scratch (causal_proof.c), NULL until used */
    uint8_t *how;
} cv;

/* causal_proof.c */
/* A path from w to t of observation (and, when so, session order) among
 * transactions ranked at or after w, reported as a causality violation:
 * t's read micro-op j of key shows no append of w's to it. */
void cv_report_missed(iso_ctx *ctx, cv *c, uint32_t t, uint32_t j, uint32_t w, uint32_t key);
/* A cycle among the unranked transactions (every one has an unranked
 * predecessor), reported when it holds session order (a cycle without is
 * G0 or G1c, which the cycle search reports). */
void cv_report_cycle(iso_ctx *ctx, const cv *c);
/* Appends a and b (indexes into st->ap) of one transaction, b after a,
 * which reader r's micro-op j shows apart or out of order. */
void cv_report_scattered(iso_ctx *ctx, const cv *c, size_t a, size_t b, uint32_t r, uint32_t j);
void cv_proof_free(cv *c);

#endif
