// SPDX-License-Identifier: MIT
// The staged move picker (see movepick.h for the order of the stages).
#include "movepick.h"

#include "see.h"

enum { CAP_DIV = 16 };

void mp_init(MovePicker *mp, const Position *pos, const Histories *hist, const ContRows *rows, Move tt_move,
             const Move killers[2], Move counter, bool noisy_only)
{
    mp->pos = pos;
    mp->hist = hist;
    mp->rows = rows ? *rows : (ContRows){{NULL, NULL}, 0};
    mp->noisy_only = noisy_only;
    mp->skip_quiets = false;
    mp->stage = MP_TT;
    mp->last_stage = MP_TT;
    mp->last_score = 0;
    mp->n_bad = mp->bad_cur = 0;
    mp->cur = mp->end = 0;
    // The TT move must be legal here; in quiescence only a noisy one is played.
    bool tt_ok = tt_move != MOVE_NONE && (!noisy_only || move_is_noisy(tt_move)) && gen_is_pseudo_legal(pos, tt_move)
              && gen_is_legal(pos, tt_move);
    mp->tt_move = tt_ok ? tt_move : MOVE_NONE;
    mp->killers[0] = killers ? killers[0] : MOVE_NONE;
    mp->killers[1] = killers ? killers[1] : MOVE_NONE;
    mp->counter = counter;
}

// Most valuable victim first, least valuable attacker next; a promotion adds the value
// of the piece it makes.
static int mvv_lva(const Position *pos, Move m)
{
    int victim = move_is_ep(m) || pos->board[move_to(m)] == NO_PIECE ? PAWN : piece_type(pos->board[move_to(m)]);
    int value = see_value[victim] * 8 - piece_type(pos->board[move_from(m)]);
    if (move_is_promo(m))
        value += see_value[move_promo_type(m)] * 8;
    return value;
}

// Index of the best-scored move in [from, end) (the first of equals).
static int best_index(const int *scores, int from, int end)
{
    int best = from, best_score = scores[from];
    for (int j = from + 1; j < end; j++)
        if (scores[j] > best_score) {
            best = j;
            best_score = scores[j];
        }
    return best;
}

// Takes the best of moves[*cur, end) out of the range and returns it, its score in
// *score (selection sort, one step at a time, since a cutoff usually comes before the
// list is exhausted).
static Move take_best(Move *moves, int *scores, int *cur, int end, int *score)
{
    int b = best_index(scores, *cur, end);
    Move m = moves[b];
    *score = scores[b];
    moves[b] = moves[*cur];
    scores[b] = scores[*cur];
    (*cur)++;
    return m;
}

// A killer or counter move is played here only if it is a legal quiet move not played yet.
static bool refutation_ok(const MovePicker *mp, Move m)
{
    return m != MOVE_NONE && m != mp->tt_move && !move_is_noisy(m) && gen_is_pseudo_legal(mp->pos, m)
        && gen_is_legal(mp->pos, m);
}

static bool is_refutation(const MovePicker *mp, Move m)
{
    return m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

Move mp_next(MovePicker *mp)
{
    const Position *pos = mp->pos;
    for (;;) {
        mp->last_stage = mp->stage;
        switch (mp->stage) {
        case MP_TT:
            mp->stage = MP_GEN_NOISY;
            if (mp->tt_move != MOVE_NONE)
                return mp->tt_move;
            break;

        case MP_GEN_NOISY: {
            MoveList list;
            gen_moves(pos, &list, GEN_NOISY);
            mp->cur = mp->end = 0;
            for (int i = 0; i < list.count; i++) {
                Move m = list.moves[i];
                if (m == mp->tt_move)
                    continue;
                mp->moves[mp->end] = m;
                mp->scores[mp->end++] = mvv_lva(pos, m) + hist_capture_value(mp->hist, pos, m) / CAP_DIV;
            }
            mp->stage = MP_GOOD_NOISY;
            break;
        }

        case MP_GOOD_NOISY:
            while (mp->cur < mp->end) {
                Move m = take_best(mp->moves, mp->scores, &mp->cur, mp->end, &mp->last_score);
                // SEE only now, when the capture is reached: losers and underpromotions wait.
                bool underpromo = move_is_promo(m) && move_promo_type(m) != QUEEN;
                if (!underpromo && see_ge(pos, m, 0))
                    return m;
                mp->bad[mp->n_bad] = m;
                mp->bad_scores[mp->n_bad++] = mp->last_score;
            }
            mp->stage = mp->noisy_only ? MP_DONE : MP_KILLER_1;
            break;

        case MP_KILLER_1:
        case MP_KILLER_2: {
            Move k = mp->killers[mp->stage - MP_KILLER_1];
            mp->stage++;
            if (!mp->skip_quiets && refutation_ok(mp, k)) // the two killers always differ
                return k;
            break;
        }

        case MP_COUNTER: {
            Move c = mp->counter;
            mp->stage = MP_GEN_QUIET;
            if (!mp->skip_quiets && c != mp->killers[0] && c != mp->killers[1] && refutation_ok(mp, c))
                return c;
            break;
        }

        case MP_GEN_QUIET:
            mp->cur = mp->end = 0;
            if (!mp->skip_quiets) {
                MoveList list;
                gen_moves(pos, &list, GEN_QUIET);
                for (int i = 0; i < list.count; i++) {
                    Move m = list.moves[i];
                    if (m == mp->tt_move || is_refutation(mp, m))
                        continue;
                    mp->moves[mp->end] = m;
                    mp->scores[mp->end++] = hist_quiet(mp->hist, pos, &mp->rows, m);
                }
            }
            mp->stage = MP_QUIET;
            break;

        case MP_QUIET:
            if (!mp->skip_quiets && mp->cur < mp->end)
                return take_best(mp->moves, mp->scores, &mp->cur, mp->end, &mp->last_score);
            mp->stage = MP_BAD_NOISY;
            break;

        case MP_BAD_NOISY:
            if (mp->bad_cur < mp->n_bad)
                return take_best(mp->bad, mp->bad_scores, &mp->bad_cur, mp->n_bad, &mp->last_score);
            mp->stage = MP_DONE;
            break;

        case MP_DONE:
            return MOVE_NONE;
        }
    }
}
