/*
 * elle/models.h -- Elle's consistency models: the 55 accepted names, the 37
 * canonical models, what each model proscribes, and the not / also-not
 * boundary of a set of observed anomalies (elle.md section 1).
 *
 * isolde's additions: garbage-read is proscribed by read-uncommitted
 * (PL-1), so every model from read-uncommitted up rules it out; and issue
 * 25's read-committed-be (Biswas and Enea's read committed), the weak
 * models' own violations (fractured-read, causality-violation and its
 * -process form, non-monotonic-read, not-my-own-write, not-my-last-write)
 * and causal, which now forbids them (docs/MODELS.md).
 */
#ifndef ISO_ELLE_MODELS_H
#define ISO_ELLE_MODELS_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"
#include "elle/anomaly.h"

#define ISO_MODEL_COUNT 37 /* canonical models */

/* Canonical model id for any accepted name (friendly or canonical); -1 if
 * unknown. */
int iso_model_parse(const char *name);
int iso_model_count(void);                 /* canonical models */
/* The i-th accepted name (the canonical ones first, then Elle's other
 * names), NULL past the 55th; arg unused (an iso_name_at). */
const char *iso_model_name_at(size_t i, void *arg);
const char *iso_model_friendly(int m);     /* name used in not / also-not */
const char *iso_model_canonical(int m);
/* 1 if a history satisfying model a also satisfies model b (reflexive,
 * transitive; Elle's models DAG). 0 for unknown ids. */
int iso_model_implies(int a, int b);

/* set[a] = 1 for every anomaly the models prohibit (Elle's
 * anomalies-prohibited-by: weaker models' proscriptions, then every anomaly
 * implying one of those). */
void iso_models_prohibited(const int *models, size_t n, uint8_t set[ISO_A_COUNT]);

/* NULL when a transactional check covers model m; else, for the models
 * Elle's tables give no anomaly (PRAM, the session guarantees, 1SR,
 * session-serializable, view-serializable) and the models of single-object
 * ops (linearizable, sequential), what checks them or implies them instead
 * (static words): a check of such a model alone never says valid. */
const char *iso_model_not_checked(int m);

/* How completely a check covers model m on list-append (rw 0) or
 * rw-register (rw 1): every violation the history reveals is reported
 * (complete), what is reported is a violation (sound only), or it is not
 * checked (not applicable); iso_coverage_name says which in words. */
enum { ISO_COV_NA, ISO_COV_SOUND, ISO_COV_COMPLETE };
int iso_model_coverage(int m, int rw);
const char *iso_coverage_name(int c);
/* Whether m's completeness on rw-register (rw) or list-append rests on
 * the exact check (elle/exact.h): complete only where a check ran it. */
int iso_model_exact(int m, int rw);

/* Add to set every anomaly that implies one already in it (Elle's
 * all-anomalies-implying). */
void iso_anomalies_implying(uint8_t set[ISO_A_COUNT]);

/* The boundary of what the found anomalies rule out: friendly names,
 * sorted. *not_ and *also_not are malloc'ed arrays of static strings
 * (never NULL, even when empty): free the arrays, not the strings. */
void iso_models_boundary(const uint8_t found[ISO_A_COUNT],
                         const char ***not_, size_t *n_not,
                         const char ***also_not, size_t *n_also_not);
/* The same on list-append (la 1), where no implication into a model not
 * applicable there (read-committed-be) holds, or as the tables say (0). */
void iso_models_boundary_on(int la, const uint8_t found[ISO_A_COUNT], const char ***not_, size_t *n_not,
                            const char ***also_not, size_t *n_also_not);

/* What a check was asked for (check/opts.c makes it): the models -c
 * names, each once, as named (static strings), split by whether a
 * transactional check covers them (iso_model_not_checked); the anomalies
 * -a names; and what follows from both, the anomalies that make the check
 * fail. */
typedef struct iso_request {
    struct iso_asked_model { int model; const char *name; } checked[ISO_MODEL_COUNT],
        unchecked[ISO_MODEL_COUNT];
    size_t n_checked, n_unchecked, n_asked;
    uint8_t asked[ISO_A_COUNT];      /* as -a names them */
    uint8_t la;                      /* list-append: its lattice (models.c, la_not_implied) */
    uint8_t reportable[ISO_A_COUNT]; /* Elle's prohibited-anomaly-types */
} iso_request;

/* Fill req->reportable (Elle's prohibited-anomaly-types): what the models
 * checked forbid (on list-append when req->la) plus every anomaly implying
 * one asked for (-a). */
void iso_request_reportable(iso_request *req);

/* 1 when a check asked for req cannot be valid whatever it finds, with
 * why in why (NULL: not wanted): a model it names is not checked, or it
 * names nothing at all; 0 when it can. */
int iso_request_gap(const iso_request *req, iso_buf *why);

#endif
