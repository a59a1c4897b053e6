// SPDX-License-Identifier: MIT
// Iterative deepening, aspiration windows, principal-variation search, quiescence
// search and move ordering.
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "move.h"
#include "see.h"

enum { CHECK_INTERVAL = 1024, HISTORY_MAX = 16384, SE_DEPTH = 8, SE_MARGIN = 2, CAP_DIV = 16 };

static int reductions[64][64];

static void init_reductions(void)
{
    static bool done = false;
    if (done)
        return;
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            reductions[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
    done = true;
}

void search_clear(SearchThread *t)
{
    memset(t->killers, 0, sizeof t->killers);
    memset(t->history, 0, sizeof t->history);
    memset(t->cont_history, 0, sizeof t->cont_history);
    memset(t->cap_history, 0, sizeof t->cap_history);
}

/* ---------------------------------------------------------------- limits */

static int64_t elapsed(const SearchThread *t) { return tm_now() - atomic_load(&t->ctl->start_ms); }

// Called at every node: sets t->aborted when a limit is reached. Depth 1 always
// completes so there is a move to play however early the stop comes.
static void check_limits(SearchThread *t)
{
    if (t->root_depth <= 1)
        return;
    if (t->limits.nodes && t->nodes >= t->limits.nodes) {
        t->aborted = true;
        return;
    }
    if (t->nodes % CHECK_INTERVAL)
        return;
    if (atomic_load(&t->ctl->stop))
        t->aborted = true;
    else if (!atomic_load(&t->ctl->pondering) && elapsed(t) >= t->budget.hard_ms)
        t->aborted = true;
}

/* ---------------------------------------------------------------- move ordering */

enum {
    SCORE_TT_MOVE = 1 << 30,
    SCORE_GOOD_NOISY = 1 << 28,
    SCORE_KILLER = 1 << 27,
    SCORE_BAD_NOISY = -(1 << 28),
};

static int mvv_lva(const Position *pos, Move m)
{
    int victim = move_is_ep(m) ? PAWN : (pos->board[move_to(m)] == NO_PIECE ? PAWN : piece_type(pos->board[move_to(m)]));
    int value = see_value[victim] * 8 - piece_type(pos->board[move_from(m)]);
    if (move_is_promo(m))
        value += see_value[move_promo_type(m)] * 8;
    return value;
}

static int piece_to(const Position *pos, Move m) { return pos->board[move_from(m)] * 64 + move_to(m); }

// The continuation-history rows of the search's moves one and two plies before ply, read
// once per node; NULL where there is no such move (before the root, a null move).
static void cont_rows(SearchThread *t, int ply, int16_t *rows[2])
{
    for (int back = 1; back <= 2; back++) {
        rows[back - 1] = NULL;
        if (ply < back)
            continue;
        const StateInfo *st = pos_state_back(&t->pos, back - 1);
        if (st->move != MOVE_NULL)
            rows[back - 1] = t->cont_history[st->moved * 64 + move_to(st->move)];
    }
}

// Ordering score of a quiet move: butterfly history plus continuation history one and
// two plies back.
static int quiet_score(const SearchThread *t, int16_t *const rows[2], Move m)
{
    int s = t->history[t->pos.side][move_from(m)][move_to(m)];
    for (int k = 0; k < 2; k++)
        if (rows[k])
            s += rows[k][piece_to(&t->pos, m)];
    return s;
}

static int16_t *cap_entry(SearchThread *t, Move m)
{
    const Position *pos = &t->pos;
    int victim = pos->board[move_to(m)];
    int type = move_is_ep(m) || victim == NO_PIECE ? PAWN : piece_type(victim);
    return &t->cap_history[pos->board[move_from(m)]][move_to(m)][type];
}

// rows: the node's continuation-history rows (cont_rows), read only for quiet moves.
static void score_moves(SearchThread *t, const MoveList *list, int *scores, Move tt_move, int ply,
                        int16_t *const rows[2])
{
    const Position *pos = &t->pos;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (m == tt_move)
            scores[i] = SCORE_TT_MOVE;
        else if (move_is_noisy(m)) {
            bool underpromo = move_is_promo(m) && move_promo_type(m) != QUEEN;
            // The offset keeps every capture within its SEE band whatever its history, since
            // qsearch skips the moves scored below SCORE_GOOD_NOISY.
            scores[i] = (!underpromo && see_ge(pos, m, 0) ? SCORE_GOOD_NOISY : SCORE_BAD_NOISY) + HISTORY_MAX / CAP_DIV
                        + mvv_lva(pos, m) + *cap_entry(t, m) / CAP_DIV;
        } else if (m == t->killers[ply][0])
            scores[i] = SCORE_KILLER + 1;
        else if (m == t->killers[ply][1])
            scores[i] = SCORE_KILLER;
        else
            scores[i] = quiet_score(t, rows, m);
    }
}

// Moves the best-scored remaining move to index i (selection sort, one step at a time,
// since a cutoff usually comes before the list is exhausted).
static Move pick_move(MoveList *list, int *scores, int i)
{
    int best = i;
    for (int j = i + 1; j < list->count; j++)
        if (scores[j] > scores[best])
            best = j;
    Move m = list->moves[best];
    int s = scores[best];
    list->moves[best] = list->moves[i];
    scores[best] = scores[i];
    list->moves[i] = m;
    scores[i] = s;
    return m;
}

static void update_history(int16_t *h, int bonus)
{
    *h = (int16_t)(*h + bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

// Rewards (bonus > 0) or punishes a quiet move in all its history tables.
static void update_quiet(SearchThread *t, int16_t *const rows[2], Move m, int bonus)
{
    update_history(&t->history[t->pos.side][move_from(m)][move_to(m)], bonus);
    for (int k = 0; k < 2; k++)
        if (rows[k])
            update_history(&rows[k][piece_to(&t->pos, m)], bonus);
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

static Score qsearch(SearchThread *t, Score alpha, Score beta, int ply)
{
    Position *pos = &t->pos;
    if (t->aborted) // a re-search after the abort must not count a node
        return 0;
    t->nodes++;
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
        return in_check ? SCORE_DRAW : eval_evaluate(pos);

    bool found;
    TTEntry *tte = tt_probe(t->tt, pos_key(pos), &found);
    Move tt_move = found ? tte->move : MOVE_NONE;
    if (found && beta - alpha == 1) {
        Score s = tt_score_from(tte->score, ply);
        int bound = tt_bound(tte);
        if (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha))
            return s;
    }

    Score best, eval = SCORE_NONE;
    if (in_check) {
        best = -SCORE_INFINITE;
    } else {
        eval = found && tte->eval != SCORE_NONE ? tte->eval : eval_evaluate(pos);
        best = eval;
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }

    MoveList list;
    int scores[MAX_MOVES];
    gen_moves(pos, &list, in_check ? GEN_ALL : GEN_NOISY);
    int16_t *rows[2] = {NULL, NULL}; // only evasions include quiet moves
    if (in_check)
        cont_rows(t, ply, rows);
    score_moves(t, &list, scores, tt_move, ply, rows);
    Move best_move = MOVE_NONE;
    int old_alpha = alpha;
    for (int i = 0; i < list.count; i++) {
        Move m = pick_move(&list, scores, i);
        // Out of check, losing captures and underpromotions cannot raise alpha in practice.
        if (!in_check && scores[i] < SCORE_GOOD_NOISY && m != tt_move)
            continue;
        pos_make_move(pos, m);
        Score score = -qsearch(t, -beta, -alpha, ply + 1);
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
    if (in_check && list.count == 0)
        return mated_in(ply);

    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->tt, tte, pos_key(pos), tt_score_to(best, ply), eval, bound, 0, best_move);
    return best;
}

static Score negamax(SearchThread *t, Score alpha, Score beta, int depth, int ply, bool cut_node)
{
    Position *pos = &t->pos;
    bool pv_node = beta - alpha > 1;
    bool in_check = pos_in_check(pos);

    // Step 1. Quiescence at the horizon.
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply);

    if (t->aborted) // a re-search after the abort must not count a node
        return 0;
    t->nodes++;
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
        return in_check ? SCORE_DRAW : eval_evaluate(pos);
    alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
    beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
    if (alpha >= beta)
        return alpha;

    // Step 3. Transposition table cutoff (not in PV nodes, to keep the PV whole).
    Move excluded = t->excluded[ply];
    bool found;
    TTEntry *tte = tt_probe(t->tt, pos_key(pos), &found);
    Move tt_move = found ? tte->move : MOVE_NONE;
    // A copy for the singular test: searches below may replace the slot before it runs.
    TTEntry tt_hit = found ? *tte : (TTEntry){ 0 };
    if (found && !pv_node && !excluded && tt_depth(tte) >= depth) {
        Score s = tt_score_from(tte->score, ply);
        int bound = tt_bound(tte);
        if (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha))
            return s;
    }

    // Step 4. Static evaluation.
    Score eval = SCORE_NONE;
    if (!in_check)
        eval = found && tte->eval != SCORE_NONE ? tte->eval : eval_evaluate(pos);
    t->killers[ply + 1][0] = t->killers[ply + 1][1] = MOVE_NONE;

    if (!pv_node && !in_check && !excluded) {
        // Step 5. Reverse futility pruning: far above beta at low depth, assume a cutoff.
        if (depth <= 8 && eval - 75 * depth >= beta && eval < SCORE_MATE_IN_MAX)
            return eval;

        // Step 6. Null move: if passing still beats beta, a real move will too. Not in
        // pawn endings, where zugzwang makes passing the best "move".
        if (depth >= 3 && eval >= beta && pos_has_non_pawn(pos, pos->side) && pos_state(pos)->move != MOVE_NULL) {
            int r = 3 + depth / 4 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            pos_make_null(pos);
            Score s = -negamax(t, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
            pos_unmake_null(pos);
            if (t->aborted)
                return 0;
            if (s >= beta)
                return s >= SCORE_MATE_IN_MAX ? beta : s;
        }
    }

    // Step 7. Internal iterative reduction: without a TT move, deep nodes are searched
    // shallower first, and the next visit has a move to try.
    if (depth >= 4 && tt_move == MOVE_NONE && (pv_node || cut_node))
        depth--;

    // Step 8. The move loop.
    MoveList list;
    int scores[MAX_MOVES];
    gen_moves(pos, &list, GEN_ALL);
    if (list.count == 0)
        return in_check ? mated_in(ply) : SCORE_DRAW;
    int16_t *rows[2];
    cont_rows(t, ply, rows);
    score_moves(t, &list, scores, tt_move, ply, rows);

    Score best = -SCORE_INFINITE, old_alpha = alpha;
    Move best_move = MOVE_NONE;
    Move quiets[MAX_MOVES], noisies[MAX_MOVES];
    int n_quiets = 0, n_noisies = 0, move_count = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = pick_move(&list, scores, i);
        if (m == excluded)
            continue;
        bool quiet = !move_is_noisy(m);
        move_count++;

        // Step 9. Pruning of late quiet moves in hopeless or quiet positions.
        if (!pv_node && !in_check && best > SCORE_MATED_IN_MAX) {
            if (quiet && depth <= 8 && move_count > 3 + depth * depth / 2)
                continue; // late-move pruning
            if (quiet && depth <= 6 && eval + 90 + 90 * depth <= alpha && move_count > 1)
                continue; // futility pruning
            if (depth <= 6 && !see_ge(pos, m, quiet ? -60 * depth : -25 * depth * depth))
                continue; // SEE pruning
        }

        // Step 10. Singular extension: a TT move that beats every alternative by a margin
        // is searched one ply deeper; if several moves beat beta, cut at once (multi-cut).
        int extension = 0;
        Score tt_score = m == tt_move ? tt_score_from(tt_hit.score, ply) : SCORE_NONE;
        if (depth >= SE_DEPTH && m == tt_move && !excluded && (tt_bound(&tt_hit) & BOUND_LOWER)
            && tt_depth(&tt_hit) >= depth - 3 && abs(tt_score) < SCORE_MATE_IN_MAX) {
            Score s_beta = tt_score - SE_MARGIN * depth;
            t->excluded[ply] = m;
            Score s = negamax(t, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
            t->excluded[ply] = MOVE_NONE;
            if (t->aborted)
                return 0;
            if (s < s_beta)
                extension = 1;
            else if (s_beta >= beta)
                return s_beta;
        }

        bool killer = quiet && scores[i] >= SCORE_KILLER;
        int hist = !quiet ? 0 : killer ? quiet_score(t, rows, m) : scores[i];
        pos_make_move(pos, m);
        bool gives_check = pos_in_check(pos);
        // Step 11. Check extension.
        int new_depth = depth - 1 + (extension ? extension : gives_check ? 1 : 0);
        Score score;

        // Step 12. Late-move reductions, then principal-variation search.
        if (depth >= 3 && move_count > 1 + pv_node && quiet) {
            int r = reductions[depth < 64 ? depth : 63][move_count < 64 ? move_count : 63];
            r += !pv_node + cut_node;
            // Killers are reduced one ply less; every quiet move, killers included, by
            // its history (a killer's ordering score is not its history).
            r -= killer;
            r -= hist / 12288;
            r -= gives_check;
            int reduced = new_depth - (r > 0 ? r : 0);
            if (reduced < 1)
                reduced = 1;
            if (reduced > new_depth)
                reduced = new_depth;
            score = -negamax(t, -alpha - 1, -alpha, reduced, ply + 1, true);
            if (score > alpha && reduced < new_depth)
                score = -negamax(t, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else if (!pv_node || move_count > 1) {
            score = -negamax(t, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else {
            score = alpha + 1; // force the full-window search of the first PV move
        }
        if (pv_node && score > alpha && (move_count == 1 || score < beta))
            score = -negamax(t, -beta, -alpha, new_depth, ply + 1, false);
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
        int bonus = depth * depth > 1200 ? 1200 : depth * depth;
        if (move_is_noisy(best_move)) {
            update_history(cap_entry(t, best_move), bonus * 8);
        } else {
            if (t->killers[ply][0] != best_move) {
                t->killers[ply][1] = t->killers[ply][0];
                t->killers[ply][0] = best_move;
            }
            update_quiet(t, rows, best_move, bonus * 8);
            for (int i = 0; i < n_quiets; i++)
                update_quiet(t, rows, quiets[i], -bonus * 8);
        }
        for (int i = 0; i < n_noisies; i++)
            update_history(cap_entry(t, noisies[i]), -bonus * 8);
    }

    if (excluded) // the excluded move was the only one, or its search must not pollute the TT
        return best == -SCORE_INFINITE ? alpha : best;
    int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->tt, tte, pos_key(pos), tt_score_to(best, ply), eval, bound, depth, best_move);
    return best;
}

/* ---------------------------------------------------------------- root */

// Searches root moves pv_idx.. of the current iteration; records each move's score and PV.
static Score search_root(SearchThread *t, Score alpha, Score beta, int depth)
{
    Position *pos = &t->pos;
    Score best = -SCORE_INFINITE;
    t->pv_len[0] = 0;
    for (int i = t->pv_idx; i < t->n_root; i++) {
        RootMove *rm = &t->root_moves[i];
        t->seldepth = 0;
        pos_make_move(pos, rm->move);
        int new_depth = depth - 1 + (pos_in_check(pos) ? 1 : 0);
        Score score;
        if (i == t->pv_idx) {
            score = -negamax(t, -beta, -alpha, new_depth, 1, false);
        } else {
            score = -negamax(t, -alpha - 1, -alpha, new_depth, 1, true);
            if (score > alpha && score < beta && !t->aborted)
                score = -negamax(t, -beta, -alpha, new_depth, 1, false);
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
    uint64_t nps = ms > 0 ? t->nodes * 1000 / (uint64_t)ms : t->nodes * 1000;
    search_score_text(rm->score, score, sizeof score);
    int n = snprintf(line, sizeof line, "info depth %d seldepth %d multipv %d score %s%s", depth,
                     rm->seldepth > depth ? rm->seldepth : depth, multipv, score, bound);
    if (t->opts.show_wdl) {
        int w, d, l;
        wdl_of(rm->score, &w, &d, &l);
        n += snprintf(line + n, sizeof line - (size_t)n, " wdl %d %d %d", w, d, l);
    }
    n += snprintf(line + n, sizeof line - (size_t)n,
                  " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64 " pv", t->nodes, nps,
                  tt_hashfull(t->tt), ms);
    for (int i = 0; i < rm->pv_len && n < (int)sizeof line - 8; i++) {
        char mv[MOVE_STR_MAX];
        move_to_uci(rm->pv[i], t->pos.chess960, mv);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", mv);
    }
    emit(t, line);
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
            t->root_moves[t->n_root++] = (RootMove){list.moves[i], -SCORE_INFINITE, -SCORE_INFINITE, 0, 1, {list.moves[i]}};
    }
    if (t->n_root == 0) // every searchmoves token was illegal here: search everything
        for (int i = 0; i < list.count; i++)
            t->root_moves[t->n_root++] = (RootMove){list.moves[i], -SCORE_INFINITE, -SCORE_INFINITE, 0, 1, {list.moves[i]}};
    // Start from the TT move if there is one.
    bool found;
    TTEntry *tte = tt_probe(t->tt, pos_key(&t->pos), &found);
    for (int i = 1; found && i < t->n_root; i++) {
        if (t->root_moves[i].move == tte->move) {
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
    Score s = t->completed[0].score;
    if (t->limits.mate > 0 && s >= SCORE_MATE_IN_MAX && SCORE_MATE - s <= 2 * t->limits.mate)
        return true;
    if (atomic_load(&t->ctl->pondering))
        return false;
    return elapsed(t) >= t->budget.soft_ms;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

// The move the opponent is expected to reply with, for `bestmove ... ponder`.
static Move ponder_move(SearchThread *t, const RootMove *rm)
{
    if (rm->pv_len >= 2)
        return rm->pv[1];
    pos_make_move(&t->pos, rm->move);
    bool found;
    TTEntry *tte = tt_probe(t->tt, pos_key(&t->pos), &found);
    Move m = MOVE_NONE;
    if (found) { // accept the TT move only if it is legal here
        MoveList list;
        gen_moves(&t->pos, &list, GEN_ALL);
        for (int i = 0; i < list.count; i++)
            if (list.moves[i] == tte->move)
                m = tte->move;
    }
    pos_unmake_move(&t->pos, rm->move);
    return m;
}

void search_run(SearchThread *t)
{
    init_reductions();
    t->nodes = 0;
    t->completed_depth = 0;
    t->aborted = false;
    t->best_move = MOVE_NONE;
    t->budget = tm_budget(&t->limits, t->pos.side, t->opts.move_overhead);
    memset(t->killers, 0, sizeof t->killers);
    tt_new_search(t->tt);
    setup_root(t);

    char line[256];
    if (t->n_root == 0) {
        emit(t, pos_in_check(&t->pos) ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
    } else {
        int multipv = t->opts.multipv < t->n_root ? t->opts.multipv : t->n_root;
        if (multipv < 1)
            multipv = 1;
        int max_depth = t->limits.depth > 0 && t->limits.depth < MAX_PLY - 1 ? t->limits.depth : MAX_PLY - 1;
        for (int depth = 1; depth <= max_depth; depth++) {
            t->root_depth = depth;
            for (t->pv_idx = 0; t->pv_idx < multipv && !t->aborted; t->pv_idx++) {
                Score prev = t->root_moves[t->pv_idx].prev_score, delta = 20;
                Score alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
                if (depth >= 4 && prev > -SCORE_INFINITE) {
                    alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
                    beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
                }
                for (;;) {
                    Score score = search_root(t, alpha, beta, depth);
                    sort_root(t, t->pv_idx, t->n_root);
                    if (t->aborted)
                        break;
                    bool slow = elapsed(t) > 3000;
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
                        break;
                    }
                    delta += delta;
                }
                sort_root(t, 0, t->pv_idx + 1);
            }
            if (t->aborted)
                break;
            for (int i = 0; i < t->n_root; i++)
                t->root_moves[i].prev_score = t->root_moves[i].score;
            memcpy(t->completed, t->root_moves, (size_t)multipv * sizeof(RootMove));
            t->completed_depth = depth;
            for (int k = 0; k < multipv; k++)
                print_info(t, &t->completed[k], depth, k + 1, "");
            if (limits_reached_after_iteration(t, depth))
                break;
        }
        // The result of the last completed iteration, restated with the final counts.
        print_info(t, &t->completed[0], t->completed_depth, 1, "");
        t->best_move = t->completed[0].move;
    }

    if (!t->opts.print_bestmove)
        return;
    // Infinite and ponder searches answer only after stop (or ponderhit).
    while (!atomic_load(&t->ctl->stop) && (t->limits.infinite || atomic_load(&t->ctl->pondering)))
        sleep_ms(1);
    if (t->n_root == 0) {
        emit(t, "bestmove (none)");
        return;
    }
    char best[MOVE_STR_MAX], ponder[MOVE_STR_MAX];
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
