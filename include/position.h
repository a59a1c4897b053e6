// SPDX-License-Identifier: MIT
// The position: bitboards plus a mailbox, FEN in and out (standard, X-FEN and
// Shredder-FEN castling), make/unmake in place with an undo stack, the null move,
// attack queries and the draw rules.
#ifndef OUTPOST_POSITION_H
#define OUTPOST_POSITION_H

#include <stddef.h>

#include "attacks.h"
#include "bitboard.h"
#include "types.h"

// Irreversible state, one per ply, saved and restored with a plain assignment.
typedef struct {
    Key key;
    Key pawn_key;        // the pawns' part of key alone (correction history's index)
    Bitboard checkers;   // enemy pieces giving check to the side to move
    int castling;        // rights mask
    Square ep;           // en-passant target square, set only if a capture there is pseudo-legal
    int rule50;          // plies since the last capture or pawn move
    int plies_from_null; // plies since the last null move (bounds the repetition scan)
    int captured;        // piece captured by the move that led here, or NO_PIECE
    int moved;           // piece that made that move, or NO_PIECE after a null move
    Move move;           // move that led here
} StateInfo;

typedef struct {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[COLOR_NB];
    uint8_t board[64];
    int side;
    int game_ply;   // plies since the start of the game (fullmove number from FEN)
    bool chess960;  // write castling as king-takes-rook and Shredder-FEN
    Square castle_rook[4];      // rook square per right (index = log2 of the right)
    Bitboard castle_path[4];    // squares that must be empty, king and rook excluded
    Bitboard castle_king_path[4]; // squares the king visits, which must not be attacked
    uint8_t castle_mask[64];    // rights kept when a move touches the square
    int st_index;               // index of the current StateInfo in states[]
    StateInfo states[MAX_GAME_PLY];
} Position;

// Longest FEN pos_to_fen() writes, terminator included.
enum { FEN_MAX = 100 };

extern const char *const START_FEN;

// Sets pos from a FEN. On error returns false, writes a one-line reason to err (of size
// err_size) and leaves pos untouched. Castling accepts KQkq, X-FEN and Shredder-FEN;
// missing move counters default to "0 1". A FEN that needs Chess960 castling sets
// pos->chess960; `chess960` forces it on.
bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t err_size);

// Writes the FEN of pos to buf (at least FEN_MAX bytes). Castling in Shredder-FEN when
// pos->chess960, else KQkq.
void pos_to_fen(const Position *pos, char *buf);

// Writes the piece-placement field of a FEN for a mailbox (NO_PIECE for empty squares)
// and returns the end of what it wrote (a terminating NUL is written there).
char *pos_write_placement(const uint8_t board[64], char *out);

// Makes a legal move (as produced by movegen). Must be undone with pos_unmake_move.
void pos_make_move(Position *pos, Move m);
// The key pos will have once the legal move m is made, without making it (so the search
// can prefetch the child's TT entry before the make).
Key pos_key_after(const Position *pos, Move m);
void pos_unmake_move(Position *pos, Move m);
// Where king and rook of `color` end up when the king on ksq castles with the rook on rsq.
void pos_castle_squares(int color, Square ksq, Square rsq, Square *kto, Square *rto);

// Passes the turn; the side to move must not be in check.
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);

// Drops the oldest states that no draw rule can look at any more, so a game of any
// length fits in states[]. Returns false if even that leaves no room for a search.
bool pos_trim_history(Position *pos);

static inline const StateInfo *pos_state(const Position *pos) { return &pos->states[pos->st_index]; }
// The state `plies` moves back (0: the current one); plies must not exceed the moves made.
static inline const StateInfo *pos_state_back(const Position *pos, int plies)
{
    return &pos->states[pos->st_index - plies];
}
static inline Key pos_key(const Position *pos) { return pos_state(pos)->key; }
static inline Key pos_pawn_key(const Position *pos) { return pos_state(pos)->pawn_key; }
static inline Bitboard pos_checkers(const Position *pos) { return pos_state(pos)->checkers; }
static inline bool pos_in_check(const Position *pos) { return pos_checkers(pos) != 0; }
static inline Bitboard pos_occupied(const Position *pos) { return pos->by_color[WHITE] | pos->by_color[BLACK]; }
static inline Bitboard pos_pieces(const Position *pos, int color, int type)
{
    return pos->by_color[color] & pos->by_type[type];
}
static inline Square pos_king(const Position *pos, int color) { return lsb(pos_pieces(pos, color, KING)); }
static inline int pos_piece_on(const Position *pos, Square sq) { return pos->board[sq]; }
// True if the side to move has a piece other than pawns and king (null-move guard).
static inline bool pos_has_non_pawn(const Position *pos, int color)
{
    return (pos->by_color[color] & ~pos->by_type[PAWN] & ~pos->by_type[KING]) != 0;
}

// All pieces of both colours attacking sq, given an occupancy.
Bitboard pos_attackers_to(const Position *pos, Square sq, Bitboard occupied);
// Every square `color` attacks (through the current occupancy).
Bitboard pos_attacks_by(const Position *pos, int color);
// True if `color` attacks sq.
bool pos_attacked_by(const Position *pos, Square sq, int color);
// Pieces of `color` that shield the king of `king_color` from an enemy slider
// (pinned pieces when color == king_color, discovered-check candidates otherwise).
Bitboard pos_blockers(const Position *pos, int king_color);

// Draw rules. pos_is_repetition: the position occurred before since the last
// irreversible move, counting a repeat after `root_dist` plies from the search root (or
// two before it) as a draw. pos_has_repeated: some position since the last irreversible
// move occurred twice (the game's history holds a repetition).
bool pos_is_repetition(const Position *pos, int root_dist);
bool pos_has_repeated(const Position *pos);
bool pos_is_fifty_move_draw(const Position *pos);
bool pos_is_insufficient_material(const Position *pos);

// Zobrist key computed from scratch (for tests and debug checks).
Key pos_compute_key(const Position *pos);
// Full consistency check of bitboards, mailbox, keys and scores (debug builds).
bool pos_is_ok(const Position *pos);

#endif
