// SPDX-License-Identifier: MIT
// Builds the attack tables. Magics are found by trial with a fixed-seed generator, so
// every run builds the same tables; the search takes a few milliseconds.
#include "attacks.h"

#include "bitboard.h"

AttackTables attack_tables;

static const int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

Bitboard attacks_slider_slow(int type, Square sq, Bitboard occupied)
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

static Bitboard leaper_attacks(Square sq, const int (*steps)[2], int count)
{
    Bitboard attacks = 0;
    for (int i = 0; i < count; i++) {
        int f = sq_file(sq) + steps[i][0], r = sq_rank(sq) + steps[i][1];
        if (on_board(f, r))
            attacks |= sq_bb(make_square(f, r));
    }
    return attacks;
}

// xorshift64*: small, fast and good enough to find magics.
static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

// Finds a magic for one square and fills its part of the table. Candidates with few bits
// set succeed far more often, hence the AND of three draws.
static void init_magic(int type, Square sq, Magic *m, Bitboard *table, uint64_t *seed)
{
    Bitboard edges = ((rank_bb(RANK_1) | rank_bb(RANK_8)) & ~rank_bb(sq_rank(sq)))
                   | ((file_bb(FILE_A) | file_bb(FILE_H)) & ~file_bb(sq_file(sq)));
    m->mask = attacks_slider_slow(type, sq, 0) & ~edges;
    int bits = popcount(m->mask);
    m->shift = 64 - bits;
    m->table = table;

    Bitboard occupancy[4096], reference[4096];
    int epoch[4096] = {0};
    int size = 0;
    Bitboard b = 0;
    do { // Carry-Rippler enumeration of every subset of the mask
        occupancy[size] = b;
        reference[size] = attacks_slider_slow(type, sq, b);
        size++;
        b = (b - m->mask) & m->mask;
    } while (b);

    for (int attempt = 1;; attempt++) {
        do {
            m->magic = rng_next(seed) & rng_next(seed) & rng_next(seed);
        } while (popcount((m->mask * m->magic) >> 56) < 6);
        int i;
        for (i = 0; i < size; i++) {
            unsigned idx = (unsigned)(((occupancy[i] & m->mask) * m->magic) >> m->shift);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = reference[i];
            } else if (table[idx] != reference[i]) {
                break;
            }
        }
        if (i == size)
            return;
    }
}

void attacks_init(void)
{
    static bool done = false;
    if (done)
        return;
    static const int KNIGHT_STEPS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int KING_STEPS[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int WPAWN_STEPS[2][2] = {{-1, 1}, {1, 1}};
    static const int BPAWN_STEPS[2][2] = {{-1, -1}, {1, -1}};
    AttackTables *t = &attack_tables;

    for (Square sq = 0; sq < 64; sq++) {
        t->knight[sq] = leaper_attacks(sq, KNIGHT_STEPS, 8);
        t->king[sq] = leaper_attacks(sq, KING_STEPS, 8);
        t->pawn[WHITE][sq] = leaper_attacks(sq, WPAWN_STEPS, 2);
        t->pawn[BLACK][sq] = leaper_attacks(sq, BPAWN_STEPS, 2);
    }

    // One generator seed per rank, chosen (by trying the first few thousand) so that
    // every magic is found after few candidates: start-up stays within milliseconds.
    static const uint64_t RANK_SEEDS[8] = {3426, 121, 1087, 928, 2094, 3166, 3183, 1733};
    uint64_t seed = 0;
    Bitboard *rook_next = t->rook_table, *bishop_next = t->bishop_table;
    for (Square sq = 0; sq < 64; sq++) {
        if (sq_file(sq) == 0)
            seed = RANK_SEEDS[sq_rank(sq)] * 0x9E3779B97F4A7C15ULL;
        init_magic(BISHOP, sq, &t->bishop_magic[sq], bishop_next, &seed);
        bishop_next += 1ULL << (64 - t->bishop_magic[sq].shift);
        init_magic(ROOK, sq, &t->rook_magic[sq], rook_next, &seed);
        rook_next += 1ULL << (64 - t->rook_magic[sq].shift);
    }

    for (Square a = 0; a < 64; a++) {
        for (Square b = 0; b < 64; b++) {
            t->between[a][b] = t->line[a][b] = 0;
            if (a == b)
                continue;
            for (int type = BISHOP; type <= ROOK; type++) {
                if (attacks_slider_slow(type, a, 0) & sq_bb(b)) {
                    t->line[a][b] = (attacks_slider_slow(type, a, 0) & attacks_slider_slow(type, b, 0))
                                  | sq_bb(a) | sq_bb(b);
                    t->between[a][b] = attacks_slider_slow(type, a, sq_bb(b))
                                     & attacks_slider_slow(type, b, sq_bb(a));
                }
            }
        }
    }
    done = true;
}
