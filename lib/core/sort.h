/*
 * core/sort.h -- the ascending comparators of qsort and bsearch over plain
 * integers, one of each (a file of the library sorts dense ids and packed
 * keys with these, never a copy of its own).
 */
#ifndef ISO_CORE_SORT_H
#define ISO_CORE_SORT_H

#include <stdint.h>

static inline int iso_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static inline int iso_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static inline int iso_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

#endif
