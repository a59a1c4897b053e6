// SPDX-License-Identifier: MIT
// The evaluation's weights: every value eval.c and psqt.c add up, as one flat table of
// (middlegame, endgame) pairs so that tools/tune can fit them all to game results.
// src/weights.c is written by tools/tune; the layout below is the contract between them.
#ifndef OUTPOST_WEIGHTS_H
#define OUTPOST_WEIGHTS_H

#include <stdint.h>

#include "types.h"

typedef struct {
    int16_t mg, eg;
} Weight;

// Square index into a piece's table: rank * 4 + file folded onto a-d, so a piece on
// e4 shares d4's value (the tables are mirror-symmetric by construction).
static inline int weight_square(Square sq)
{
    int f = sq & 7;
    return (sq >> 3) * 4 + (f < 4 ? f : 7 - f);
}

enum { MOBILITY_KNIGHT_NB = 9, MOBILITY_BISHOP_NB = 14, MOBILITY_ROOK_NB = 15, MOBILITY_QUEEN_NB = 28 };
// King danger is looked up by attack units, capped at the last entry.
enum { KING_DANGER_NB = 64 };

/*
 * Layout of eval_weights[] (each entry one Weight):
 *   WT_PIECE_VALUE   [piece type]           material; the king's entry is unused
 *   WT_PSQT          [piece type][32]       square bonus, index weight_square() from the
 *                                           piece owner's side (a1 = own corner)
 *   WT_MOBILITY      knight 0..8, bishop 0..13, rook 0..14, queen 0..27 safe squares reached
 *   WT_PASSED        [relative rank]        passed pawn
 *   WT_PASSED_FREE   [relative rank]        extra when nothing stands in front of it
 *   WT_ISOLATED, WT_DOUBLED                 pawn structure, per pawn
 *   WT_ROOK_OPEN, WT_ROOK_HALF_OPEN         rook on a file without pawns / without own pawns
 *   WT_BISHOP_PAIR
 *   WT_SHELTER                              per own pawn in the two ranks in front of the king
 *   WT_KING_DANGER   [attack units]         added when two or more pieces, queen among them,
 *                                           attack the king's zone (negative = bad for the
 *                                           defender)
 */
enum {
    WT_PIECE_VALUE = 0,
    WT_PSQT = WT_PIECE_VALUE + PIECE_TYPE_NB,
    WT_MOBILITY = WT_PSQT + PIECE_TYPE_NB * 32,
    WT_PASSED = WT_MOBILITY + MOBILITY_KNIGHT_NB + MOBILITY_BISHOP_NB + MOBILITY_ROOK_NB + MOBILITY_QUEEN_NB,
    WT_PASSED_FREE = WT_PASSED + 8,
    WT_ISOLATED = WT_PASSED_FREE + 8,
    WT_DOUBLED,
    WT_ROOK_OPEN,
    WT_ROOK_HALF_OPEN,
    WT_BISHOP_PAIR,
    WT_SHELTER,
    WT_KING_DANGER,
    WT_NB = WT_KING_DANGER + KING_DANGER_NB
};

// Index of the mobility entry of a piece of `type` (KNIGHT..QUEEN) reaching `count` squares.
static inline int weight_mobility(int type, int count)
{
    static const int OFFSET[PIECE_TYPE_NB] = {
        0, 0, MOBILITY_KNIGHT_NB, MOBILITY_KNIGHT_NB + MOBILITY_BISHOP_NB,
        MOBILITY_KNIGHT_NB + MOBILITY_BISHOP_NB + MOBILITY_ROOK_NB, 0};
    return WT_MOBILITY + OFFSET[type] + count;
}

extern const Weight eval_weights[WT_NB];

#endif
