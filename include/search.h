// SPDX-License-Identifier: MIT
// The tree search: a principal-variation alpha-beta negamax and quiescence search over a
// per-ply stack, and the types every search thread keeps its state in (one SearchThread
// per thread, none shared but the TT and the counters read through `team`). The driver
// that runs iterative deepening over it, prints and coordinates the threads is root.h's.
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

// A control block with no stop, no ponder and the clock at 0.
static inline void search_control_init(SearchControl *ctl)
{
    atomic_init(&ctl->stop, false);
    atomic_init(&ctl->pondering, false);
    atomic_init(&ctl->start_ms, 0);
}

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
    uint64_t nodes;   // nodes this thread spent on the move in this search (time management)
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

typedef struct SearchThread SearchThread;

struct SearchThread {
    // Inputs, set before root_search().
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
    // search. `team` lists every thread of the search (thread 0 the main one), whose
    // counters the node limit and the output add up; team_size is 1 for a lone search.
    // Set by the pool's owner and root_search.
    struct ThreadPool *pool;
    SearchThread *const *team;
    int team_size;
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
    int best_stable;      // iterations the best move has held (the main thread's clock)
    Score last_score;     // the score of the last completed iteration
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
    int reductions_for[2];    // the lmr_base and lmr_div it was built from ({0, 0}: none yet)
    Accumulator acc[MAX_PLY + 2]; // the network's accumulators by ply, root first
    NnueCache nnue_cache;         // king-bucket refreshes (reset by search_prepare)
    Histories hist;
};

// An OutputFn that drops every line: searches of tools and bench print nothing.
void search_discard_output(void *ctx, const char *line);

// Prepares a zeroed SearchThread: default parameters, nothing learned.
void search_init(SearchThread *t);

// Forgets everything learned (ucinewgame): killers and all histories.
void search_clear(SearchThread *t);

// Resets the per-search state of t before an iteration loop: counters, the reductions
// table (params), the stack, the root accumulator (t->nnue).
void search_prepare(SearchThread *t);

// Zeroes what other threads read of t during a search: nodes, tablebase hits and depth.
void search_reset_counters(SearchThread *t);

// Searches root moves t->pv_idx.. of the current iteration at `depth` in (alpha, beta);
// records each move's score and PV in t->root_moves. Returns the best score; t->aborted
// is set when a limit cut the iteration short (the scores are then partial).
Score search_root(SearchThread *t, Score alpha, Score beta, int depth);

// Milliseconds since the search's clock started (ctl->start_ms, reset at ponderhit).
static inline int64_t search_elapsed(const SearchThread *t) { return tm_now() - atomic_load(&t->ctl->start_ms); }

// Nodes searched by t; read by other threads while it runs (hence the relaxed atomic).
static inline uint64_t search_thread_nodes(const SearchThread *t)
{
    return atomic_load_explicit(&t->nodes, memory_order_relaxed);
}

// Whether other threads search beside t (Lazy SMP).
static inline bool search_multi_threaded(const SearchThread *t) { return t->team_size > 1; }

// Nodes of every thread of the search (t->team).
uint64_t search_total_nodes(const SearchThread *t);

// Counts tablebase probes; only t writes its counter, so no atomic increment is needed.
void search_add_tbhits(SearchThread *t, uint64_t n);

#endif
