// SPDX-License-Identifier: MIT
// Zobrist keys from a fixed-seed splitmix64 generator.
#include "zobrist.h"

#include "rng.h"
ZobristKeys zobrist;

void zobrist_init(void)
{
    uint64_t seed = 0x4F757470u;
    for (int p = 0; p < PIECE_NB; p++)
        for (int sq = 0; sq < 64; sq++)
            zobrist.piece_square[p][sq] = rng_next(&seed);
    // Castling keys are xors of one key per right, so updating rights stays a single xor.
    Key right[4];
    for (int i = 0; i < 4; i++)
        right[i] = rng_next(&seed);
    for (int mask = 0; mask < 16; mask++) {
        zobrist.castling[mask] = 0;
        for (int i = 0; i < 4; i++)
            if (mask & (1 << i))
                zobrist.castling[mask] ^= right[i];
    }
    for (int f = 0; f < 8; f++)
        zobrist.ep_file[f] = rng_next(&seed);
    zobrist.side = rng_next(&seed);
}
