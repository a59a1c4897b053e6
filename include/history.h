// SPDX-License-Identifier: MIT
// What the search learns about moves while it runs, for ordering and reductions:
// butterfly history (side, from, to, and whether the opponent attacks from and to),
// continuation history (a quiet move after the moves
// one and two plies before it), capture history (piece, to, victim) and the counter move
// (the quiet move that last refuted a given move), and the correction history that
// learns how far the static evaluation misses for a pawn structure. Each search thread
// owns one.
#ifndef OUTPOST_HISTORY_H
#define OUTPOST_HISTORY_H

#include "position.h"

enum {
    HISTORY_MAX = 16384,
    CORR_SIZE = 16384,       // pawn-structure entries per side to move
    CORR_GRAIN = 256,        // entries are centipawns x CORR_GRAIN
    CORR_MAX = 64 * 256,     // an entry's bound: +-64 cp
    CORR_WEIGHT_MAX = 16,    // weight (of 256) a search result of depth >= 15 gets
};

typedef struct {
    // Butterfly history, by whether the opponent attacks the move's from and to squares:
    // the same move is worth more when it leaves an attacked square for a safe one.
    int16_t butterfly[COLOR_NB][2][2][64][64];
    // Continuation history: rows indexed by (piece, to) of an earlier move, columns by
    // (piece, to) of the quiet move that followed it.
    int16_t cont[PIECE_NB * 64][PIECE_NB * 64];
    int16_t capture[PIECE_NB][64][PIECE_TYPE_NB];
    Move counter[PIECE_NB][64];
    // Correction history: the running mean of (search score - static eval) by side to
    // move and pawn structure, in centipawns x CORR_GRAIN.
    int16_t pawn_corr[COLOR_NB][CORR_SIZE];
} Histories;

// What a node's quiet-move histories are read with: the continuation-history rows of the
// moves one and two plies before it (NULL where there is none: before the root, a null
// move) and the squares the opponent attacks (0 where they were not computed).
typedef struct {
    int16_t *row[2];
    Bitboard threats;
} ContRows;

void hist_clear(Histories *h);

// (piece, to) of a move in pos (before it is made), the index of continuation history.
static inline int hist_piece_to(const Position *pos, Move m) { return pos->board[move_from(m)] * 64 + move_to(m); }

// The continuation row of a move that is about to be made in pos.
static inline int16_t *hist_cont_row(Histories *h, const Position *pos, Move m)
{
    return h->cont[hist_piece_to(pos, m)];
}

// The butterfly entry of a quiet move, read (hist_quiet) and updated (hist_update_quiet)
// through this one index.
static inline int16_t *hist_butterfly(Histories *h, const Position *pos, const ContRows *rows, Move m)
{
    Square from = move_from(m), to = move_to(m);
    return &h->butterfly[pos->side][(rows->threats >> from) & 1][(rows->threats >> to) & 1][from][to];
}

// Ordering score of a quiet move: butterfly plus both continuation histories. (The
// cast only lends hist_butterfly the table to index; nothing is written.)
static inline int hist_quiet(const Histories *h, const Position *pos, const ContRows *rows, Move m)
{
    int s = *hist_butterfly((Histories *)h, pos, rows, m);
    for (int k = 0; k < 2; k++)
        if (rows->row[k])
            s += rows->row[k][hist_piece_to(pos, m)];
    return s;
}

// The victim's type of a noisy move, for capture history (a promotion without capture
// counts as taking a pawn).
static inline int hist_victim(const Position *pos, Move m)
{
    int victim = pos->board[move_to(m)];
    return move_is_ep(m) || victim == NO_PIECE ? PAWN : piece_type(victim);
}

// The capture-history entry of a noisy move, and its value.
static inline int16_t *hist_capture(Histories *h, const Position *pos, Move m)
{
    return &h->capture[pos->board[move_from(m)]][move_to(m)][hist_victim(pos, m)];
}

static inline int hist_capture_value(const Histories *h, const Position *pos, Move m)
{
    return h->capture[pos->board[move_from(m)]][move_to(m)][hist_victim(pos, m)];
}

// Moves an entry toward +-HISTORY_MAX by bonus, less as it nears the bound (gravity).
static inline void hist_update(int16_t *e, int bonus)
{
    *e = (int16_t)(*e + bonus - *e * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

// The correction-history index of pos's pawn structure (the side to move picks the table).
static inline size_t hist_corr_index(const Position *pos) { return pos_pawn_key(pos) % CORR_SIZE; }

// The static evaluation raw (side to move) corrected by what the searches of positions
// with the same pawns found, kept off the tablebase and mate ranges.
static inline Score hist_corrected_eval(const Histories *h, const Position *pos, Score raw)
{
    int v = raw + h->pawn_corr[pos->side][hist_corr_index(pos)] / CORR_GRAIN;
    return (Score)(v >= SCORE_TB_WIN_IN_MAX ? SCORE_TB_WIN_IN_MAX - 1
                   : v <= -SCORE_TB_WIN_IN_MAX ? -SCORE_TB_WIN_IN_MAX + 1 : v);
}

// Moves pos's correction entry toward diff (search score - raw static eval, centipawns)
// with a weight that grows with the search's depth.
void hist_update_corr(Histories *h, const Position *pos, int diff, int depth);

// Rewards (bonus > 0) or punishes a quiet move in butterfly and continuation history.
void hist_update_quiet(Histories *h, const Position *pos, const ContRows *rows, Move m, int bonus);

#endif
