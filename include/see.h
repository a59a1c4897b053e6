// SPDX-License-Identifier: MIT
// Static exchange evaluation: does a move win at least `threshold` centipawns once all
// captures on its target square are played out, cheapest attacker first?
#ifndef OUTPOST_SEE_H
#define OUTPOST_SEE_H

#include "position.h"

// Exchange values by piece type (the king's makes it the last to recapture).
extern const int see_value[PIECE_TYPE_NB];

// True if the exchange started by m (legal in pos) gains at least threshold.
bool see_ge(const Position *pos, Move m, int threshold);

#endif
