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

// True if m is a move of the kind gen_moves could produce in pos once king safety is
// ignored: the right piece on from, a target that fits the flag, a path that is clear.
// Castling is checked in full (rights, path, attacked squares). Any 16-bit value may be
// asked, which is what a move from the TT, a killer or a counter move needs.
bool gen_is_pseudo_legal(const Position *pos, Move m);

// For a move that gen_is_pseudo_legal accepts: true if it leaves its own king safe, so
// that gen_is_pseudo_legal && gen_is_legal holds exactly for the moves of gen_moves.
bool gen_is_legal(const Position *pos, Move m);
bool gen_is_stalemate(const Position *pos);

#endif
