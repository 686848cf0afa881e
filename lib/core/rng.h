/*
 * core/rng.h -- the seeded random source the generators, the simulated
 * database and the nemeses draw from: splitmix64, small, fast, and the
 * same sequence on every platform, so that one seed gives one history.
 */
#ifndef ISO_CORE_RNG_H
#define ISO_CORE_RNG_H

#include <stdint.h>

/* The next 64 random bits of the sequence whose state is *s. */
static inline uint64_t iso_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n), n > 0. */
static inline uint32_t iso_rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((iso_rng_next(s) >> 32) * (uint64_t)n) >> 32);
}
/* Uniform in [0, 1). */
static inline double iso_rng_unit(uint64_t *s)
{
    return (double)(iso_rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
