// SPDX-License-Identifier: MIT
// Zobrist hashing keys, drawn once from a fixed seed so keys (and bench) never change.
#ifndef OUTPOST_ZOBRIST_H
#define OUTPOST_ZOBRIST_H

#include "types.h"

typedef struct {
    Key piece_square[PIECE_NB][64];
    Key castling[16]; // by the whole 4-bit rights mask
    Key ep_file[8];
    Key side;         // xored in when black is to move
} ZobristKeys;

extern ZobristKeys zobrist;

// Fills the keys. Idempotent; must run before any position is set up.
void zobrist_init(void);

#endif
