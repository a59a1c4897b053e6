// SPDX-License-Identifier: MIT
// Zobrist keys from a fixed-seed splitmix64 generator.
#include "zobrist.h"

ZobristKeys zobrist;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zobrist_init(void)
{
    uint64_t seed = 0x4F757470u;
    for (int p = 0; p < PIECE_NB; p++)
        for (int sq = 0; sq < 64; sq++)
            zobrist.piece_square[p][sq] = splitmix64(&seed);
    // Castling keys are xors of one key per right, so updating rights stays a single xor.
    Key right[4];
    for (int i = 0; i < 4; i++)
        right[i] = splitmix64(&seed);
    for (int mask = 0; mask < 16; mask++) {
        zobrist.castling[mask] = 0;
        for (int i = 0; i < 4; i++)
            if (mask & (1 << i))
                zobrist.castling[mask] ^= right[i];
    }
    for (int f = 0; f < 8; f++)
        zobrist.ep_file[f] = splitmix64(&seed);
    zobrist.side = splitmix64(&seed);
}
