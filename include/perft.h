// SPDX-License-Identifier: MIT
// Perft: counts the leaf nodes of the legal move tree, the move generator's oracle.
#ifndef OUTPOST_PERFT_H
#define OUTPOST_PERFT_H

#include <stdatomic.h>

#include "position.h"

// Leaf nodes at exactly `depth` plies (bulk-counted at the last ply). depth 0 gives 1.
uint64_t perft(Position *pos, int depth);

// The deepest perft the position's state stack allows (at most PERFT_MAX_DEPTH).
enum { PERFT_MAX_DEPTH = 64 };
int perft_max_depth(const Position *pos);

// Sends one "move: count" line per root move, an empty line and "Nodes searched: N"
// (Stockfish's divide format) to out; returns the total. depth must be within
// 0..perft_max_depth(pos). When *stop (if stop is not NULL) becomes true the count ends
// early: it says so with an info string, prints no total and returns 0.
uint64_t perft_divide(Position *pos, int depth, OutputFn out, void *ctx, const atomic_bool *stop);

#endif
