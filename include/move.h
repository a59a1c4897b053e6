// SPDX-License-Identifier: MIT
// Moves as UCI text: writing them (castling as e1g1, or king-takes-rook in Chess960)
// and reading them back against the legal moves of a position.
#ifndef OUTPOST_MOVE_H
#define OUTPOST_MOVE_H

#include "position.h"

// Longest UCI move text, terminator included ("e7e8q").
enum { MOVE_STR_MAX = 6 };

// Writes m as UCI text into buf ("0000" for MOVE_NONE and MOVE_NULL).
void move_to_uci(Move m, bool chess960, char *buf);

// The legal move of pos that `text` names, or MOVE_NONE. Castling is accepted both as
// king-to-destination and as king-takes-rook, whenever that names no other move.
Move move_from_uci(const Position *pos, const char *text);

// The legal move of pos that the SAN text names ("Nf3", "exd5", "O-O", "e8=Q+"), or
// MOVE_NONE. Check marks and annotations are ignored.
Move move_from_san(const Position *pos, const char *text);

#endif
