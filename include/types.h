// SPDX-License-Identifier: MIT
// Basic types shared by every module: bitboards, squares, pieces, colours, moves,
// scores and the fixed limits of the search. Kept small so every header can include it.
#ifndef OUTPOST_TYPES_H
#define OUTPOST_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;
typedef int Square; // 0..63, a1 = 0, b1 = 1, ..., h8 = 63; SQ_NONE = 64
typedef int Score;

/*
 * A move in 16 bits:
 *   bits  0-5   from square
 *   bits  6-11  to square (for castling: the square of the castling rook, "king takes rook",
 *               so standard chess and Chess960 share one representation)
 *   bits 12-15  flag, one of MoveFlag below
 * MOVE_NONE is 0. MOVE_NULL has from == to == b1 and is never generated.
 */
typedef uint16_t Move;

enum { WHITE, BLACK, COLOR_NB };
enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

// Piece = colour * 6 + type; NO_PIECE marks an empty square in the mailbox.
enum {
    W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    NO_PIECE, PIECE_NB = 12
};

enum { SQ_A1 = 0, SQ_H1 = 7, SQ_A8 = 56, SQ_H8 = 63, SQ_NONE = 64 };

typedef enum {
    FLAG_QUIET = 0,
    FLAG_DOUBLE_PUSH = 1,
    FLAG_CASTLE = 2,
    FLAG_CAPTURE = 4,
    FLAG_EN_PASSANT = 5,
    FLAG_PROMO = 8,          // + promoted type - KNIGHT; the capture bit may be set too
    FLAG_PROMO_CAPTURE = 12,
} MoveFlag;

enum { MOVE_NONE = 0, MOVE_NULL = 1 | (1 << 6) };

// Castling rights: one bit each.
enum { WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8, ALL_CASTLING = 15 };

enum {
    MAX_PLY = 128,
    MAX_MOVES = 256,
    MAX_GAME_PLY = 8192, // longest game (plies from the last FEN) the position can hold
};

enum {
    SCORE_DRAW = 0,
    SCORE_MATE = 32000,
    SCORE_INFINITE = 32001,
    SCORE_NONE = 32002,
    SCORE_MATE_IN_MAX = SCORE_MATE - MAX_PLY,
    SCORE_MATED_IN_MAX = -SCORE_MATE_IN_MAX,
    // Tablebase wins (SCORE_TB_WIN - ply), a band below the mates that is reported in
    // centipawns; every evaluation stays below it.
    SCORE_TB_WIN = 31000,
    SCORE_TB_WIN_IN_MAX = SCORE_TB_WIN - MAX_PLY,
};

// Receives one complete output line (without its newline). Whoever provides it makes
// each call atomic with respect to the program's other output.
typedef void (*OutputFn)(void *ctx, const char *line);

static inline int color_flip(int c) { return c ^ 1; }
static inline int make_piece(int color, int type) { return color * 6 + type; }
static inline int piece_type(int piece) { return piece % 6; }
static inline int piece_color(int piece) { return piece / 6; }

static inline int sq_file(Square sq) { return sq & 7; }
static inline int sq_rank(Square sq) { return sq >> 3; }
static inline Square make_square(int file, int rank) { return rank * 8 + file; }
// The square as seen by `color`: rank mirrored for black.
static inline Square relative_square(int color, Square sq) { return sq ^ (color * 56); }
static inline int relative_rank(int color, Square sq) { return sq_rank(sq) ^ (color * 7); }

static inline Square move_from(Move m) { return m & 63; }
static inline Square move_to(Move m) { return (m >> 6) & 63; }
static inline int move_flag(Move m) { return m >> 12; }
static inline Move make_move(Square from, Square to, int flag)
{
    return (Move)(from | (to << 6) | (flag << 12));
}
static inline bool move_is_capture(Move m) { return (move_flag(m) & FLAG_CAPTURE) != 0; }
static inline bool move_is_promo(Move m) { return (move_flag(m) & FLAG_PROMO) != 0; }
static inline bool move_is_castle(Move m) { return move_flag(m) == FLAG_CASTLE; }
static inline bool move_is_ep(Move m) { return move_flag(m) == FLAG_EN_PASSANT; }
static inline int move_promo_type(Move m) { return (move_flag(m) & 3) + KNIGHT; }
// Where a capture by `us` takes its victim: the target square, or behind it en passant.
static inline Square move_capture_square(Move m, int us)
{
    return move_is_ep(m) ? (us == WHITE ? move_to(m) - 8 : move_to(m) + 8) : move_to(m);
}
// Captures and promotions: the moves quiescence search looks at.
static inline bool move_is_noisy(Move m) { return (move_flag(m) & (FLAG_CAPTURE | FLAG_PROMO)) != 0; }

static inline Score mate_in(int ply) { return SCORE_MATE - ply; }
static inline Score mated_in(int ply) { return -SCORE_MATE + ply; }

#endif
