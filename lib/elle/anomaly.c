/* elle/anomaly.c -- anomaly names and Elle's implied-anomalies relation, closed. */
#include "elle/anomaly.h"

#include <pthread.h>
#include <string.h>

static const char *const names[ISO_A_COUNT] = {
#define ISO_X(id, name) name,
    ISO_ANOMALIES(ISO_X)
#undef ISO_X
};

const char *iso_anomaly_name(int a)
{
    return a >= 0 && a < ISO_A_COUNT ? names[a] : "?";
}

const char *iso_anomaly_name_at(size_t i, void *arg)
{
    (void)arg;
    return i < ISO_A_COUNT ? names[i] : NULL;
}

int iso_anomaly_parse(const char *name)
{
    for (int a = 0; a < ISO_A_COUNT; a++)
        if (strcmp(names[a], name) == 0) return a;
    return -1;
}

/* Elle's implied-anomalies (elle.md R4): observing the first implies the second. */
#define A(x) ISO_A_##x
static const uint8_t direct[][2] = {
    {A(G0), A(G1C)}, {A(G0), A(G0_PROCESS)},
    {A(G0_PROCESS), A(G1C_PROCESS)}, {A(G0_PROCESS), A(G0_REALTIME)},
    {A(G0_REALTIME), A(G1C_REALTIME)},
    {A(G1A), A(G1)}, {A(G1B), A(G1)},
    {A(G1C), A(G1)}, {A(G1C), A(G1C_PROCESS)},
    {A(G1C_PROCESS), A(G1C_REALTIME)}, {A(G1C_PROCESS), A(G1_PROCESS)},
    {A(G1C_REALTIME), A(G1_REALTIME)},
    {A(G1), A(G1_PROCESS)}, {A(G1_PROCESS), A(G1_REALTIME)},
    {A(G_SINGLE_ITEM), A(G_SINGLE)}, {A(G_SINGLE_ITEM), A(G_SINGLE_ITEM_PROCESS)},
    {A(G_SINGLE_ITEM), A(G_NONADJACENT_ITEM)},
    {A(G_SINGLE_ITEM_PROCESS), A(G_SINGLE_PROCESS)},
    {A(G_SINGLE_ITEM_PROCESS), A(G_SINGLE_ITEM_REALTIME)},
    {A(G_SINGLE_ITEM_PROCESS), A(G_NONADJACENT_ITEM_PROCESS)},
    {A(G_SINGLE_ITEM_REALTIME), A(G_SINGLE_REALTIME)},
    {A(G_SINGLE_ITEM_REALTIME), A(G_NONADJACENT_ITEM_REALTIME)},
    {A(G_SINGLE), A(G_NONADJACENT)}, {A(G_SINGLE), A(GSIB)}, {A(G_SINGLE), A(G_SINGLE_PROCESS)},
    {A(G_SINGLE_PROCESS), A(G_NONADJACENT_PROCESS)}, {A(G_SINGLE_PROCESS), A(G_SINGLE_REALTIME)},
    {A(G_SINGLE_REALTIME), A(G_NONADJACENT_REALTIME)},
    {A(G_NONADJACENT_ITEM), A(G_NONADJACENT)}, {A(G_NONADJACENT_ITEM), A(G2_ITEM)},
    {A(G_NONADJACENT_ITEM), A(G_NONADJACENT_ITEM_PROCESS)},
    {A(G_NONADJACENT_ITEM_PROCESS), A(G_NONADJACENT_PROCESS)},
    {A(G_NONADJACENT_ITEM_PROCESS), A(G2_ITEM_PROCESS)},
    {A(G_NONADJACENT_ITEM_PROCESS), A(G_NONADJACENT_ITEM_REALTIME)},
    {A(G_NONADJACENT_ITEM_REALTIME), A(G2_ITEM_REALTIME)},
    {A(G_NONADJACENT_ITEM_REALTIME), A(G_NONADJACENT_REALTIME)},
    {A(G_NONADJACENT), A(G2)}, {A(G_NONADJACENT), A(G_NONADJACENT_PROCESS)},
    {A(G_NONADJACENT_PROCESS), A(G2_PROCESS)}, {A(G_NONADJACENT_PROCESS), A(G_NONADJACENT_REALTIME)},
    {A(G_NONADJACENT_REALTIME), A(G2_REALTIME)},
    {A(G2), A(G2_PROCESS)},
    {A(G2_ITEM), A(G2)}, {A(G2_ITEM), A(G2_ITEM_PROCESS)},
    {A(G2_ITEM_PROCESS), A(G2_PROCESS)}, {A(G2_ITEM_PROCESS), A(G2_ITEM_REALTIME)},
    {A(G2_ITEM_REALTIME), A(G2_REALTIME)},
    {A(G2_PROCESS), A(G2_REALTIME)},
    {A(GSIA), A(GSI)}, {A(GSIB), A(GSI)},
    {A(INCOMPATIBLE_ORDER), A(G1A)}, {A(FUTURE_READ), A(G1C)}, {A(DIRTY_UPDATE), A(G1A)},
    {A(LOST_UPDATE), A(WRITE_SKEW)}, {A(LOST_UPDATE), A(G2_ITEM)},
    {A(WRITE_SKEW), A(G2)},
    /* issue 25: a fractured read misses a write of a transaction it read
     * from, so of its causal past; a non-monotonic read (monotonic atomic
     * view's violation) is a fractured read whose missed read follows the
     * observing one, and the -process form when session order orders its
     * transactions (read committed in Biswas and Enea's sense, implied by
     * causal consistency with session order); a read after the reader's
     * own write that does not return that write disagrees with it (Elle's
     * internal) */
    {A(FRACTURED_READ), A(CAUSALITY_VIOLATION)},
    {A(CAUSALITY_VIOLATION), A(CAUSALITY_VIOLATION_PROCESS)},
    {A(NON_MONOTONIC_READ), A(FRACTURED_READ)}, {A(NON_MONOTONIC_READ), A(NON_MONOTONIC_READ_PROCESS)},
    {A(NON_MONOTONIC_READ_PROCESS), A(CAUSALITY_VIOLATION_PROCESS)},
    {A(NOT_MY_OWN_WRITE), A(INTERNAL)}, {A(NOT_MY_LAST_WRITE), A(INTERNAL)},
};
#undef A

static uint8_t closure[ISO_A_COUNT][ISO_A_COUNT];
static pthread_once_t closure_once = PTHREAD_ONCE_INIT;

static void build_closure(void)
{
    for (int a = 0; a < ISO_A_COUNT; a++) closure[a][a] = 1;
    for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++)
        closure[direct[i][0]][direct[i][1]] = 1;
    for (int k = 0; k < ISO_A_COUNT; k++)
        for (int i = 0; i < ISO_A_COUNT; i++)
            if (closure[i][k])
                for (int j = 0; j < ISO_A_COUNT; j++)
                    if (closure[k][j]) closure[i][j] = 1;
}

int iso_anomaly_implies(int a, int b)
{
    if (a < 0 || b < 0 || a >= ISO_A_COUNT || b >= ISO_A_COUNT) return 0;
    pthread_once(&closure_once, build_closure);
    return closure[a][b];
}
