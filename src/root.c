// SPDX-License-Identifier: MIT
// The search driver: iterative deepening with aspiration windows over search.c's root
// move loop, the root moves (searchmoves, tablebase ranking, sorting), the info and
// bestmove lines, the limits checked between iterations, waking and collecting the helper
// threads (Lazy SMP) and the weakened choice of UCI_LimitStrength.
#include "root.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "move.h"
#include "platform.h"
#include "strength.h"
#include "threads.h"

// Tablebase hits of every thread of the search.
static uint64_t total_tbhits(const SearchThread *t)
{
    uint64_t sum = atomic_load_explicit(&t->tbhits, memory_order_relaxed);
    for (int i = 1; i < t->team_size; i++)
        sum += atomic_load_explicit(&t->team[i]->tbhits, memory_order_relaxed);
    return sum;
}

// Stable insertion sort of root_moves[from, to) by score, best first.
static void sort_root(SearchThread *t, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        RootMove rm = t->root_moves[i];
        int j = i;
        for (; j > from && t->root_moves[j - 1].score < rm.score; j--)
            t->root_moves[j] = t->root_moves[j - 1];
        t->root_moves[j] = rm;
    }
}

static void score_text(Score s, char *buf, size_t size)
{
    if (s >= SCORE_MATE_IN_MAX)
        snprintf(buf, size, "mate %d", (SCORE_MATE - s + 1) / 2);
    else if (s <= SCORE_MATED_IN_MAX)
        snprintf(buf, size, "mate %d", -(SCORE_MATE + s) / 2);
    else
        snprintf(buf, size, "cp %d", s);
}

// Win/draw/loss per mille for a score, from a logistic model of game results.
static void wdl_of(Score s, int *w, int *d, int *l)
{
    if (s >= SCORE_MATE_IN_MAX || s <= SCORE_MATED_IN_MAX) {
        *w = s > 0 ? 1000 : 0;
        *l = s > 0 ? 0 : 1000;
    } else {
        *w = (int)(1000.0 / (1.0 + exp((150.0 - s) / 60.0)) + 0.5);
        *l = (int)(1000.0 / (1.0 + exp((150.0 + s) / 60.0)) + 0.5);
    }
    *d = 1000 - *w - *l;
}

static void emit(SearchThread *t, const char *line) { t->out(t->out_ctx, line); }

static void print_info(SearchThread *t, const RootMove *rm, int depth, int multipv, const char *bound)
{
    if (t->out == search_discard_output) // tools and bench: nothing to format
        return;
    char line[8192], score[32];
    int64_t ms = search_elapsed(t);
    uint64_t nodes = search_total_nodes(t), nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes * 1000;
    // With the root in the tablebases their verdict is shown, unless the search found a mate.
    bool tb = t->root_in_tb && rm->score < SCORE_MATE_IN_MAX && rm->score > SCORE_MATED_IN_MAX;
    score_text(tb ? rm->tb_score : rm->score, score, sizeof score);
    int n = snprintf(line, sizeof line, "info depth %d seldepth %d multipv %d score %s%s", depth,
                     rm->seldepth > depth ? rm->seldepth : depth, multipv, score, bound);
    if (t->opts.show_wdl) {
        int w, d, l;
        wdl_of(tb ? rm->tb_score : rm->score, &w, &d, &l);
        n += snprintf(line + n, sizeof line - (size_t)n, " wdl %d %d %d", w, d, l);
    }
    n += snprintf(line + n, sizeof line - (size_t)n,
                  " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d tbhits %" PRIu64 " time %" PRId64 " pv", nodes,
                  nps, tt_hashfull(t->tt), total_tbhits(t), ms);
    for (int i = 0; i < rm->pv_len && n < (int)sizeof line - 8; i++) {
        char mv[MOVE_STR_MAX];
        move_to_uci(rm->pv[i], t->pos.chess960, mv);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", mv);
    }
    emit(t, line);
}

// With the root in the tablebases, keeps only the root moves that keep its best outcome
// (by DTZ: a win that the fifty-move rule lets stand, or the longest resistance; by WDL
// when the DTZ tables are missing), and records the tables' score of each. With DTZ
// the search need not probe any more: every move left wins (or draws, or loses) alike.
static void rank_root_by_tables(SearchThread *t)
{
    t->root_in_tb = false;
    t->tb_limit = t->opts.tb && t->opts.tb_limit > 0 ? t->opts.tb_limit : 0;
    if (!t->tb_limit || t->n_root == 0 || pos_state(&t->pos)->castling || popcount(pos_occupied(&t->pos)) > t->tb_limit)
        return;
    Move moves[MAX_MOVES];
    int rank[MAX_MOVES];
    Score score[MAX_MOVES];
    for (int i = 0; i < t->n_root; i++)
        moves[i] = t->root_moves[i].move;
    bool dtz = tb_rank_root_moves(t->opts.tb, &t->pos, moves, t->n_root, true, t->opts.tb_rule50, rank, score);
    if (!dtz && !tb_rank_root_moves(t->opts.tb, &t->pos, moves, t->n_root, false, t->opts.tb_rule50, rank, score))
        return;
    int best = rank[0];
    for (int i = 1; i < t->n_root; i++)
        best = rank[i] > best ? rank[i] : best;
    int kept = 0;
    for (int i = 0; i < t->n_root; i++) {
        if (rank[i] == best) {
            t->root_moves[kept] = t->root_moves[i];
            t->root_moves[kept++].tb_score = score[i];
        }
    }
    search_add_tbhits(t, (uint64_t)t->n_root);
    t->n_root = kept;
    t->root_in_tb = true;
    if (dtz)
        t->tb_limit = 0;
}

static RootMove new_root_move(Move m)
{
    return (RootMove){.move = m, .score = -SCORE_INFINITE, .prev_score = -SCORE_INFINITE, .pv_len = 1, .pv = {m}};
}

static void setup_root(SearchThread *t)
{
    MoveList list;
    gen_moves(&t->pos, &list, GEN_ALL);
    t->n_root = 0;
    for (int i = 0; i < list.count; i++) {
        bool wanted = t->opts.n_searchmoves == 0;
        for (int j = 0; j < t->opts.n_searchmoves && !wanted; j++)
            wanted = t->opts.searchmoves[j] == list.moves[i];
        if (wanted)
            t->root_moves[t->n_root++] = new_root_move(list.moves[i]);
    }
    if (t->n_root == 0) // every searchmoves token was illegal here: search everything
        for (int i = 0; i < list.count; i++)
            t->root_moves[t->n_root++] = new_root_move(list.moves[i]);
    rank_root_by_tables(t);
    // Start from the TT move if there is one.
    TTEntry tte;
    TTSlot slot;
    bool found = tt_probe(t->tt, pos_key(&t->pos), &tte, &slot);
    for (int i = 1; found && i < t->n_root; i++) {
        if (t->root_moves[i].move == tte.move) {
            RootMove rm = t->root_moves[i];
            memmove(&t->root_moves[1], &t->root_moves[0], (size_t)i * sizeof(RootMove));
            t->root_moves[0] = rm;
        }
    }
}

static bool limits_reached_after_iteration(SearchThread *t, int depth)
{
    if (atomic_load(&t->ctl->stop))
        return true;
    if (t->limits.depth > 0 && depth >= t->limits.depth)
        return true;
    if (t->limits.soft_nodes && search_thread_nodes(t) >= t->limits.soft_nodes)
        return true;
    Score s = t->completed[0].score;
    if (t->limits.mate > 0 && s >= SCORE_MATE_IN_MAX && SCORE_MATE - s <= 2 * t->limits.mate)
        return true;
    if (atomic_load(&t->ctl->pondering))
        return false;
    // With a clock, a lone legal move is played at once, and from a few iterations in
    // the soft limit follows the search: how long the best move has held, whether the
    // score falls, and the share of the nodes the best move took.
    const RootMove *best = &t->completed[0];
    if (t->budget.clock && t->n_root == 1)
        return true;
    int64_t soft = t->budget.soft_ms;
    if (t->budget.clock && depth >= TM_SCALE_FROM_DEPTH) {
        uint64_t all = search_thread_nodes(t);
        int drop = t->last_score - best->score;
        soft = tm_scaled_soft(&t->budget, t->best_stable, drop, all ? (double)best->nodes / (double)all : 1.0);
    }
    return search_elapsed(t) >= soft;
}

// The move the opponent is expected to reply with, for `bestmove ... ponder`.
static Move ponder_move(SearchThread *t, const RootMove *rm)
{
    if (rm->pv_len >= 2)
        return rm->pv[1];
    pos_make_move(&t->pos, rm->move);
    TTEntry tte;
    TTSlot slot;
    Move m = MOVE_NONE;
    if (tt_probe(t->tt, pos_key(&t->pos), &tte, &slot) && gen_is_pseudo_legal(&t->pos, tte.move)
        && gen_is_legal(&t->pos, tte.move)) // accept the TT move only if it is legal here
        m = tte.move;
    pos_unmake_move(&t->pos, rm->move);
    return m;
}

// One root move (root_moves[pv_idx]) at one depth, in a window around its last score
// that widens on every fail until the score falls inside it.
static void aspiration_window(SearchThread *t, int depth)
{
    const SearchParams *p = &t->params;
    Score prev = t->root_moves[t->pv_idx].prev_score, delta = p->asp_delta;
    Score alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (depth >= p->asp_depth && prev > -SCORE_INFINITE) {
        alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
        beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
    }
    for (;;) {
        Score score = search_root(t, alpha, beta, depth);
        sort_root(t, t->pv_idx, t->n_root);
        if (t->aborted)
            return;
        // Bounds are reported only in long searches, where a GUI shows the progress.
        bool slow = t->is_main && search_elapsed(t) > 3000;
        if (score <= alpha) {
            if (slow)
                print_info(t, &t->root_moves[t->pv_idx], depth, t->pv_idx + 1, " upperbound");
            beta = (alpha + beta) / 2;
            alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
        } else if (score >= beta) {
            if (slow)
                print_info(t, &t->root_moves[t->pv_idx], depth, t->pv_idx + 1, " lowerbound");
            beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
        } else {
            return;
        }
        delta += delta;
    }
}

// Every line of one completed iteration.
static void report_iteration(SearchThread *t, int depth, int multipv)
{
    for (int k = 0; k < multipv; k++)
        print_info(t, &t->completed[k], depth, k + 1, "");
}


// Lazy SMP spreads the helpers over the depths: helper i searches only the depths of
// every other block of SKIP_SIZE[i] depths (phase SKIP_PHASE[i]), so that at any time
// some threads search one or more plies deeper than the main thread and fill the TT
// ahead of it. The last depth asked for is never skipped.
static const int SKIP_SIZE[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
static const int SKIP_PHASE[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

static bool helper_skips(const SearchThread *t, int depth)
{
    if (depth <= 1 || (t->limits.depth > 0 && depth >= t->limits.depth))
        return false;
    int i = (t->id - 1) % 20;
    return ((depth + t->pos.game_ply + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0;
}

// Searches depth 1, 2, ... until a limit is reached, keeping the root moves of the last
// completed iteration in t->completed; what every search thread runs.
// multipv lines are searched, the first `shown` reported (a weakened search looks at more
// lines than it shows).
static void iterative_deepening(SearchThread *t, int multipv, int shown)
{
    int max_depth = t->limits.depth > 0 && t->limits.depth < MAX_PLY - 1 ? t->limits.depth : MAX_PLY - 1;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (!t->is_main && helper_skips(t, depth))
            continue;
        t->root_depth = depth;
        for (t->pv_idx = 0; t->pv_idx < multipv && !t->aborted; t->pv_idx++) {
            aspiration_window(t, depth);
            sort_root(t, 0, t->pv_idx + 1);
        }
        if (t->aborted)
            break;
        for (int i = 0; i < t->n_root; i++)
            t->root_moves[i].prev_score = t->root_moves[i].score;
        Move prev_best = depth > 1 ? t->completed[0].move : MOVE_NONE;
        memcpy(t->completed, t->root_moves, (size_t)multipv * sizeof(RootMove));
        t->completed_depth = depth;
        atomic_store_explicit(&t->depth_done, depth, memory_order_relaxed);
        if (!t->is_main) { // a helper ends with the main thread, or at the depth limit
            if (atomic_load(t->helper_stop) || (t->limits.depth > 0 && depth >= t->limits.depth))
                break;
            continue;
        }
        // What the time manager reads: how long the best move has held, the last score.
        t->best_stable = t->completed[0].move == prev_best ? t->best_stable + 1 : 0;
        report_iteration(t, depth, shown);
        bool done = limits_reached_after_iteration(t, depth);
        t->last_score = t->completed[0].score;
        if (done)
            break;
    }
}

// What a helper thread runs: the same iterative deepening on its own copy of the root,
// without output, until the main thread stops it.
static void helper_search(SearchThread *h)
{
    search_prepare(h);
    if (h->n_root)
        iterative_deepening(h, 1, 1);
}

// Hands the main thread's search to every helper and wakes them.
static void start_helpers(SearchThread *t)
{
    for (int i = 1; i < pool_size(t->pool); i++) {
        SearchThread *h = pool_thread(t->pool, i);
        memcpy(&h->pos, &t->pos, offsetof(Position, states) + (size_t)(t->pos.st_index + 1) * sizeof(StateInfo));
        h->tt = t->tt;
        h->ctl = t->ctl;
        h->limits = t->limits;
        h->limits.soft_nodes = 0; // the main thread alone decides on a new iteration
        h->opts = t->opts;
        h->opts.multipv = 1;
        h->opts.print_bestmove = false;
        h->params = t->params;
        h->nnue = t->nnue;
        h->out = t->out;
        h->out_ctx = t->out_ctx;
        h->is_main = false;
        h->id = i;
        h->helper_stop = pool_stop_flag(t->pool);
        h->team = t->team;
        h->team_size = t->team_size;
        // The main thread's root moves, already filtered and ranked by the tablebases.
        h->n_root = t->n_root;
        memcpy(h->root_moves, t->root_moves, (size_t)t->n_root * sizeof(RootMove));
        h->root_in_tb = t->root_in_tb;
        h->tb_limit = t->tb_limit;
        // Zeroed here, not only when the helper wakes: until then the main thread would
        // read the previous search's counts, and its depth would end a depth-limited
        // search early (helper_reached).
        search_reset_counters(h);
    }
    pool_start_helpers(t->pool, helper_search);
}

// True if thread a's result is to be played rather than b's: a shorter mate always (and
// a mate is never given up), else the deeper completed iteration, else the better score.
static bool better_result(const SearchThread *a, const SearchThread *b)
{
    Score sa = a->completed[0].score, sb = b->completed[0].score;
    if (sa >= SCORE_MATE_IN_MAX || sb >= SCORE_MATE_IN_MAX)
        return sa > sb;
    if (a->completed_depth != b->completed_depth)
        return a->completed_depth > b->completed_depth;
    return sa > sb;
}

// Stops the helpers, waits for them, and makes the best thread's result the main
// thread's (with MultiPV the main thread's lines stand).
static void collect_helpers(SearchThread *t)
{
    pool_stop_helpers(t->pool);
    pool_wait_helpers(t->pool);
    if (t->opts.multipv > 1 || t->opts.limit_elo)
        return;
    const SearchThread *best = t;
    for (int i = 1; i < pool_size(t->pool); i++) {
        const SearchThread *h = pool_thread(t->pool, i);
        if (h->completed_depth > 0 && h->n_root && better_result(h, best))
            best = h;
    }
    if (best != t) {
        t->completed[0] = best->completed[0];
        t->completed_depth = best->completed_depth;
    }
}

// Infinite and ponder searches answer only after stop (or ponderhit), then the bestmove
// line: the first move of the last completed iteration and the reply expected to it.
static void print_bestmove(SearchThread *t)
{
    while (!atomic_load(&t->ctl->stop) && (t->limits.infinite || atomic_load(&t->ctl->pondering)))
        platform_sleep_ms(1);
    if (t->n_root == 0) {
        emit(t, "bestmove (none)");
        return;
    }
    char line[256], best[MOVE_STR_MAX], ponder[MOVE_STR_MAX];
    move_to_uci(t->best_move, t->pos.chess960, best);
    Move pm = ponder_move(t, &t->completed[0]);
    if (pm != MOVE_NONE) {
        move_to_uci(pm, t->pos.chess960, ponder);
        snprintf(line, sizeof line, "bestmove %s ponder %s", best, ponder);
    } else {
        snprintf(line, sizeof line, "bestmove %s", best);
    }
    emit(t, line);
}

// A weakened search plays one of its best lines within the spread (strength.h): the
// chosen line becomes the first, so the last info line's PV starts with the bestmove.
static void choose_weaker(SearchThread *t, int lines, int spread)
{
    Score scores[MAX_MOVES];
    for (int i = 0; i < lines; i++)
        scores[i] = t->completed[i].score;
    int k = strength_choose(scores, lines, spread, t->opts.seed);
    if (k > 0) {
        RootMove chosen = t->completed[k];
        memmove(&t->completed[1], &t->completed[0], (size_t)k * sizeof(RootMove));
        t->completed[0] = chosen;
    }
}

void root_search(SearchThread *t)
{
    t->is_main = true;
    t->id = 0;
    t->helper_stop = NULL;
    t->team = t->pool ? pool_threads(t->pool) : NULL;
    t->team_size = t->pool ? pool_size(t->pool) : 1;
    search_prepare(t);
    tt_new_search(t->tt); // once per search, not per thread
    setup_root(t);
    if (t->n_root == 0) {
        emit(t, pos_in_check(&t->pos) ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
    } else {
        int shown = t->opts.multipv < t->n_root ? t->opts.multipv : t->n_root;
        shown = shown < 1 ? 1 : shown;
        int lines = shown;
        StrengthPlan plan = {0, 0, 1};
        if (t->opts.limit_elo) { // a smaller budget, and the best few moves to choose from
            plan = strength_plan(t->opts.limit_elo);
            if (!t->limits.nodes || t->limits.nodes > plan.nodes)
                t->limits.nodes = plan.nodes;
            lines = shown > plan.lines ? shown : plan.lines < t->n_root ? plan.lines : t->n_root;
        }
        bool helpers = search_multi_threaded(t);
        if (helpers)
            start_helpers(t);
        iterative_deepening(t, lines, shown);
        if (helpers)
            collect_helpers(t);
        if (t->opts.limit_elo && t->completed_depth > 0)
            choose_weaker(t, lines, plan.spread);
        // The result of the last completed iteration, restated with the final counts.
        print_info(t, &t->completed[0], t->completed_depth, 1, "");
        t->best_move = t->completed[0].move;
    }
    if (t->opts.print_bestmove)
        print_bestmove(t);
}

Move root_search_nodes(SearchThread *t, uint64_t soft, uint64_t hard, Score *score)
{
    limits_init(&t->limits);
    t->limits.soft_nodes = soft;
    t->limits.nodes = hard;
    atomic_store(&t->ctl->stop, false);
    atomic_store(&t->ctl->start_ms, tm_now());
    root_search(t);
    *score = t->completed[0].score;
    return t->best_move;
}
