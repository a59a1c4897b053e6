// SPDX-License-Identifier: MIT
// The evaluation terms on top of psqt. Values are the project's own first guesses, to
// be fitted to game results later (Texel's method); each says what it rewards.
#include "eval.h"

#include "attacks.h"
#include "bitboard.h"

// Per square reachable, centred on a typical count so a normal piece scores about 0.
static const int MOBILITY_BASE[PIECE_TYPE_NB] = {0, 4, 6, 7, 13, 0};

static PackedScore mobility_bonus(int type, int count)
{
    static const int mg[PIECE_TYPE_NB] = {0, 4, 5, 2, 1, 0};
    static const int eg[PIECE_TYPE_NB] = {0, 4, 5, 4, 2, 0};
    int d = count - MOBILITY_BASE[type];
    return S(mg[type] * d, eg[type] * d);
}

static const int PASSED_MG[8] = {0, 2, 6, 12, 28, 52, 88, 0};
static const int PASSED_EG[8] = {0, 8, 14, 30, 55, 95, 150, 0};

// Attack weight of one piece of each type on the enemy king's zone.
static const int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 2, 2, 3, 5, 0};

typedef struct {
    Bitboard pawn_attacks[COLOR_NB];
    Bitboard king_zone[COLOR_NB];
    int king_attack_units[COLOR_NB]; // units scored by this colour against the other king
    int king_attackers[COLOR_NB];
} EvalInfo;

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

static PackedScore eval_pawns(const Position *pos, int us)
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
            score += S(-10, -14); // isolated
        if (ours & forward_file_mask(us, sq))
            score += S(-9, -20); // doubled: a pawn of ours stands ahead on the file
        if (!(theirs & passed_mask(us, sq))) {
            int r = relative_rank(us, sq);
            score += S(PASSED_MG[r], PASSED_EG[r]);
            // A passer is worth more when its path is clear.
            if (!(forward_file_mask(us, sq) & pos_occupied(pos)))
                score += S(r * 2, r * 5);
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
            score += mobility_bonus(type, popcount(att & area));
            if (att & ei->king_zone[them]) {
                ei->king_attackers[us]++;
                ei->king_attack_units[us] += KING_ATTACK_WEIGHT[type] * (1 + popcount(att & ei->king_zone[them]) / 2);
            }
            if (type == ROOK) {
                Bitboard file = file_bb(sq_file(sq));
                if (!(file & pos->by_type[PAWN]))
                    score += S(26, 12); // open file
                else if (!(file & pos_pieces(pos, us, PAWN)))
                    score += S(12, 6); // half-open file
            }
        }
    }
    if (more_than_one(pos_pieces(pos, us, BISHOP)))
        score += S(30, 52);
    return score;
}

static PackedScore eval_king(const Position *pos, int us, const EvalInfo *ei)
{
    int them = color_flip(us);
    Square ksq = pos_king(pos, us);
    PackedScore score = 0;
    // Shelter: own pawns on the three files around the king, one or two ranks ahead.
    Bitboard ahead = 0;
    for (int n = 1, r = relative_rank(us, ksq); n <= 2 && r + n <= 7; n++)
        ahead |= rank_bb(us == WHITE ? r + n : 7 - (r + n));
    score += S(8 * popcount(passed_mask(us, ksq) & ahead & pos_pieces(pos, us, PAWN)), 0);
    // Attack: grows with the square of the pressure, once at least two pieces join in.
    int units = ei->king_attack_units[them];
    if (ei->king_attackers[them] >= 2 && pos_pieces(pos, them, QUEEN))
        score -= S(units * units * 2 / 3, units);
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

Score eval_evaluate(const Position *pos)
{
    EvalInfo ei = {{0}, {0}, {0}, {0}};
    for (int c = WHITE; c <= BLACK; c++) {
        ei.pawn_attacks[c] = pawn_attacks_bb(pos_pieces(pos, c, PAWN), c);
        Square k = pos_king(pos, c);
        ei.king_zone[c] = king_attacks(k) | sq_bb(k);
    }
    PackedScore score = pos->psq;
    score += eval_pawns(pos, WHITE) - eval_pawns(pos, BLACK);
    score += eval_pieces(pos, WHITE, &ei) - eval_pieces(pos, BLACK, &ei);
    score += eval_king(pos, WHITE, &ei) - eval_king(pos, BLACK, &ei);

    int phase = game_phase(pos);
    int mg = mg_of(score), eg = eg_of(score);
    eg = eg * endgame_scale(pos, eg) / 64;
    int v = (mg * phase + eg * (24 - phase)) / 24;
    v = pos->side == WHITE ? v : -v;
    return v + 15; // tempo: the side to move is better off by about this much
}
