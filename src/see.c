// SPDX-License-Identifier: MIT
// Static exchange evaluation by the swap method, with x-ray attackers revealed as
// pieces leave the line. Pins are ignored, as usual: SEE is an ordering and pruning aid.
#include "see.h"

const int see_value[PIECE_TYPE_NB] = {100, 310, 320, 500, 950, 20000};

bool see_ge(const Position *pos, Move m, int threshold)
{
    if (move_is_castle(m))
        return threshold <= 0;
    Square from = move_from(m), to = move_to(m);
    int captured = move_is_ep(m) ? PAWN : (pos->board[to] == NO_PIECE ? -1 : piece_type(pos->board[to]));
    int gain = (captured >= 0 ? see_value[captured] : 0) - threshold;
    if (move_is_promo(m))
        gain += see_value[move_promo_type(m)] - see_value[PAWN];
    if (gain < 0)
        return false;
    // Now assume the opponent takes our piece back: are we still above the threshold?
    int mover = move_is_promo(m) ? move_promo_type(m) : piece_type(pos->board[from]);
    gain = see_value[mover] - gain;
    if (gain <= 0)
        return true;

    Bitboard occ = pos_occupied(pos) ^ sq_bb(from) ^ sq_bb(to);
    if (move_is_ep(m))
        occ ^= sq_bb(move_capture_square(m, pos->side));
    Bitboard attackers = pos_attackers_to(pos, to, occ) & occ;
    Bitboard diag = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    Bitboard ortho = pos->by_type[ROOK] | pos->by_type[QUEEN];
    int stm = pos->side;
    bool ok = true; // result if the side to move in the exchange has no capture left
    for (;;) {
        stm = color_flip(stm);
        attackers &= occ;
        Bitboard mine = attackers & pos->by_color[stm];
        if (!mine)
            break;
        ok = !ok;
        int type = PAWN;
        while (!(mine & pos->by_type[type]))
            type++;
        if (type == KING) // the king may only take last
            return (attackers & ~pos->by_color[stm]) ? !ok : ok;
        gain = see_value[type] - gain;
        if (gain < (int)ok)
            break;
        occ ^= sq_bb(lsb(mine & pos->by_type[type]));
        if (type == PAWN || type == BISHOP || type == QUEEN)
            attackers |= bishop_attacks(to, occ) & diag;
        if (type == ROOK || type == QUEEN)
            attackers |= rook_attacks(to, occ) & ortho;
    }
    return ok;
}
