// SPDX-License-Identifier: MIT
// Static evaluation: the incremental material + centre tables (psqt) plus mobility,
// pawn structure, king safety, bishop pair, rooks on open files and tempo, tapered
// between middlegame and endgame by the material left.
#ifndef OUTPOST_EVAL_H
#define OUTPOST_EVAL_H

#include "position.h"
#include "weights.h"

// Score of pos in centipawns from the side to move's point of view. Never a mate score.
Score eval_evaluate(const Position *pos);

// What the evaluation of one position is made of, for tools/tune: the evaluation is
// linear in the weights once phase and scale are fixed.
typedef struct {
    int16_t coef[WT_NB]; // times each weight was counted, white's minus black's
    int phase;           // 24 (all pieces) .. 0 (kings and pawns)
    int scale;           // endgame part scaled by scale / 64 (drawish endings)
} EvalTrace;

// Evaluates like eval_evaluate and fills *trace.
Score eval_trace(const Position *pos, EvalTrace *trace);

// The evaluation, from white's point of view and without rounding, that weights w
// (w[i][0] middlegame, w[i][1] endgame) give a traced position with `side` to move.
double eval_from_trace(const EvalTrace *trace, const double (*w)[2], int side);

#endif
