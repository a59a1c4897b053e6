// SPDX-License-Identifier: MIT
// The training-data record: one position, the search's score and best move, and the
// game's result, in 32 bytes (docs/NNUE.md). Written by tools/datagen, read by the
// trainer and by datagen's own statistics and text export.
#ifndef OUTPOST_PACKPOS_H
#define OUTPOST_PACKPOS_H

#include "position.h"

/*
 * PackedPos, 32 bytes, little-endian, no padding:
 *   occupancy  u64   bit i set when square i (a1 = 0) holds a piece
 *   pieces     16 B  one nibble per occupied square, in square order, low nibble first:
 *                    colour * 6 + type (0..11)
 *   stm_castle u8    bit 7: side to move (1 = black); bits 0-3: castling rights (types.h)
 *   ep         u8    en-passant target square, 64 when none
 *   rule50     u8    halfmove clock, 255 at most
 *   result     u8    game result for white: 0 loss, 1 draw, 2 win
 *   score      i16   the search's score, side to move's view, centipawns (mate scores as
 *                    the engine gives them: beyond +-31872)
 *   move       u16   the best move the search found, Outpost's 16-bit encoding (types.h)
 * Standard chess only: castling is stored as rights, not as rook squares.
 */
typedef struct {
    uint8_t bytes[32];
} PackedPos;

// Packs pos (at most 32 pieces, standard castling) with its score, move and result.
void packpos_pack(const Position *pos, Score score, Move move, int result, PackedPos *out);

// Sets a record's game result (for white: 0, 1, 2).
static inline void packpos_set_result(PackedPos *p, int result) { p->bytes[27] = (uint8_t)result; }

// What a record holds, unpacked: the position's FEN (fullmove number 1) and the fields.
typedef struct {
    char fen[FEN_MAX];
    Score score;
    Move move;
    int result; // for white: 0, 1, 2
    int side;   // side to move
} UnpackedPos;

// Unpacks a record; false if it is malformed (bad piece code, too many pieces).
bool packpos_unpack(const PackedPos *in, UnpackedPos *out);

#endif
