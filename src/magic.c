// SPDX-License-Identifier: MIT
// Magic-number search by trial (see magic.h). Runs at build time, not at start-up.
#include "magic.h"

#include "bitboard.h"

static const int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

Bitboard slider_attacks_slow(int type, Square sq, Bitboard occupied)
{
    const int(*dirs)[2] = type == ROOK ? ROOK_DIRS : BISHOP_DIRS;
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(sq) + dirs[d][0], r = sq_rank(sq) + dirs[d][1];
        for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1]) {
            Bitboard b = sq_bb(make_square(f, r));
            attacks |= b;
            if (occupied & b)
                break;
        }
    }
    return attacks;
}

Bitboard slider_mask(int type, Square sq)
{
    Bitboard edges = ((rank_bb(RANK_1) | rank_bb(RANK_8)) & ~rank_bb(sq_rank(sq)))
                   | ((file_bb(FILE_A) | file_bb(FILE_H)) & ~file_bb(sq_file(sq)));
    return slider_attacks_slow(type, sq, 0) & ~edges;
}

// xorshift64*: small, fast and good enough to find magics.
static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

Bitboard magic_find(int type, Square sq, uint64_t *seed)
{
    Bitboard mask = slider_mask(type, sq);
    int shift = 64 - popcount(mask);

    static Bitboard occupancy[4096], reference[4096], table[4096];
    static int epoch[4096];
    int size = 0;
    Bitboard b = 0;
    do { // Carry-Rippler enumeration of every subset of the mask
        occupancy[size] = b;
        reference[size] = slider_attacks_slow(type, sq, b);
        size++;
        b = (b - mask) & mask;
    } while (b);

    // epoch[] marks which slots the current attempt wrote, so no clearing between attempts.
    for (int i = 0; i < 4096; i++)
        epoch[i] = 0;
    for (int attempt = 1;; attempt++) {
        Bitboard magic;
        do { // sparse candidates (AND of three draws) succeed far more often
            magic = rng_next(seed) & rng_next(seed) & rng_next(seed);
        } while (popcount((mask * magic) >> 56) < 6);
        int i;
        for (i = 0; i < size; i++) {
            unsigned idx = (unsigned)((occupancy[i] * magic) >> shift);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = reference[i];
            } else if (table[idx] != reference[i]) {
                break;
            }
        }
        if (i == size)
            return magic;
    }
}
