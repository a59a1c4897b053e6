// SPDX-License-Identifier: MIT
// The heart of the evaluation: material plus centre control, as tapered piece-square
// values. The position keeps their sum up to date on every board change; eval.c adds
// the rest. Scores are packed: middlegame in the low 16 bits, endgame in the high 16.
#ifndef OUTPOST_PSQT_H
#define OUTPOST_PSQT_H

#include "types.h"

typedef int32_t PackedScore;

static inline PackedScore S(int mg, int eg) { return (PackedScore)((uint32_t)eg << 16) + mg; }
static inline int mg_of(PackedScore s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_of(PackedScore s) { return (int16_t)(uint16_t)((uint32_t)(s + 0x8000) >> 16); }

// psqt[piece][sq]: material plus square bonus, positive for white pieces and negative
// for black ones, so a position's sum is white's score. Valid after psqt_init().
extern PackedScore psqt[PIECE_NB][64];

// Builds psqt[] from eval_weights (weights.h). Idempotent.
void psqt_init(void);

#endif
