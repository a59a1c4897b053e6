// SPDX-License-Identifier: MIT
// Material and piece-square values, expanded from the weight table (material plus a
// mirror-symmetric square bonus per piece type) into one entry per piece and square.
#include "psqt.h"

#include "weights.h"

PackedScore psqt[PIECE_NB][64];

void psqt_init(void)
{
    for (int type = PAWN; type <= KING; type++) {
        for (Square sq = 0; sq < 64; sq++) {
            Weight v = eval_weights[WT_PIECE_VALUE + type];
            Weight b = eval_weights[WT_PSQT + type * 32 + weight_square(sq)];
            PackedScore s = S(v.mg + b.mg, v.eg + b.eg);
            psqt[make_piece(WHITE, type)][sq] = s;
            psqt[make_piece(BLACK, type)][relative_square(BLACK, sq)] = -s;
        }
    }
}
