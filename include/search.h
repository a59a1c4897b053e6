// SPDX-License-Identifier: MIT
// The search: iterative deepening with aspiration windows over a principal-variation
// alpha-beta negamax, quiescence search, and the move ordering that feeds them. All its
// state lives in one SearchThread, so more threads can be added later.
// search_run() is the main thread's driver (limits, output, the bestmove line); the
// iterative deepening below it is what every search thread runs.
#ifndef OUTPOST_SEARCH_H
#define OUTPOST_SEARCH_H

#include <stdatomic.h>

#include "history.h"
#include "movegen.h"
#include "nnue.h"
#include "params.h"
#include "position.h"
#include "syzygy.h"
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
    int limit_elo;          // play at this level (strength.h); 0: full strength
    uint64_t seed;          // randomness of the weakened choice
    Syzygy *tb;             // endgame tablebases, or NULL
    int tb_limit;           // probe positions of at most this many pieces (0: never)
    int tb_probe_depth;     // ... in the search from this depth on (at the limit itself)
    bool tb_rule50;         // the fifty-move rule counts (Syzygy50MoveRule)
} SearchOptions;

typedef struct {
    Move move;
    Score score;
    Score prev_score;
    Score tb_score;   // what the tablebases say of the move, when the root is in them
    int seldepth;
    int pv_len;
    Move pv[MAX_PLY + 1];
} RootMove;

// One entry per ply of the current line, reached from a node as ss, its parent as ss - 1
// and so on; entries before the root are sentinels with no move.
typedef struct {
    int ply;
    Score static_eval;  // SCORE_NONE in check
    Move move;          // the move being searched from this node (MOVE_NULL: null move)
    Move excluded;      // the move a singular-extension search leaves out here
    Move killers[2];    // quiet moves that refuted a sibling of this node
    int16_t *cont_row;  // continuation-history row of `move`; NULL for a null move
    int moved;          // the piece that made `move`
} SearchStack;

// Sentinel entries before the root: enough for the deepest look back (ss - 2).
enum { STACK_OFFSET = 2 };

typedef struct {
    // Inputs, set before search_run().
    Position pos;
    TT *tt;
    SearchControl *ctl;
    SearchLimits limits;
    SearchOptions opts;
    OutputFn out;
    void *out_ctx;
    SearchParams params;  // search_init() sets the defaults
    const Nnue *nnue;     // the network to evaluate with; NULL: the hand-written evaluation

    // Threads: the pool (NULL for a lone search: bench, datagen), whether this thread is
    // the main one (limits, output, bestmove) and, for a helper, the flag that ends its
    // search. Set by the pool and search_run.
    struct ThreadPool *pool;
    bool is_main;
    int id;               // 0 for the main thread, 1.. for the helpers
    const atomic_bool *helper_stop;

    // Results. nodes is written by this thread only and read by the main thread while
    // the search runs, hence atomic (relaxed).
    _Atomic uint64_t nodes;
    _Atomic uint64_t tbhits;
    int completed_depth;
    atomic_int depth_done;  // completed_depth as the main thread may read it during a search
    Move best_move;

    // Working state.
    TimeBudget budget;
    int seldepth;
    int root_depth;
    bool aborted;
    int tb_limit;     // pieces up to which the search probes (0: it does not)
    bool root_in_tb;  // the root moves were ranked by the tablebases
    int pv_idx;
    int n_root;
    RootMove root_moves[MAX_MOVES];
    RootMove completed[MAX_MOVES]; // root moves as of the last completed iteration
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    SearchStack stack[MAX_PLY + STACK_OFFSET + 2];
    int reductions[64][64];   // late-move reductions by depth and move number (params)
    Accumulator acc[MAX_PLY + 2]; // the network's accumulators by ply, root first
    Histories hist;
} SearchThread;

// Prepares a zeroed SearchThread: default parameters, nothing learned.
void search_init(SearchThread *t);

// Forgets everything learned (ucinewgame): killers and all histories.
void search_clear(SearchThread *t);

// Searches t->pos within t->limits, printing info lines and, if t->opts.print_bestmove,
// exactly one bestmove line at the end. Blocks until done; for infinite or ponder
// searches that means until ctl->stop (or ponderhit). With a pool of more than one
// thread, t must be its main thread: the helpers search too and the best result of all
// threads is played. info nodes and nps count every thread.
void search_run(SearchThread *t);

// Score as UCI text: "cp X" or "mate N".
void search_score_text(Score s, char *buf, size_t size);

#endif
