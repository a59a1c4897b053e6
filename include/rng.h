// SPDX-License-Identifier: MIT
// splitmix64, the one pseudo-random generator of the engine and its tools (Zobrist keys,
// book and weakened choices, data generation, network initialisation).
#ifndef OUTPOST_RNG_H
#define OUTPOST_RNG_H

#include <stdint.h>

// The next number of the sequence whose state is *state.
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
