// SPDX-License-Identifier: MIT
// Iterative deepening, aspiration windows, principal-variation search and quiescence
// search over a per-ply stack; the main thread's duties (limits, output, the bestmove
// line, waking and collecting the helper threads, the weakened choice) apart from what
// every thread runs. Move ordering is movepick.c's.
#include "search.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "move.h"
#include "movepick.h"
#include "platform.h"
#include "see.h"
#include "strength.h"
#include "threads.h"

enum { CHECK_INTERVAL = 1024 };

static void init_reductions(SearchThread *t)
{
    const SearchParams *p = &t->params;
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++)
            t->reductions[d][m] = d && m ? (int)(p->lmr_base / 100.0 + log(d) * log(m) / (p->lmr_div / 100.0)) : 0;
}

void search_init(SearchThread *t)
{
    t->params = (SearchParams)SEARCH_PARAMS_DEFAULT;
    search_clear(t);
}

void search_clear(SearchThread *t)
{
    memset(t->stack, 0, sizeof t->stack);
    hist_clear(&t->hist);
}

/* ---------------------------------------------------------------- limits */

static int64_t elapsed(const SearchThread *t) { return tm_now() - atomic_load(&t->ctl->start_ms); }

static uint64_t nodes_of(const SearchThread *t) { return atomic_load_explicit(&t->nodes, memory_order_relaxed); }

// A plain increment: only this thread writes its count (no atomic read-modify-write).
static void count_node(SearchThread *t) { atomic_store_explicit(&t->nodes, nodes_of(t) + 1, memory_order_relaxed); }

static bool multi_threaded(const SearchThread *t) { return t->pool && pool_size(t->pool) > 1; }

// Nodes of every thread of the search.
static uint64_t total_nodes(const SearchThread *t)
{
    if (!multi_threaded(t))
        return nodes_of(t);
    uint64_t sum = 0;
    for (int i = 0; i < pool_size(t->pool); i++)
        sum += nodes_of(pool_thread(t->pool, i));
    return sum;
}

// Counts tablebase probes; only this thread writes its counter, so no atomic increment.
static void add_tbhits(SearchThread *t, uint64_t n)
{
    atomic_store_explicit(&t->tbhits, atomic_load_explicit(&t->tbhits, memory_order_relaxed) + n, memory_order_relaxed);
}

// Tablebase hits of every thread of the search.
static uint64_t total_tbhits(const SearchThread *t)
{
    uint64_t sum = atomic_load_explicit(&t->tbhits, memory_order_relaxed);
    for (int i = 1; multi_threaded(t) && i < pool_size(t->pool); i++)
        sum += atomic_load_explicit(&pool_thread(t->pool, i)->tbhits, memory_order_relaxed);
    return sum;
}

// True if a helper has completed an iteration of at least `depth` and its result may be
// played (a single line at full strength: with MultiPV or a weakened search the main
// thread's own lines stand, see collect_helpers).
static bool helper_reached(const SearchThread *t, int depth)
{
    if (t->opts.multipv > 1 || t->opts.limit_elo)
        return false;
    for (int i = 1; multi_threaded(t) && i < pool_size(t->pool); i++)
        if (atomic_load_explicit(&pool_thread(t->pool, i)->depth_done, memory_order_relaxed) >= depth)
            return true;
    return false;
}

// Called at every node: sets t->aborted when a limit is reached. Depth 1 always
// completes so there is a move to play however early the stop comes. Only the main
// thread looks at the clock; the node limit is exact with one thread and, with more,
// checked by every thread every CHECK_INTERVAL of its nodes over all threads' counts (so
// that helpers stop even while the scheduler holds the main thread back).
static void check_limits(SearchThread *t)
{
    if (t->root_depth <= 1)
        return;
    uint64_t nodes = nodes_of(t);
    if (t->limits.nodes && !multi_threaded(t) && nodes >= t->limits.nodes) {
        t->aborted = true;
        return;
    }
    if (nodes % CHECK_INTERVAL)
        return;
    if (atomic_load(&t->ctl->stop) || (t->helper_stop && atomic_load(t->helper_stop)))
        t->aborted = true;
    else if (t->limits.nodes && total_nodes(t) >= t->limits.nodes)
        t->aborted = true;
    else if (!t->is_main)
        return;
    else if (!atomic_load(&t->ctl->pondering) && elapsed(t) >= t->budget.hard_ms)
        t->aborted = true;
    else if (t->limits.depth > 0 && helper_reached(t, t->limits.depth))
        t->aborted = true; // a helper has the answer already: it is the one played
}

/* ---------------------------------------------------------------- move ordering */

// The continuation-history rows of the node at ss: of the moves one and two plies back.
static ContRows cont_rows(const SearchStack *ss)
{
    return (ContRows){{(ss - 1)->cont_row, (ss - 2)->cont_row}};
}

// The counter move stored for the move that led to the node at ss, if there was one.
static Move counter_move(const SearchThread *t, const SearchStack *ss)
{
    const SearchStack *prev = ss - 1;
    return prev->move == MOVE_NONE || prev->move == MOVE_NULL ? MOVE_NONE
                                                              : t->hist.counter[prev->moved][move_to(prev->move)];
}

/* ---------------------------------------------------------------- search */

static bool is_draw(const SearchThread *t, int ply)
{
    const Position *pos = &t->pos;
    if (pos_is_repetition(pos, ply) || pos_is_insufficient_material(pos))
        return true;
    // Fifty moves are a draw unless the last of them gave mate.
    return pos_is_fifty_move_draw(pos) && !gen_is_checkmate(pos);
}

static void update_pv(SearchThread *t, int ply, Move m)
{
    t->pv[ply][0] = m;
    memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)t->pv_len[ply + 1] * sizeof(Move));
    t->pv_len[ply] = t->pv_len[ply + 1] + 1;
}

// Makes m from the node at ss, recording it in the stack for the plies below and, with a
// network, updating the next ply's accumulator (perft and UCI use the plain make).
static void search_make(SearchThread *t, SearchStack *ss, Move m)
{
    ss->move = m;
    ss->moved = t->pos.board[move_from(m)];
    ss->cont_row = hist_cont_row(&t->hist, &t->pos, m);
    NnueDelta d;
    if (t->nnue)
        nnue_delta(&t->pos, m, &d);
    pos_make_move(&t->pos, m);
    if (t->nnue) {
        nnue_apply(t->nnue, &t->acc[ss->ply], &t->acc[ss->ply + 1], &d);
#ifndef NDEBUG
        Accumulator fresh; // debug builds check the update against a refresh
        nnue_refresh(t->nnue, &t->pos, &fresh);
        assert(!memcmp(&fresh.v[WHITE], &t->acc[ss->ply + 1].v[WHITE], (size_t)t->nnue->hidden * sizeof(int16_t)));
        assert(!memcmp(&fresh.v[BLACK], &t->acc[ss->ply + 1].v[BLACK], (size_t)t->nnue->hidden * sizeof(int16_t)));
#endif
    }
}

static void search_make_null(SearchThread *t, SearchStack *ss)
{
    ss->move = MOVE_NULL;
    ss->moved = NO_PIECE;
    ss->cont_row = NULL;
    pos_make_null(&t->pos);
    if (t->nnue)
        t->acc[ss->ply + 1] = t->acc[ss->ply];
}

// The static evaluation of the node at ss: the network's when there is one.
static Score evaluate(const SearchThread *t, const SearchStack *ss)
{
    return t->nnue ? nnue_evaluate(t->nnue, &t->acc[ss->ply], t->pos.side, popcount(pos_occupied(&t->pos)))
                   : eval_evaluate(&t->pos);
}

static int history_bonus(const SearchParams *p, int depth)
{
    return p->hist_mult * (depth * depth > p->hist_max_sq ? p->hist_max_sq : depth * depth);
}

static Score qsearch(SearchThread *t, SearchStack *ss, Score alpha, Score beta)
{
    Position *pos = &t->pos;
    int ply = ss->ply;
    if (t->aborted) // a re-search after the abort must not count a node
        return 0;
    count_node(t);
    t->pv_len[ply] = 0;
    check_limits(t);
    if (t->aborted)
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (is_draw(t, ply))
        return SCORE_DRAW;
    bool in_check = pos_in_check(pos);
    if (ply >= MAX_PLY)
        return in_check ? SCORE_DRAW : evaluate(t, ss);

    TTEntry tte;
    TTSlot slot;
    bool found = tt_probe(t->tt, pos_key(pos), &tte, &slot);
    Move tt_move = found ? tte.move : MOVE_NONE;
    if (found && beta - alpha == 1) {
        Score s = tt_score_from(tte.score, ply);
        int bound = tt_bound(&tte);
        if (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha))
            return s;
    }

    Score best, eval = SCORE_NONE;
    if (in_check) {
        best = -SCORE_INFINITE;
    } else {
        eval = found && tte.eval != SCORE_NONE ? tte.eval : evaluate(t, ss);
        best = eval;
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    ss->static_eval = eval;

    // Out of check only the TT move and winning captures: losing captures and
    // underpromotions cannot raise alpha in practice. In check, every evasion.
    MovePicker mp;
    ContRows rows = cont_rows(ss);
    mp_init(&mp, pos, &t->hist, &rows, tt_move, ss->killers, MOVE_NONE, !in_check);
    Move best_move = MOVE_NONE, m;
    int old_alpha = alpha, legal = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        legal++;
        search_make(t, ss, m);
        Score score = -qsearch(t, ss + 1, -beta, -alpha);
        pos_unmake_move(pos, m);
        if (t->aborted)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(t, ply, m);
                if (score >= beta)
                    break;
            }
        }
    }
    if (in_check && legal == 0)
        return mated_in(ply);

    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->tt, slot, pos_key(pos), tt_score_to(best, ply), eval, bound, 0, best_move);
    return best;
}

// True if the search should probe the tablebases at this node: right after a zeroing
// move, no castling rights, and within the piece limit (at the limit itself only from
// SyzygyProbeDepth on).
static bool tb_applies(const SearchThread *t, const Position *pos, int depth)
{
    const StateInfo *st = pos_state(pos);
    if (st->rule50 != 0 || st->castling)
        return false;
    int pieces = popcount(pos_occupied(pos));
    return pieces < t->tb_limit || (pieces == t->tb_limit && depth >= t->opts.tb_probe_depth);
}

static Score negamax(SearchThread *t, SearchStack *ss, Score alpha, Score beta, int depth, bool cut_node)
{
    Position *pos = &t->pos;
    const SearchParams *p = &t->params;
    int ply = ss->ply;
    bool pv_node = beta - alpha > 1;
    bool in_check = pos_in_check(pos);

    // Step 1. Quiescence at the horizon.
    if (depth <= 0)
        return qsearch(t, ss, alpha, beta);

    if (t->aborted) // a re-search after the abort must not count a node
        return 0;
    count_node(t);
    t->pv_len[ply] = 0;
    check_limits(t);
    if (t->aborted)
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;

    // Step 2. Draws, the ply limit and mate-distance pruning.
    if (is_draw(t, ply))
        return SCORE_DRAW;
    if (ply >= MAX_PLY)
        return in_check ? SCORE_DRAW : evaluate(t, ss);
    alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
    beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
    if (alpha >= beta)
        return alpha;

    // Step 3. Transposition table cutoff (not in PV nodes, to keep the PV whole).
    Move excluded = ss->excluded;
    // tt_hit is a copy: searches below may replace the slot before the singular test.
    TTEntry tt_hit = {0};
    TTSlot slot;
    bool found = tt_probe(t->tt, pos_key(pos), &tt_hit, &slot);
    Move tt_move = found ? tt_hit.move : MOVE_NONE;
    if (found && !pv_node && !excluded && tt_depth(&tt_hit) >= depth) {
        Score s = tt_score_from(tt_hit.score, ply);
        int bound = tt_bound(&tt_hit);
        if (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha))
            return s;
    }

    // Step 3b. Tablebases, right after a capture or pawn move (where the table's answer
    // holds whatever the fifty-move counter was) in positions with few enough pieces: a
    // win or loss bounds the score, a draw is exact.
    Score best = -SCORE_INFINITE, max_score = SCORE_INFINITE;
    if (t->tb_limit && !excluded && tb_applies(t, pos, depth)) {
        int wdl;
        if (tb_probe_wdl(t->opts.tb, pos, &wdl)) {
            add_tbhits(t, 1);
            int draw = t->opts.tb_rule50 ? 1 : 0; // cursed wins are draws under the rule
            Score s = wdl < -draw ? -SCORE_TB_WIN + ply : wdl > draw ? SCORE_TB_WIN - ply : 2 * wdl * draw;
            int bound = wdl < -draw ? BOUND_UPPER : wdl > draw ? BOUND_LOWER : BOUND_EXACT;
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? s >= beta : s <= alpha)) {
                tt_store(t->tt, slot, pos_key(pos), tt_score_to(s, ply), SCORE_NONE, bound,
                         depth + 6 < MAX_PLY - 1 ? depth + 6 : MAX_PLY - 1, MOVE_NONE);
                return s;
            }
            if (pv_node && bound == BOUND_LOWER) {
                best = s;
                alpha = alpha > s ? alpha : s;
            } else if (pv_node) {
                max_score = s;
            }
        }
    }

    // Step 4. Static evaluation.
    Score eval = SCORE_NONE;
    if (!in_check)
        eval = found && tt_hit.eval != SCORE_NONE ? tt_hit.eval : evaluate(t, ss);
    ss->static_eval = eval;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;

    if (!pv_node && !in_check && !excluded) {
        // Step 5. Reverse futility pruning: far above beta at low depth, assume a cutoff.
        if (depth <= p->rfp_depth && eval - p->rfp_margin * depth >= beta && eval < SCORE_TB_WIN_IN_MAX)
            return eval;

        // Step 6. Null move: if passing still beats beta, a real move will too. Not in
        // pawn endings, where zugzwang makes passing the best "move".
        if (depth >= p->nmp_depth && eval >= beta && pos_has_non_pawn(pos, pos->side) && (ss - 1)->move != MOVE_NULL) {
            int by_eval = (eval - beta) / p->nmp_eval_div;
            int r = p->nmp_base + depth / p->nmp_depth_div + (by_eval < p->nmp_eval_max ? by_eval : p->nmp_eval_max);
            search_make_null(t, ss);
            Score s = -negamax(t, ss + 1, -beta, -beta + 1, depth - 1 - r, !cut_node);
            pos_unmake_null(pos);
            if (t->aborted)
                return 0;
            if (s >= beta)
                return s >= SCORE_TB_WIN_IN_MAX ? beta : s;
        }
    }

    // Step 7. Internal iterative reduction: without a TT move, deep nodes are searched
    // shallower first, and the next visit has a move to try.
    if (depth >= p->iir_depth && tt_move == MOVE_NONE && (pv_node || cut_node))
        depth--;

    // Step 8. The move loop, over the staged picker.
    ContRows rows = cont_rows(ss);
    MovePicker mp;
    mp_init(&mp, pos, &t->hist, &rows, tt_move, ss->killers, counter_move(t, ss), false);

    Score old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    Move quiets[MAX_MOVES], noisies[MAX_MOVES];
    int n_quiets = 0, n_noisies = 0, move_count = 0, legal = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        legal++;
        if (m == excluded)
            continue;
        bool quiet = !move_is_noisy(m);
        move_count++;

        // Step 9. Pruning of late quiet moves in hopeless or quiet positions. Late-move
        // and futility pruning hold for every quiet move after this one: the picker
        // skips them.
        if (!pv_node && !in_check && best > -SCORE_TB_WIN_IN_MAX) {
            if (quiet && depth <= p->lmp_depth && move_count > p->lmp_base + depth * depth / p->lmp_div) {
                mp.skip_quiets = true;
                continue; // late-move pruning
            }
            if (quiet && depth <= p->fp_depth && eval + p->fp_base + p->fp_margin * depth <= alpha && move_count > 1) {
                mp.skip_quiets = true;
                continue; // futility pruning
            }
            if (depth <= p->see_depth
                && !see_ge(pos, m, quiet ? -p->see_quiet * depth : -p->see_noisy * depth * depth))
                continue; // SEE pruning
        }

        // Step 10. Singular extension: a TT move that beats every alternative by a margin
        // is searched one ply deeper; if several moves beat beta, cut at once (multi-cut).
        int extension = 0;
        Score tt_score = m == tt_move ? tt_score_from(tt_hit.score, ply) : SCORE_NONE;
        if (depth >= p->se_depth && m == tt_move && !excluded && (tt_bound(&tt_hit) & BOUND_LOWER)
            && tt_depth(&tt_hit) >= depth - p->se_tt_depth && abs(tt_score) < SCORE_TB_WIN_IN_MAX) {
            Score s_beta = tt_score - p->se_margin * depth;
            ss->excluded = m;
            Score s = negamax(t, ss, s_beta - 1, s_beta, (depth - 1) / 2, cut_node);
            ss->excluded = MOVE_NONE;
            if (t->aborted)
                return 0;
            if (s < s_beta)
                extension = 1;
            else if (s_beta >= beta)
                return s_beta;
        }

        // Late-move reductions apply to late quiet moves other than refutations; only they
        // read the history, which must be taken before the move is made.
        bool reduce = depth >= p->lmr_depth && move_count > 1 + pv_node && quiet && !mp_last_is_refutation(&mp);
        int hist = !reduce ? 0 : mp.last_stage == MP_QUIET ? mp.last_score : hist_quiet(&t->hist, pos, &rows, m);
        search_make(t, ss, m);
        bool gives_check = pos_in_check(pos);
        // Step 11. Check extension.
        int new_depth = depth - 1 + (extension ? extension : gives_check ? 1 : 0);
        Score score;

        // Step 12. Late-move reductions, then principal-variation search.
        if (reduce) {
            int r = t->reductions[depth < 64 ? depth : 63][move_count < 64 ? move_count : 63];
            r += !pv_node + cut_node;
            // By its history. Killers and the counter move are not reduced: reducing them
            // one ply less showed no gain in two SPRTs (docs/STRENGTH.md, issue 31).
            r -= hist / p->lmr_history;
            r -= gives_check;
            int reduced = new_depth - (r > 0 ? r : 0);
            if (reduced < 1)
                reduced = 1;
            if (reduced > new_depth)
                reduced = new_depth;
            score = -negamax(t, ss + 1, -alpha - 1, -alpha, reduced, true);
            if (score > alpha && reduced < new_depth)
                score = -negamax(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        } else if (!pv_node || move_count > 1) {
            score = -negamax(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        } else {
            score = alpha + 1; // force the full-window search of the first PV move
        }
        if (pv_node && score > alpha && (move_count == 1 || score < beta))
            score = -negamax(t, ss + 1, -beta, -alpha, new_depth, false);
        pos_unmake_move(pos, m);
        if (t->aborted)
            return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node)
                    update_pv(t, ply, m);
                if (score >= beta)
                    break;
            }
        }
        if (m != best_move) {
            if (quiet)
                quiets[n_quiets++] = m;
            else
                noisies[n_noisies++] = m;
        }
    }

    // Step 13. A move that refuted this node teaches the histories: a refuting capture
    // gains capture-history credit, a refuting quiet move becomes a killer and gains
    // history while the quiet moves tried before it lose some, and the noisy moves tried
    // before it lose capture-history credit either way.
    if (best >= beta) {
        int bonus = history_bonus(p, depth);
        if (move_is_noisy(best_move)) {
            hist_update(hist_capture(&t->hist, pos, best_move), bonus);
        } else {
            if (ss->killers[0] != best_move) {
                ss->killers[1] = ss->killers[0];
                ss->killers[0] = best_move;
            }
            if ((ss - 1)->move != MOVE_NONE && (ss - 1)->move != MOVE_NULL)
                t->hist.counter[(ss - 1)->moved][move_to((ss - 1)->move)] = best_move;
            hist_update_quiet(&t->hist, pos, &rows, best_move, bonus);
            for (int i = 0; i < n_quiets; i++)
                hist_update_quiet(&t->hist, pos, &rows, quiets[i], -bonus);
        }
        for (int i = 0; i < n_noisies; i++)
            hist_update(hist_capture(&t->hist, pos, noisies[i]), -bonus);
    }

    if (legal == 0)
        return in_check ? mated_in(ply) : SCORE_DRAW;
    if (excluded) // the excluded move was the only one, or its search must not pollute the TT
        return best == -SCORE_INFINITE ? alpha : best;
    if (best > max_score) // the tablebases' loss bound
        best = max_score;
    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->tt, slot, pos_key(pos), tt_score_to(best, ply), eval, bound, depth, best_move);
    return best;
}

/* ---------------------------------------------------------------- root */

// Searches root moves pv_idx.. of the current iteration; records each move's score and PV.
static Score search_root(SearchThread *t, Score alpha, Score beta, int depth)
{
    Position *pos = &t->pos;
    SearchStack *ss = &t->stack[STACK_OFFSET];
    Score best = -SCORE_INFINITE;
    t->pv_len[0] = 0;
    for (int i = t->pv_idx; i < t->n_root; i++) {
        RootMove *rm = &t->root_moves[i];
        t->seldepth = 0;
        search_make(t, ss, rm->move);
        int new_depth = depth - 1 + (pos_in_check(pos) ? 1 : 0);
        Score score;
        if (i == t->pv_idx) {
            score = -negamax(t, ss + 1, -beta, -alpha, new_depth, false);
        } else {
            score = -negamax(t, ss + 1, -alpha - 1, -alpha, new_depth, true);
            if (score > alpha && score < beta && !t->aborted)
                score = -negamax(t, ss + 1, -beta, -alpha, new_depth, false);
        }
        pos_unmake_move(pos, rm->move);
        if (t->aborted)
            return best;
        if (i == t->pv_idx || score > alpha) {
            rm->score = score;
            rm->seldepth = t->seldepth;
            rm->pv[0] = rm->move;
            memcpy(&rm->pv[1], t->pv[1], (size_t)t->pv_len[1] * sizeof(Move));
            rm->pv_len = t->pv_len[1] + 1;
        } else {
            rm->score = -SCORE_INFINITE;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
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

void search_score_text(Score s, char *buf, size_t size)
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
    char line[8192], score[32];
    int64_t ms = elapsed(t);
    uint64_t nodes = total_nodes(t), nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes * 1000;
    // With the root in the tablebases their verdict is shown, unless the search found a mate.
    bool tb = t->root_in_tb && rm->score < SCORE_MATE_IN_MAX && rm->score > SCORE_MATED_IN_MAX;
    search_score_text(tb ? rm->tb_score : rm->score, score, sizeof score);
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
    add_tbhits(t, (uint64_t)t->n_root);
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
    if (t->limits.soft_nodes && nodes_of(t) >= t->limits.soft_nodes)
        return true;
    Score s = t->completed[0].score;
    if (t->limits.mate > 0 && s >= SCORE_MATE_IN_MAX && SCORE_MATE - s <= 2 * t->limits.mate)
        return true;
    if (atomic_load(&t->ctl->pondering))
        return false;
    return elapsed(t) >= t->budget.soft_ms;
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
        bool slow = t->is_main && elapsed(t) > 3000;
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

// Zeroes what the main thread reads of a thread during a search: its node and tablebase
// counts and its completed depth.
static void reset_counters(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    atomic_store_explicit(&t->tbhits, 0, memory_order_relaxed);
    t->completed_depth = 0;
    atomic_store_explicit(&t->depth_done, 0, memory_order_relaxed);
}

// Resets the per-search state: counters, limits, the stack's plies and killers.
static void prepare_search(SearchThread *t)
{
    init_reductions(t);
    reset_counters(t);
    t->aborted = false;
    t->best_move = MOVE_NONE;
    t->budget = tm_budget(&t->limits, t->pos.side, t->opts.move_overhead);
    memset(t->stack, 0, sizeof t->stack);
    for (int i = 0; i < MAX_PLY + STACK_OFFSET + 2; i++)
        t->stack[i].ply = i - STACK_OFFSET;
    if (t->nnue)
        nnue_refresh(t->nnue, &t->pos, &t->acc[0]);
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
        memcpy(t->completed, t->root_moves, (size_t)multipv * sizeof(RootMove));
        t->completed_depth = depth;
        atomic_store_explicit(&t->depth_done, depth, memory_order_relaxed);
        if (!t->is_main) { // a helper ends with the main thread, or at the depth limit
            if (atomic_load(t->helper_stop) || (t->limits.depth > 0 && depth >= t->limits.depth))
                break;
            continue;
        }
        report_iteration(t, depth, shown);
        if (limits_reached_after_iteration(t, depth))
            break;
    }
}

// What a helper thread runs: the same iterative deepening on its own copy of the root,
// without output, until the main thread stops it.
static void helper_search(SearchThread *h)
{
    prepare_search(h);
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
        // The main thread's root moves, already filtered and ranked by the tablebases.
        h->n_root = t->n_root;
        memcpy(h->root_moves, t->root_moves, (size_t)t->n_root * sizeof(RootMove));
        h->root_in_tb = t->root_in_tb;
        h->tb_limit = t->tb_limit;
        // Zeroed here, not only when the helper wakes: until then the main thread would
        // read the previous search's counts, and its depth would end a depth-limited
        // search early (helper_reached).
        reset_counters(h);
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

void search_run(SearchThread *t)
{
    t->is_main = true;
    t->id = 0;
    t->helper_stop = NULL;
    prepare_search(t);
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
        bool helpers = multi_threaded(t);
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
