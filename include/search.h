// SPDX-License-Identifier: MIT
// The search: iterative deepening with aspiration windows over a principal-variation
// alpha-beta negamax, quiescence search, and the move ordering that feeds them. All its
// state lives in one SearchThread, so more threads can be added later.
#ifndef OUTPOST_SEARCH_H
#define OUTPOST_SEARCH_H

#include <stdatomic.h>

#include "movegen.h"
#include "position.h"
#include "timeman.h"
#include "tt.h"

// Shared between the thread that reads commands and the searching thread.
typedef struct {
    atomic_bool stop;         // end the search as soon as possible
    atomic_bool pondering;    // `go ponder` not yet answered by ponderhit
    atomic_llong start_ms;    // when the time limits started (reset at ponderhit)
} SearchControl;

typedef struct {
    int multipv;
    bool show_wdl;
    int64_t move_overhead;
    Move searchmoves[MAX_MOVES];
    int n_searchmoves;      // 0: all moves
    bool print_bestmove;    // false for bench
} SearchOptions;

typedef struct {
    Move move;
    Score score;
    Score prev_score;
    int seldepth;
    int pv_len;
    Move pv[MAX_PLY + 1];
} RootMove;

typedef struct {
    // Inputs, set before search_run().
    Position pos;
    TT *tt;
    SearchControl *ctl;
    SearchLimits limits;
    SearchOptions opts;
    OutputFn out;
    void *out_ctx;

    // Results.
    uint64_t nodes;
    int completed_depth;
    Move best_move;

    // Working state.
    TimeBudget budget;
    int seldepth;
    int root_depth;
    bool aborted;
    int pv_idx;
    int n_root;
    RootMove root_moves[MAX_MOVES];
    RootMove completed[MAX_MOVES]; // root moves as of the last completed iteration
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    Move killers[MAX_PLY + 2][2];
    Move excluded[MAX_PLY + 2]; // move left out by a singular-extension search at that ply
    int16_t history[COLOR_NB][64][64];
    // Continuation history: how well a quiet move (piece, to) did after the move made one
    // or two plies earlier (piece, to), as the position's states record them.
    int16_t cont_history[PIECE_NB * 64][PIECE_NB * 64];
    // Capture history: how often a capture or promotion by (piece, to, victim type) refuted
    // a node; orders noisy moves within their SEE class.
    int16_t cap_history[PIECE_NB][64][PIECE_TYPE_NB];
} SearchThread;

// Forgets everything learned (ucinewgame): killers and all histories.
void search_clear(SearchThread *t);

// Searches t->pos within t->limits, printing info lines and, if t->opts.print_bestmove,
// exactly one bestmove line at the end. Blocks until done; for infinite or ponder
// searches that means until ctl->stop (or ponderhit).
void search_run(SearchThread *t);

// Score as UCI text: "cp X" or "mate N".
void search_score_text(Score s, char *buf, size_t size);

#endif
