// SPDX-License-Identifier: MIT
// Legal move generation: check evasions, pins and en-passant discoveries are resolved
// here, so every generated move may be made without further tests.
#ifndef OUTPOST_MOVEGEN_H
#define OUTPOST_MOVEGEN_H

#include "position.h"

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

typedef enum {
    GEN_ALL,   // every legal move
    GEN_NOISY, // legal captures and promotions
    GEN_QUIET, // legal moves that are neither
} GenType;

// Appends the legal moves of the chosen kind to list (which it first empties).
void gen_moves(const Position *pos, MoveList *list, GenType type);

// Number of legal moves (perft's last ply).
int gen_count_legal(const Position *pos);

bool gen_is_checkmate(const Position *pos);
bool gen_is_stalemate(const Position *pos);

#endif
