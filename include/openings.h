// SPDX-License-Identifier: MIT
// Random openings for self-play: a start position plus a few random legal moves, kept
// only when a short search finds it playable. What tools/datagen starts its games from
// and what `genfens` (OpenBench's opening generator, genfens.c) prints.
#ifndef OUTPOST_OPENINGS_H
#define OUTPOST_OPENINGS_H

#include <stdint.h>

#include "search.h"

enum {
    OPENING_PLIES = 8,        // random plies from the start position: 8 or 9
    OPENING_BOOK_PLIES = 2,   // random plies after a book position: 2 or 3
    OPENING_NODES = 5000,     // the search that vets an opening ..
    OPENING_MAX_SCORE = 1000, // .. rejects it beyond this score (centipawns)
    OPENING_MAX_TRIES = 64,   // tries from one start position before giving it up
};

// Sets t->pos to `start` (the standard start position when NULL) plus min_plies or
// min_plies + 1 random legal moves drawn from *rng, again until the result has a legal
// move and a search of OPENING_NODES nodes scores it within +-OPENING_MAX_SCORE. t is a
// lone search thread the caller has set up (TT, control, evaluation, no output). False
// after OPENING_MAX_TRIES failures (a start position too lopsided to vet), t->pos then
// undefined. From the standard start position it never fails in practice.
bool opening_random(SearchThread *t, const Position *start, int min_plies, uint64_t *rng);

#endif
