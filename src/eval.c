// SPDX-License-Identifier: MIT
// The evaluation terms on top of psqt: mobility, pawn structure, king safety, bishop
// pair, rooks on open files and tempo, tapered by the material left. Every value comes
// from eval_weights (weights.h), fitted to game results by tools/tune; eval_trace
// counts how often each weight was used, which is what the tuner fits.
#include "eval.h"

#include <string.h>

#include "attacks.h"
#include "bitboard.h"
#include "psqt.h"

// The side to move is better off by about this much; not tuned (the tuner's positions
// carry no information about it).
enum { TEMPO = 15 };

// Attack weight of one piece of each type on the enemy king's zone.
static const int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 2, 2, 3, 5, 0};

typedef struct {
    EvalTrace *trace; // NULL in play: the compiler drops the counting
    Bitboard pawn_attacks[COLOR_NB];
    Bitboard king_zone[COLOR_NB];
    int king_attack_units[COLOR_NB]; // units scored by this colour against the other king
    int king_attackers[COLOR_NB];
} EvalInfo;

// Weight `idx` for a feature of colour us (whose terms white adds and black subtracts).
static inline PackedScore weight(EvalInfo *ei, int idx, int us)
{
    if (ei->trace)
        ei->trace->coef[idx] += us == WHITE ? 1 : -1;
    return S(eval_weights[idx].mg, eval_weights[idx].eg);
}

static Bitboard forward_file_mask(int color, Square sq)
{
    Bitboard f = file_bb(sq_file(sq));
    return color == WHITE ? f & ~((sq_bb(sq) << 1) - 1) & ~sq_bb(sq) : f & (sq_bb(sq) - 1);
}

// Squares in front of a pawn on its own and adjacent files: no enemy pawn there = passed.
static Bitboard passed_mask(int color, Square sq)
{
    Bitboard front = forward_file_mask(color, sq);
    return front | shift_east(front) | shift_west(front);
}

static PackedScore eval_pawns(const Position *pos, int us, EvalInfo *ei)
{
    int them = color_flip(us);
    Bitboard ours = pos_pieces(pos, us, PAWN), theirs = pos_pieces(pos, them, PAWN);
    PackedScore score = 0;
    Bitboard b = ours;
    while (b) {
        Square sq = pop_lsb(&b);
        int f = sq_file(sq);
        Bitboard adjacent = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        if (!(ours & adjacent))
            score += weight(ei, WT_ISOLATED, us);
        if (ours & forward_file_mask(us, sq))
            score += weight(ei, WT_DOUBLED, us); // a pawn of ours stands ahead on the file
        if (!(theirs & passed_mask(us, sq))) {
            int r = relative_rank(us, sq);
            score += weight(ei, WT_PASSED + r, us);
            if (!(forward_file_mask(us, sq) & pos_occupied(pos)))
                score += weight(ei, WT_PASSED_FREE + r, us);
        }
    }
    return score;
}

static PackedScore eval_pieces(const Position *pos, int us, EvalInfo *ei)
{
    int them = color_flip(us);
    Bitboard occ = pos_occupied(pos);
    // Squares worth counting for mobility: not our own pieces, not guarded by enemy pawns.
    Bitboard area = ~pos->by_color[us] & ~ei->pawn_attacks[them];
    PackedScore score = 0;
    for (int type = KNIGHT; type <= QUEEN; type++) {
        Bitboard pieces = pos_pieces(pos, us, type);
        while (pieces) {
            Square sq = pop_lsb(&pieces);
            Bitboard att = piece_attacks(type, sq, occ);
            score += weight(ei, weight_mobility(type, popcount(att & area)), us);
            if (att & ei->king_zone[them]) {
                ei->king_attackers[us]++;
                ei->king_attack_units[us] += KING_ATTACK_WEIGHT[type] * (1 + popcount(att & ei->king_zone[them]) / 2);
            }
            if (type == ROOK) {
                Bitboard file = file_bb(sq_file(sq));
                if (!(file & pos->by_type[PAWN]))
                    score += weight(ei, WT_ROOK_OPEN, us);
                else if (!(file & pos_pieces(pos, us, PAWN)))
                    score += weight(ei, WT_ROOK_HALF_OPEN, us);
            }
        }
    }
    if (more_than_one(pos_pieces(pos, us, BISHOP)))
        score += weight(ei, WT_BISHOP_PAIR, us);
    return score;
}

static PackedScore eval_king(const Position *pos, int us, EvalInfo *ei)
{
    int them = color_flip(us);
    Square ksq = pos_king(pos, us);
    PackedScore score = 0;
    // Shelter: own pawns on the three files around the king, one or two ranks ahead.
    Bitboard ahead = 0;
    for (int n = 1, r = relative_rank(us, ksq); n <= 2 && r + n <= 7; n++)
        ahead |= rank_bb(us == WHITE ? r + n : 7 - (r + n));
    Bitboard shelter = passed_mask(us, ksq) & ahead & pos_pieces(pos, us, PAWN);
    while (shelter) {
        pop_lsb(&shelter);
        score += weight(ei, WT_SHELTER, us);
    }
    // Attack: the table grows with the pressure, once at least two pieces join in.
    int units = ei->king_attack_units[them];
    if (ei->king_attackers[them] >= 2 && pos_pieces(pos, them, QUEEN))
        score += weight(ei, WT_KING_DANGER + (units < KING_DANGER_NB ? units : KING_DANGER_NB - 1), us);
    return score;
}

static int game_phase(const Position *pos)
{
    int phase = popcount(pos->by_type[KNIGHT] | pos->by_type[BISHOP]) + 2 * popcount(pos->by_type[ROOK])
              + 4 * popcount(pos->by_type[QUEEN]);
    return phase > 24 ? 24 : phase;
}

// Endgames where the side ahead cannot win without pawns are scaled towards a draw.
static int endgame_scale(const Position *pos, int eg)
{
    int strong = eg > 0 ? WHITE : BLACK, weak = color_flip(strong);
    if (pos_pieces(pos, strong, PAWN))
        return 64;
    int material[COLOR_NB];
    for (int c = WHITE; c <= BLACK; c++)
        material[c] = 3 * popcount(pos_pieces(pos, c, KNIGHT) | pos_pieces(pos, c, BISHOP))
                    + 5 * popcount(pos_pieces(pos, c, ROOK)) + 9 * popcount(pos_pieces(pos, c, QUEEN));
    if (material[strong] - material[weak] <= 3)
        return material[strong] <= 3 ? 0 : 8;
    return 64;
}

// The material and square terms (psqt), counted for the tuner.
static void trace_psqt(const Position *pos, EvalTrace *trace)
{
    for (Square sq = 0; sq < 64; sq++) {
        int piece = pos_piece_on(pos, sq);
        if (piece == NO_PIECE)
            continue;
        int c = piece_color(piece), type = piece_type(piece), sign = c == WHITE ? 1 : -1;
        trace->coef[WT_PIECE_VALUE + type] += sign;
        trace->coef[WT_PSQT + type * 32 + weight_square(relative_square(c, sq))] += sign;
    }
}

// The sum of psqt[] over the board, white's view. Summed here rather than kept up to
// date in every make: the position does not know which evaluation is in use, and the
// network engine, which never reads it, saves the work.
static PackedScore psqt_sum(const Position *pos)
{
    PackedScore score = 0;
    for (Bitboard b = pos_occupied(pos); b;) {
        Square sq = pop_lsb(&b);
        score += psqt[pos->board[sq]][sq];
    }
    return score;
}

static inline Score evaluate(const Position *pos, EvalTrace *trace)
{
    EvalInfo ei = {trace, {0}, {0}, {0}, {0}};
    for (int c = WHITE; c <= BLACK; c++) {
        ei.pawn_attacks[c] = pawn_attacks_bb(pos_pieces(pos, c, PAWN), c);
        Square k = pos_king(pos, c);
        ei.king_zone[c] = king_attacks(k) | sq_bb(k);
    }
    PackedScore score = psqt_sum(pos);
    score += eval_pawns(pos, WHITE, &ei) - eval_pawns(pos, BLACK, &ei);
    score += eval_pieces(pos, WHITE, &ei) - eval_pieces(pos, BLACK, &ei);
    score += eval_king(pos, WHITE, &ei) - eval_king(pos, BLACK, &ei);

    int phase = game_phase(pos);
    int mg = mg_of(score), eg = eg_of(score);
    int scale = endgame_scale(pos, eg);
    if (trace) {
        trace_psqt(pos, trace);
        trace->phase = phase;
        trace->scale = scale;
    }
    eg = eg * scale / 64;
    int v = (mg * phase + eg * (24 - phase)) / 24;
    v = pos->side == WHITE ? v : -v;
    return v + TEMPO;
}

Score eval_evaluate(const Position *pos) { return evaluate(pos, NULL); }

Score eval_trace(const Position *pos, EvalTrace *trace)
{
    memset(trace, 0, sizeof *trace);
    return evaluate(pos, trace);
}

double eval_from_trace(const EvalTrace *trace, const double (*w)[2], int side)
{
    double mg = 0, eg = 0;
    for (int i = 0; i < WT_NB; i++) {
        mg += trace->coef[i] * w[i][0];
        eg += trace->coef[i] * w[i][1];
    }
    double v = (mg * trace->phase + eg * trace->scale / 64.0 * (24 - trace->phase)) / 24.0;
    return side == WHITE ? v + TEMPO : v - TEMPO;
}
