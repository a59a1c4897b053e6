// SPDX-License-Identifier: MIT
// Material and piece-square values. The square bonuses come from a few rules about the
// centre rather than 384 hand-typed numbers, so each value says why it is what it is.
#include "psqt.h"


const int piece_value_mg[PIECE_TYPE_NB] = {82, 337, 365, 477, 1025, 0};
const int piece_value_eg[PIECE_TYPE_NB] = {104, 281, 297, 512, 936, 0};

PackedScore psqt[PIECE_NB][64];

// Distance from the board's edge along files and ranks: 0 on the edge, 3 in the centre.
static int edge_dist(int x) { return x < 4 ? x : 7 - x; }

// Bonus for a white piece of `type` on sq.
static PackedScore square_bonus(int type, Square sq)
{
    int f = sq_file(sq), r = sq_rank(sq);
    int fc = edge_dist(f), rc = edge_dist(r);
    int centre = fc + rc; // 0 (corner) .. 6 (d4, d5, e4, e5)
    switch (type) {
    case PAWN: {
        // Pawns gain as they advance; central pawns on the 4th-5th ranks control the centre.
        int central = (fc == 3) ? (r >= 3 ? 18 : (r == 2 ? 8 : 0)) : (fc == 2 ? (r >= 2 ? 6 : 0) : 0);
        // Flank pawns in front of a castled king are worth keeping at home.
        int shelter = (fc <= 1 && r == 1) ? 6 : 0;
        return S(3 * (r - 1) + central + shelter - (fc == 3 && r == 1 ? 10 : 0), 6 * (r - 1));
    }
    case KNIGHT:
        return S(7 * centre - 21 + (r == 0 ? -8 : 0), 5 * centre - 15);
    case BISHOP:
        // Bishops like long diagonals through the centre, not the back rank.
        return S(3 * centre - 6 + (r == 0 ? -8 : 0) + (f == r || f == 7 - r ? 6 : 0), 3 * centre - 9);
    case ROOK:
        return S((r == 6 ? 16 : 0) + (fc >= 2 ? 4 : 0), (r == 6 ? 10 : 0));
    case QUEEN:
        return S(2 * centre - 6, 4 * centre - 12);
    default: {
        // King: hide in the corner in the middlegame, walk to the centre in the endgame.
        int mg = r == 0 ? (fc <= 1 ? 24 : (fc == 2 ? 6 : -8)) : -18 * r;
        return S(mg, 9 * centre - 30);
    }
    }
}

void psqt_init(void)
{
    for (int type = PAWN; type <= KING; type++) {
        for (Square sq = 0; sq < 64; sq++) {
            PackedScore s = S(piece_value_mg[type], piece_value_eg[type]) + square_bonus(type, sq);
            psqt[make_piece(WHITE, type)][sq] = s;
            psqt[make_piece(BLACK, type)][relative_square(BLACK, sq)] = -s;
        }
    }
}
