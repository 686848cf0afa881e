/*
 * selfcheck.c -- the oracle judged against itself on random histories:
 * what the definitions say must hold between the verdicts of two models.
 *
 *   implications   a model allows no more than a weaker one (SER ⇒ SI ⇒
 *                  PC ⇒ CC ⇒ RA, SI ⇒ PSI ⇒ CC, each session / real-time
 *                  variant ⇒ its plain model, PL-2's ladder, read
 *                  committed (Biswas and Enea's) ⇒ monotonic atomic
 *                  view, ...); on
 *                  list-append PL-2 asks a read after the reader's own
 *                  append to show every earlier append (its version's
 *                  value), which PC, CC, RA and Biswas and Enea's RC do
 *                  not, so only PSI (NOCONFLICT) implies it there;
 *   two frames     Cerone et al.'s RA, CC, PC, SI, SER (with SESSION) and
 *                  Biswas and Enea's commit-order versions agree on
 *                  rw-register histories (their Theorem: the definitions
 *                  are equivalent); on list-append PC, SI and SER agree and
 *                  the commit-order RA and CC (which ask for one order of
 *                  each key's appends) allow no more than Cerone et al.'s;
 *   one decision   the same model under two names decides alike.
 */
#include <string.h>

#include "oracle.h"

/* a ⇒ b, on workload wl (-1: both); eq: and b ⇒ a. */
static const struct { const char *a, *b; int wl; bool eq; } rules[] = {
    {"serializable", "snapshot-isolation", -1, false},
    {"snapshot-isolation", "prefix", -1, false},
    {"snapshot-isolation", "parallel-snapshot-isolation", -1, false},
    {"prefix", "causal-cerone", -1, false},
    {"parallel-snapshot-isolation", "causal-cerone", -1, false},
    {"causal-cerone", "read-atomic", -1, false},
    {"causal", "causal-cerone", -1, false},
    {"strict-serializable", "strong-session-serializable", -1, false},
    {"strict-serializable", "strong-snapshot-isolation", -1, false},
    {"strong-session-serializable", "serializable", -1, false},
    {"strong-session-serializable", "strong-session-snapshot-isolation", -1, false},
    {"strong-snapshot-isolation", "strong-session-snapshot-isolation", -1, false},
    {"strong-session-snapshot-isolation", "snapshot-isolation", -1, false},
    {"strong-read-committed", "strong-session-read-committed", -1, false},
    {"strong-session-read-committed", "read-committed", -1, false},
    {"read-committed-be", "read-committed", OR_RW, false},
    {"read-committed-be", "monotonic-atomic-view", -1, false},
    {"read-atomic", "monotonic-atomic-view", OR_RW, false},
    {"ra-be", "read-committed-be", -1, false},
    {"prefix", "read-committed", OR_RW, false},
    {"parallel-snapshot-isolation", "read-committed", -1, false},
    {"read-atomic", "read-committed", OR_RW, false},
    {"SER", "SI", -1, false}, {"SI", "PC", -1, false}, {"SI", "PSI", -1, false},
    {"PC", "CC", -1, false}, {"PSI", "CC", -1, false}, {"CC", "RA", -1, false},
    {"RA", "read-atomic", -1, false},
    {"SER", "strong-session-serializable", -1, true},
    {"SI", "strong-session-snapshot-isolation", -1, true},
    {"CC", "causal", -1, true},
    {"strict-serializable", "strong-serializable", -1, true},
    {"RA", "ra-be", OR_RW, true}, {"CC", "cc-be", OR_RW, true}, {"PC", "pc-be", -1, true},
    {"SI", "si-be", -1, true}, {"SER", "ser-be", -1, true},
    {"ra-be", "RA", OR_LA, false}, {"cc-be", "CC", OR_LA, false},
    {"cc-be", "ra-be", -1, false}, {"pc-be", "cc-be", -1, false}, {"si-be", "pc-be", -1, false},
    {"ser-be", "si-be", -1, false},
};
#define NRULES (sizeof rules / sizeof rules[0])

static bool verdict(const struct or_hist *h, const char *name)
{
    return or_decide(h, or_model_find(name), NULL);
}

static int check_rules(const struct or_hist *h, long idx, bool verbose)
{
    int bad = 0;
    for (size_t i = 0; i < NRULES; i++) {
        if (rules[i].wl >= 0 && rules[i].wl != h->wl) continue;
        bool a = verdict(h, rules[i].a), b = verdict(h, rules[i].b);
        if ((a && !b) || (rules[i].eq && b && !a)) {
            printf("selfcheck: history %ld (%s): %s is %s but %s is %s\n", idx, h->wl == OR_LA ? "la" : "rw",
                   rules[i].a, a ? "valid" : "invalid", rules[i].b, b ? "valid" : "invalid");
            if (verbose || bad == 0) or_write_jsonl(h, stdout);
            bad++;
        }
    }
    return bad;
}

int or_selfcheck(int n, uint64_t seed, bool verbose)
{
    struct or_rng r = {seed * 0x9e3779b97f4a7c15ULL + 7};
    long bad = 0, runs = 0, valid[64] = {0};
    for (int i = 0; i < n; i++)
        for (int wl = OR_LA; wl <= OR_RW; wl++) {
            static struct or_hist h;
            char kind[64];
            bool built;
            int m = 0;
            while (or_model_at(m + 1)) m++;
            m = or_rnd(&r, m + 1);
            or_gen(&h, wl, or_model_at(m)->name, &r, kind, sizeof kind, &built);
            if (built && !or_decide(&h, or_model_at(m), NULL)) {
                printf("selfcheck: history %d simulated at %s (%s) judged invalid\n", i, or_model_at(m)->name, kind);
                or_write_jsonl(&h, stdout);
                bad++;
            }
            bad += check_rules(&h, i, verbose);
            for (int k = 0; or_model_at(k); k++) valid[k] += or_decide(&h, or_model_at(k), NULL);
            runs++;
        }
    printf("selfcheck: %ld histories, %zu relations each, %ld failed; valid at:", runs, NRULES, bad);
    for (int m = 0; or_model_at(m); m++) printf(" %s %ld", or_model_at(m)->name, valid[m]);
    printf("\n");
    return bad ? 1 : 0;
}
