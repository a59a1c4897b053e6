// SPDX-License-Identifier: MIT
// The tree search of one thread: principal-variation negamax and quiescence search over a
// per-ply stack, with its pruning, reductions, extensions and history updates, and the
// loop over the root moves that one iteration runs. The driver above it (iterative
// deepening, output, helpers) is root.c's; move ordering is movepick.c's.
#include "search.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "move.h"
#include "movepick.h"
#include "see.h"

enum { CHECK_INTERVAL = 1024 };

// The table depends on lmr_base and lmr_div alone: it is rebuilt only when they changed
// since the last build (a tuning run sets them between searches), not for every search.
static void init_reductions(SearchThread *t)
{
    const SearchParams *p = &t->params;
    if (t->reductions_for[0] == p->lmr_base && t->reductions_for[1] == p->lmr_div)
        return;
    t->reductions_for[0] = p->lmr_base;
    t->reductions_for[1] = p->lmr_div;
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++)
            t->reductions[d][m] = d && m ? (int)(p->lmr_base / 100.0 + log(d) * log(m) / (p->lmr_div / 100.0)) : 0;
}

void search_discard_output(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

void search_init(SearchThread *t)
{
    t->params = (SearchParams)SEARCH_PARAMS_DEFAULT;
    t->reductions_for[0] = t->reductions_for[1] = 0; // no lmr_div is 0: the first search builds
    search_clear(t);
}

void search_clear(SearchThread *t)
{
    memset(t->stack, 0, sizeof t->stack);
    hist_clear(&t->hist);
}

/* ---------------------------------------------------------------- limits */

// A plain increment: only this thread writes its count (no atomic read-modify-write).
static void count_node(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, search_thread_nodes(t) + 1, memory_order_relaxed);
}

uint64_t search_total_nodes(const SearchThread *t)
{
    if (!search_multi_threaded(t))
        return search_thread_nodes(t);
    uint64_t sum = 0;
    for (int i = 0; i < t->team_size; i++)
        sum += search_thread_nodes(t->team[i]);
    return sum;
}

void search_add_tbhits(SearchThread *t, uint64_t n)
{
    atomic_store_explicit(&t->tbhits, atomic_load_explicit(&t->tbhits, memory_order_relaxed) + n, memory_order_relaxed);
}

// True if a helper has completed an iteration of at least `depth` and its result may be
// played (a single line at full strength: with MultiPV or a weakened search the main
// thread's own lines stand, see collect_helpers).
static bool helper_reached(const SearchThread *t, int depth)
{
    if (t->opts.multipv > 1 || t->opts.limit_elo)
        return false;
    for (int i = 1; i < t->team_size; i++)
        if (atomic_load_explicit(&t->team[i]->depth_done, memory_order_relaxed) >= depth)
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
    uint64_t nodes = search_thread_nodes(t);
    if (t->limits.nodes && !search_multi_threaded(t) && nodes >= t->limits.nodes) {
        t->aborted = true;
        return;
    }
    if (nodes % CHECK_INTERVAL)
        return;
    if (atomic_load(&t->ctl->stop) || (t->helper_stop && atomic_load(t->helper_stop)))
        t->aborted = true;
    else if (t->limits.nodes && search_total_nodes(t) >= t->limits.nodes)
        t->aborted = true;
    else if (!t->is_main)
        return;
    else if (!atomic_load(&t->ctl->pondering) && search_elapsed(t) >= t->budget.hard_ms)
        t->aborted = true;
    else if (t->limits.depth > 0 && helper_reached(t, t->limits.depth))
        t->aborted = true; // a helper has the answer already: it is the one played
}

/* ---------------------------------------------------------------- move ordering */

// What the quiet histories of the node at ss are read with: the continuation rows of the
// moves one and two plies back, and the squares the opponent attacks.
static ContRows cont_rows(const SearchStack *ss, Bitboard threats)
{
    return (ContRows){{(ss - 1)->cont_row, (ss - 2)->cont_row}, threats};
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
    // The child's TT probe comes first: its bucket loads while the move is made.
    tt_prefetch(t->tt, pos_key_after(&t->pos, m));
    ss->move = m;
    ss->moved = t->pos.board[move_from(m)];
    ss->cont_row = hist_cont_row(&t->hist, &t->pos, m);
    if (!t->nnue) {
        pos_make_move(&t->pos, m);
    } else {
        NnueDelta d; // taken before the move: the pieces it moves and takes
        nnue_delta(&t->pos, m, &d);
        pos_make_move(&t->pos, m);
        nnue_apply(t->nnue, &t->acc[ss->ply], &t->acc[ss->ply + 1], &d, &t->pos, &t->nnue_cache);
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
    tt_prefetch(t->tt, pos_key(&t->pos));
    if (t->nnue)
        nnue_copy(t->nnue, &t->acc[ss->ply], &t->acc[ss->ply + 1]);
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

    Score best, eval = SCORE_NONE, raw_eval = SCORE_NONE;
    if (in_check) {
        best = -SCORE_INFINITE;
    } else {
        raw_eval = found && tte.eval != SCORE_NONE ? tte.eval : evaluate(t, ss);
        eval = hist_corrected_eval(&t->hist, pos, raw_eval);
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
    // Quiet moves (evasions) only in check: only then the threats are needed.
    ContRows rows = cont_rows(ss, in_check ? pos_attacks_by(pos, color_flip(pos->side)) : 0);
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
    tt_store(t->tt, slot, pos_key(pos), tt_score_to(best, ply), raw_eval, bound, 0, best_move);
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

static Score negamax(SearchThread *t, SearchStack *ss, Score alpha, Score beta, int depth, bool cut_node);

// Singular extension: the TT move, when its entry is a deep enough lower bound, is
// searched one ply deeper if a reduced search of every other move (excluding it) stays
// a margin below its score. When that search beats beta as well, several moves refute
// the node (multi-cut): *cut gets the score to return at once. Returns the extension.
static int singular_test(SearchThread *t, SearchStack *ss, const TTEntry *tt_hit, Score beta, int depth,
                         bool cut_node, Score *cut)
{
    const SearchParams *p = &t->params;
    Score tt_score = tt_score_from(tt_hit->score, ss->ply);
    if (!(tt_bound(tt_hit) & BOUND_LOWER) || tt_depth(tt_hit) < depth - p->se_tt_depth
        || abs(tt_score) >= SCORE_TB_WIN_IN_MAX)
        return 0;
    Score s_beta = tt_score - p->se_margin * depth / 8;
    ss->excluded = tt_hit->move;
    Score s = negamax(t, ss, s_beta - 1, s_beta, (depth - 1) / 2, cut_node);
    ss->excluded = MOVE_NONE;
    if (t->aborted)
        return 0;
    if (s < s_beta)
        return 1;
    if (s_beta >= beta)
        *cut = s_beta;
    return 0;
}

// A move that refuted the node at ss teaches the histories: a refuting capture gains
// capture-history credit, a refuting quiet move becomes a killer and the counter move of
// the move before it, and gains history while the quiet moves tried before it lose
// some; the noisy moves tried before it lose capture-history credit either way.
static void update_cutoff_history(SearchThread *t, SearchStack *ss, const ContRows *rows, Move best_move, int depth,
                                  const Move *quiets, int n_quiets, const Move *noisies, int n_noisies)
{
    const Position *pos = &t->pos;
    int bonus = history_bonus(&t->params, depth);
    if (move_is_noisy(best_move)) {
        hist_update(hist_capture(&t->hist, pos, best_move), bonus);
    } else {
        if (ss->killers[0] != best_move) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = best_move;
        }
        if ((ss - 1)->move != MOVE_NONE && (ss - 1)->move != MOVE_NULL)
            t->hist.counter[(ss - 1)->moved][move_to((ss - 1)->move)] = best_move;
        hist_update_quiet(&t->hist, pos, rows, best_move, bonus);
        for (int i = 0; i < n_quiets; i++)
            hist_update_quiet(&t->hist, pos, rows, quiets[i], -bonus);
    }
    for (int i = 0; i < n_noisies; i++)
        hist_update(hist_capture(&t->hist, pos, noisies[i]), -bonus);
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
            search_add_tbhits(t, 1);
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
    // The TT keeps the raw evaluation; the search uses it corrected by what searches of
    // the same pawn structure found (correction history).
    Score eval = SCORE_NONE, raw_eval = SCORE_NONE;
    if (!in_check) {
        raw_eval = found && tt_hit.eval != SCORE_NONE ? tt_hit.eval : evaluate(t, ss);
        eval = hist_corrected_eval(&t->hist, pos, raw_eval);
    }
    ss->static_eval = eval;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    // Improving: the static eval is above the one two plies ago (the same side to move), so
    // the position is getting better for us: prune less, reduce less.
    bool improving = !in_check && (ss - 2)->static_eval != SCORE_NONE && eval > (ss - 2)->static_eval;

    if (!pv_node && !in_check && !excluded) {
        // Step 5. Reverse futility pruning: far above beta at low depth, assume a cutoff.
        if (depth <= p->rfp_depth && eval - p->rfp_margin * (depth - improving) >= beta && eval < SCORE_TB_WIN_IN_MAX)
            return eval;

        // Step 5b. Razoring: far below alpha at low depth, only a capture can help, and
        // quiescence says whether one does.
        if (depth <= p->razor_depth && eval + p->razor_margin * depth < alpha) {
            Score s = qsearch(t, ss, alpha, alpha + 1);
            if (t->aborted)
                return 0;
            if (s <= alpha)
                return s;
        }

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
    ContRows rows = cont_rows(ss, pos_attacks_by(pos, color_flip(pos->side)));
    MovePicker mp;
    mp_init(&mp, pos, &t->hist, &rows, tt_move, ss->killers, counter_move(t, ss), false);

    Score old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    Move quiets[MAX_MOVES], noisies[MAX_MOVES];
    int n_quiets = 0, n_noisies = 0, move_count = 0, legal = 0;
    // Late-move pruning's count of quiets, twice as many when improving (one less divisor).
    int lmp_count = p->lmp_base + depth * depth / (p->lmp_div - (improving && p->lmp_div > 1));
    // Extensions (check, singular and the deeper re-search) stop at twice the iteration's
    // depth: along a line of checks and clear gains they would keep the depth from
    // falling (a PV line 120 plies deep at depth 3 with a king-bucketed network, 2026-12-05).
    bool may_extend = ss->ply < 2 * t->root_depth;
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
            if (quiet && depth <= p->lmp_depth && move_count > lmp_count) {
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

        // Step 10. Singular extension (singular_test).
        int extension = 0;
        if (depth >= p->se_depth && m == tt_move && !excluded) {
            Score cut = SCORE_NONE;
            extension = singular_test(t, ss, &tt_hit, beta, depth, cut_node, &cut);
            if (t->aborted)
                return 0;
            if (cut != SCORE_NONE)
                return cut;
        }

        // Late-move reductions apply to late quiet moves other than refutations, and to
        // the losing noisy moves of the picker's last stage (by half the table, less for a
        // good capture history); only they read a history, taken before the move is made.
        bool bad_noisy = mp.last_stage == MP_BAD_NOISY;
        bool reduce = depth >= p->lmr_depth && move_count > 1 + pv_node && (quiet || bad_noisy)
                   && !mp_last_is_refutation(&mp);
        int hist = !reduce ? 0
                 : bad_noisy ? hist_capture_value(&t->hist, pos, m)
                 : mp.last_stage == MP_QUIET ? mp.last_score : hist_quiet(&t->hist, pos, &rows, m);
        search_make(t, ss, m);
        bool gives_check = pos_in_check(pos);
        // Step 11. Check extension (capped by may_extend, above).
        int ext = extension ? extension : gives_check;
        int new_depth = depth - 1 + (ext > 0 && !may_extend ? 0 : ext);
        Score score;

        // Step 12. Late-move reductions, then principal-variation search.
        if (reduce) {
            int r = t->reductions[depth < 64 ? depth : 63][move_count < 64 ? move_count : 63];
            if (bad_noisy)
                r /= 2;
            r += !pv_node + cut_node + !improving;
            // By its history. Killers and the counter move are not reduced: reducing them
            // one ply less showed no gain in two SPRTs (docs/STRENGTH.md, issue 31).
            r -= hist / (bad_noisy ? HISTORY_MAX / 2 : p->lmr_history);
            r -= gives_check;
            int reduced = new_depth - (r > 0 ? r : 0);
            if (reduced < 1)
                reduced = 1;
            if (reduced > new_depth)
                reduced = new_depth;
            score = -negamax(t, ss + 1, -alpha - 1, -alpha, reduced, true);
            if (score > alpha && reduced < new_depth) {
                // The reduced search's margin over the best score so far sets the
                // re-search's depth: a ply deeper for a clear gain, one shallower for a
                // bare one (and no re-search when that reaches the reduced depth).
                new_depth += (may_extend && score > best + p->lmr_deeper_base + p->lmr_deeper_mult * new_depth)
                             - (score < best + new_depth);
                if (new_depth > reduced)
                    score = -negamax(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
            }
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

    // Step 13. A move that refuted this node teaches the histories (update_cutoff_history).
    if (best >= beta)
        update_cutoff_history(t, ss, &rows, best_move, depth, quiets, n_quiets, noisies, n_noisies);

    if (legal == 0)
        return in_check ? mated_in(ply) : SCORE_DRAW;
    if (excluded) // the excluded move was the only one, or its search must not pollute the TT
        return best == -SCORE_INFINITE ? alpha : best;
    if (best > max_score) // the tablebases' loss bound
        best = max_score;
    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    // Step 14. Correction history learns from a quiet (or no) best move whose score lies
    // on the side of the evaluation that its bound can vouch for, mates aside.
    if (!in_check && (best_move == MOVE_NONE || !move_is_noisy(best_move)) && abs(best) < SCORE_TB_WIN_IN_MAX
        && !(bound == BOUND_LOWER && best <= eval) && !(bound == BOUND_UPPER && best >= eval))
        hist_update_corr(&t->hist, pos, best - raw_eval, depth);
    tt_store(t->tt, slot, pos_key(pos), tt_score_to(best, ply), raw_eval, bound, depth, best_move);
    return best;
}

/* ---------------------------------------------------------------- root */

Score search_root(SearchThread *t, Score alpha, Score beta, int depth)
{
    Position *pos = &t->pos;
    SearchStack *ss = &t->stack[STACK_OFFSET];
    Score best = -SCORE_INFINITE;
    t->pv_len[0] = 0;
    for (int i = t->pv_idx; i < t->n_root; i++) {
        RootMove *rm = &t->root_moves[i];
        t->seldepth = 0;
        uint64_t nodes_before = search_thread_nodes(t);
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
        rm->nodes += search_thread_nodes(t) - nodes_before;
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

void search_reset_counters(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    atomic_store_explicit(&t->tbhits, 0, memory_order_relaxed);
    t->completed_depth = 0;
    atomic_store_explicit(&t->depth_done, 0, memory_order_relaxed);
}

void search_prepare(SearchThread *t)
{
    init_reductions(t);
    search_reset_counters(t);
    t->aborted = false;
    t->best_move = MOVE_NONE;
    t->budget = tm_budget(&t->limits, t->pos.side, t->opts.move_overhead);
    memset(t->stack, 0, sizeof t->stack);
    for (int i = 0; i < MAX_PLY + STACK_OFFSET + 2; i++) {
        t->stack[i].ply = i - STACK_OFFSET;
        t->stack[i].static_eval = SCORE_NONE; // the root and the sentinels have none
    }
    if (t->nnue) {
        nnue_cache_reset(&t->nnue_cache);
        nnue_refresh(t->nnue, &t->pos, &t->acc[0]);
    }
}
