// SPDX-License-Identifier: MIT
// Magic-number search for the slider tables. tools/gen_magics runs it at build time with
// a fixed seed and writes the magics into build/gen/magics.inc, which attacks.c includes,
// so start-up only fills the tables. The slow ray walk here is also the tests' reference.
#ifndef OUTPOST_MAGIC_H
#define OUTPOST_MAGIC_H

#include "types.h"

// Attacks of a bishop or rook (type) from sq, walking each ray until a blocker.
Bitboard slider_attacks_slow(int type, Square sq, Bitboard occupied);

// The squares whose occupancy matters for a slider on sq (its rays without the edge).
Bitboard slider_mask(int type, Square sq);

// Finds a magic for (type, sq): a multiplier that maps every subset of slider_mask() to
// an index of popcount(mask) bits without two different attack sets colliding. Draws
// candidates from the xorshift generator whose state is *seed, so a fixed seed always
// gives the same magics.
Bitboard magic_find(int type, Square sq, uint64_t *seed);

#endif
