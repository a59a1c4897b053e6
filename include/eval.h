// SPDX-License-Identifier: MIT
// Static evaluation: the incremental material + centre tables (psqt) plus mobility,
// pawn structure, king safety, bishop pair, rooks on open files and tempo, tapered
// between middlegame and endgame by the material left.
#ifndef OUTPOST_EVAL_H
#define OUTPOST_EVAL_H

#include "position.h"

// Score of pos in centipawns from the side to move's point of view. Never a mate score.
Score eval_evaluate(const Position *pos);

#endif
