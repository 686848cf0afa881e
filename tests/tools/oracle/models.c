/*
 * models.c -- the oracle's model names and how each is decided (docs/MODELS.md
 * explains the choices).
 *
 * Elle's plain names never involve process order: Elle's DAG has
 * serializable -> snapshot-isolation -> parallel-snapshot-isolation ->
 * causal-cerone -> read-atomic, and serializable is Adya's PL-3, with no
 * session order (strong-session-serializable adds it). So the plain names
 * are Cerone et al.'s models without SESSION; the strong-session-* names
 * add SESSION (SO ⊆ VIS), the strong-* / strict-* names add real time
 * (RT ⊆ VIS, which with TOTALVIS is RT ⊆ AR) as well as SESSION. `causal`
 * is Cerone et al.'s CC with SESSION: Elle's `causal` implies PRAM and the
 * session guarantees (read-your-writes, monotonic reads and writes, writes
 * follow reads), which only SESSION gives. The paper's own six models
 * (with SESSION) go by its abbreviations, Biswas and Enea's by *-be, and
 * both serve to cross-check the oracle (their theorem: for registers the
 * two frames agree on RA, CC, PC, SI and SER). monotonic-atomic-view
 * (Bailis et al., VLDB 2014: once a transaction observed another, its later
 * reads return that one's versions or later ones) is Biswas and Enea's
 * Read Committed axiom over a commit order with neither session order nor
 * INT: the axiom is that definition, co's order of a key's writers the
 * "later" of its versions.
 */
#include <string.h>

#include "oracle.h"

#define SES AX_SESSION
#define RT_ (AX_SESSION | AX_REALTIME)
#define TV AX_TRANSVIS
#define PF AX_PREFIX
#define NC AX_NOCONFLICT
#define TOT AX_TOTALVIS

static const struct or_model models[] = {
    {"read-committed", MODEL_CO, CO_EXTERNAL, CO_NONE, "Adya PL-2: no G0, G1a, G1b, G1c (Elle's)"},
    {"strong-session-read-committed", MODEL_CO, CO_EXTERNAL | CO_SO, CO_NONE, "PL-2 and no G1c-process"},
    {"strong-read-committed", MODEL_CO, CO_EXTERNAL | CO_SO | CO_RT, CO_NONE,
     "PL-2 and no G1c-realtime"},
    {"read-committed-be", MODEL_CO, CO_SO | CO_INT, CO_RC, "Biswas & Enea's Read Committed"},
    {"read-atomic", MODEL_VIS, 0, 0, "INT, EXT"},
    {"causal-cerone", MODEL_VIS, TV, 0, "INT, EXT, TRANSVIS"},
    {"causal", MODEL_VIS, TV | SES, 0, "INT, EXT, SESSION, TRANSVIS (Cerone et al.'s CC)"},
    {"parallel-snapshot-isolation", MODEL_VIS, TV | NC, 0, "INT, EXT, TRANSVIS, NOCONFLICT"},
    {"prefix", MODEL_VIS, PF, 0, "INT, EXT, PREFIX"},
    {"snapshot-isolation", MODEL_VIS, PF | NC, 0, "INT, EXT, PREFIX, NOCONFLICT"},
    {"serializable", MODEL_VIS, TOT, 0, "INT, EXT, TOTALVIS"},
    {"strong-session-snapshot-isolation", MODEL_VIS, PF | NC | SES, 0, "SI with SESSION"},
    {"strong-session-serializable", MODEL_VIS, TOT | SES, 0, "SER with SESSION"},
    {"strong-snapshot-isolation", MODEL_VIS, PF | NC | RT_, 0, "SI with SESSION and RT ⊆ VIS"},
    {"strict-serializable", MODEL_VIS, TOT | RT_, 0, "SER with RT ⊆ AR (= VIS)"},
    {"strong-serializable", MODEL_VIS, TOT | RT_, 0, "strict-serializable"},
    {"RA", MODEL_VIS, SES, 0, "Cerone et al.: INT, EXT, SESSION"},
    {"CC", MODEL_VIS, SES | TV, 0, "Cerone et al.: RA and TRANSVIS"},
    {"PSI", MODEL_VIS, SES | TV | NC, 0, "Cerone et al.: CC and NOCONFLICT"},
    {"PC", MODEL_VIS, SES | PF, 0, "Cerone et al.: RA and PREFIX"},
    {"SI", MODEL_VIS, SES | PF | NC, 0, "Cerone et al.: PC and NOCONFLICT"},
    {"SER", MODEL_VIS, SES | TOT, 0, "Cerone et al.: RA and TOTALVIS"},
    {"ra-be", MODEL_CO, CO_SO | CO_INT, CO_RA, "Biswas & Enea's Read Atomic"},
    {"cc-be", MODEL_CO, CO_SO | CO_INT, CO_CC, "Biswas & Enea's Causal"},
    {"pc-be", MODEL_CO, CO_SO | CO_INT, CO_PC, "Biswas & Enea's Prefix"},
    {"si-be", MODEL_CO, CO_SO | CO_INT, CO_SI, "Biswas & Enea's Prefix and Conflict"},
    {"ser-be", MODEL_CO, CO_SO | CO_INT, CO_SER, "Biswas & Enea's Serializability"},
    {"monotonic-atomic-view", MODEL_CO, 0, CO_RC, "Bailis et al.'s MAV: B&E's Read Committed without SO"},
};

const struct or_model *or_model_at(int i)
{
    return i >= 0 && i < (int)(sizeof models / sizeof models[0]) ? &models[i] : NULL;
}

const struct or_model *or_model_find(const char *name)
{
    for (int i = 0; or_model_at(i); i++)
        if (!strcmp(models[i].name, name)) return &models[i];
    return NULL;
}

bool or_decide(const struct or_hist *h, const struct or_model *m, struct or_witness *w)
{
    static struct or_facts f;
    or_facts_init(&f, h);
    if (m->engine == MODEL_VIS) return or_vis_decide(&f, m->bits, w);
    return or_co_decide(&f, m->axiom, m->bits, w);
}

static void print_set(const char *label, tset s, FILE *out)
{
    fprintf(out, "%s{", label);
    for (int t = 0, first = 1; t < OR_MAXT; t++)
        if (s >> t & 1) fprintf(out, first ? "T%d" : " T%d", t), first = 0;
    fprintf(out, "}");
}

/* The order (AR or co) and, for an abstract execution, each VIS⁻¹. */
void or_print_witness(const struct or_hist *h, const struct or_witness *w, FILE *out)
{
    if (!w->found) return;
    fprintf(out, "order:");
    for (int i = 0; i < w->n; i++) fprintf(out, " T%d", w->order[i]);
    fprintf(out, "\n");
    for (int i = 0; i < w->n; i++) {
        int t = w->order[i];
        if (!w->vis[t] && h->t[t].type != OR_OK) continue;
        fprintf(out, "  T%d (process %d, %s)", t, h->t[t].proc,
                h->t[t].type == OR_OK ? "ok" : "info, committed");
        print_set(" sees ", w->vis[t], out);
        fprintf(out, "\n");
    }
}
