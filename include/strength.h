// SPDX-License-Identifier: MIT
// Playing at a chosen strength (UCI_LimitStrength, UCI_Elo): a level maps to a node budget
// per move and a spread in centipawns; the search looks at the best few moves within that
// budget and one of those within the spread of the best is played, likelier the closer it
// is. Lower levels search less and stray further, as weaker players do. The mapping is
// calibrated against Stockfish 15.1's UCI_Elo scale (docs/STRENGTH.md).
#ifndef OUTPOST_STRENGTH_H
#define OUTPOST_STRENGTH_H

#include "types.h"

enum { STRENGTH_MIN_ELO = 1320, STRENGTH_MAX_ELO = 2300, STRENGTH_LINES = 4 };

typedef struct {
    uint64_t nodes; // node budget per move
    int spread;     // centipawns below the best that a move may still be chosen
    int lines;      // root moves searched to choose from (at most STRENGTH_LINES)
} StrengthPlan;

// The plan for a level (clamped to STRENGTH_MIN_ELO..STRENGTH_MAX_ELO).
StrengthPlan strength_plan(int elo);

// Index of the move to play among n lines whose scores (best first) are given: one within
// spread of the best, with weight spread + 1 - (best - score); r is a random number.
int strength_choose(const Score *scores, int n, int spread, uint64_t r);

#endif
