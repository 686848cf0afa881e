/*
 * core/names.h -- "did you mean ...?": the name of a set closest to one
 * that is not in it, when the two are close enough to be a typo.
 */
#ifndef ISO_NAMES_H
#define ISO_NAMES_H

#include <stddef.h>
#include "isolde.h"

/* The names of a set, one by one: name_at(i, arg) for i = 0, 1, ... until
 * it returns NULL. */
typedef isolde_name_at iso_name_at;

/* The name closest to word by edit distance (insertions, deletions,
 * substitutions and swaps of adjacent letters, case ignored), if that
 * distance is at most a third of word's length (at least 1); the first
 * such name on ties; NULL if none is that close, or word is empty. */
const char *iso_closest_name(const char *word, iso_name_at name_at, void *arg);

#endif
