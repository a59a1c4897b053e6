// SPDX-License-Identifier: MIT
// Builds the attack tables. The slider magics were searched at build time (tools/gen_magics,
// fixed seed), so start-up only fills the tables.
#include "attacks.h"

#include <assert.h>

#include "bitboard.h"
#include "magic.h"
#include "magics.inc"

AttackTables attack_tables;

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

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

// Fills one square's slice of a slider table through its magic. A slot written twice must
// receive the same attack set, which the generator guaranteed.
static void init_magic(int type, Square sq, Bitboard magic, Magic *m, Bitboard *table)
{
    m->mask = slider_mask(type, sq);
    m->magic = magic;
    m->shift = 64 - popcount(m->mask);
    m->table = table;
    Bitboard b = 0;
    do { // Carry-Rippler enumeration of every subset of the mask
        Bitboard attacks = slider_attacks_slow(type, sq, b);
        assert(magic_lookup(m, b) == 0 || magic_lookup(m, b) == attacks);
        table[(b * magic) >> m->shift] = attacks;
        b = (b - m->mask) & m->mask;
    } while (b);
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

    Bitboard *rook_next = t->rook_table, *bishop_next = t->bishop_table;
    for (Square sq = 0; sq < 64; sq++) {
        init_magic(BISHOP, sq, BISHOP_MAGICS[sq], &t->bishop_magic[sq], bishop_next);
        bishop_next += 1ULL << (64 - t->bishop_magic[sq].shift);
        init_magic(ROOK, sq, ROOK_MAGICS[sq], &t->rook_magic[sq], rook_next);
        rook_next += 1ULL << (64 - t->rook_magic[sq].shift);
    }

    for (Square a = 0; a < 64; a++) {
        for (Square b = 0; b < 64; b++) {
            t->between[a][b] = t->line[a][b] = 0;
            if (a == b)
                continue;
            for (int type = BISHOP; type <= ROOK; type++) {
                if (slider_attacks_slow(type, a, 0) & sq_bb(b)) {
                    t->line[a][b] = (slider_attacks_slow(type, a, 0) & slider_attacks_slow(type, b, 0))
                                  | sq_bb(a) | sq_bb(b);
                    t->between[a][b] = slider_attacks_slow(type, a, sq_bb(b))
                                     & slider_attacks_slow(type, b, sq_bb(a));
                }
            }
        }
    }
    done = true;
}
