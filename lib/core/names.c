/*
 * core/names.c -- the closest name to a misspelt one: the optimal string
 * alignment distance (Levenshtein plus swaps of adjacent letters), letters
 * compared without case, over names shorter than NAME_MAX_LEN bytes (longer
 * ones are never suggested). Three rows of the distance table on the
 * stack; no allocation.
 */
#include "core/names.h"

#include <ctype.h>
#include <string.h>

#define NAME_MAX_LEN 128

static int same(char a, char b) { return tolower((unsigned char)a) == tolower((unsigned char)b); }

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* One row i of the table from the two above it (i >= 1). */
static void next_row(const char *a, size_t i, const char *b, size_t nb, const size_t *up2,
                     const size_t *up, size_t *row)
{
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
        size_t cost = !same(a[i - 1], b[j - 1]);
        row[j] = min3(up[j] + 1, row[j - 1] + 1, up[j - 1] + cost);
        if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
            up2[j - 2] + 1 < row[j])
            row[j] = up2[j - 2] + 1;
    }
}

static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t rows[3][NAME_MAX_LEN + 1];
    for (size_t j = 0; j <= nb; j++) rows[0][j] = j;
    for (size_t i = 1; i <= na; i++)
        next_row(a, i, b, nb, rows[(i + 1) % 3], rows[(i + 2) % 3], rows[i % 3]);
    return rows[na % 3][nb];
}

const char *isolde_closest_name(const char *word, isolde_name_at name_at, void *arg)
{
    return iso_closest_name(word, name_at, arg);
}

const char *iso_closest_name(const char *word, iso_name_at name_at, void *arg)
{
    size_t nw = strlen(word), limit = nw / 3 ? nw / 3 : 1, best_d = limit + 1;
    const char *best = NULL, *name;
    if (!nw || nw >= NAME_MAX_LEN) return NULL;
    for (size_t i = 0; (name = name_at(i, arg)); i++) {
        size_t nn = strlen(name);
        if (nn >= NAME_MAX_LEN || (nn > nw ? nn - nw : nw - nn) > limit) continue;
        size_t d = distance(word, nw, name, nn);
        if (d < best_d) best_d = d, best = name;
    }
    return best;
}
