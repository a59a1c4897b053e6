// SPDX-License-Identifier: MIT
// Perft: counts the leaf nodes of the legal move tree, the move generator's oracle.
#ifndef OUTPOST_PERFT_H
#define OUTPOST_PERFT_H

#include <stdio.h>

#include "position.h"

// Leaf nodes at exactly `depth` plies (bulk-counted at the last ply). depth 0 gives 1.
uint64_t perft(Position *pos, int depth);

// Prints one "move: count" line per root move, a blank line and "Nodes searched: N"
// (Stockfish's divide format) to out; returns the total.
uint64_t perft_divide(Position *pos, int depth, FILE *out);

#endif
