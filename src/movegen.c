// SPDX-License-Identifier: MIT
// Fully legal move generation with pin and check masks. Pinned pieces move only along
// the line through their king; in check, non-king moves must capture the checker or
// block; the king never steps onto an attacked square.
#include "movegen.h"

typedef struct {
    const Position *pos;
    MoveList *list;
    Square ksq;
    Bitboard pinned;
} GenContext;

static inline void add(MoveList *list, Square from, Square to, int flag)
{
    list->moves[list->count++] = make_move(from, to, flag);
}

// True if a pinned piece on `from` leaves its pin line by going to `to`.
static inline bool breaks_pin(const GenContext *c, Square from, Square to)
{
    return (c->pinned & sq_bb(from)) && !(line_bb(c->ksq, from) & sq_bb(to));
}

static void add_pawn_moves(const GenContext *c, Bitboard targets, int delta, int flag)
{
    while (targets) {
        Square to = pop_lsb(&targets);
        Square from = to - delta;
        if (!breaks_pin(c, from, to))
            add(c->list, from, to, flag);
    }
}

static void add_promotions(const GenContext *c, Bitboard targets, int delta, bool capture, GenType type)
{
    while (targets) {
        Square to = pop_lsb(&targets);
        Square from = to - delta;
        if (breaks_pin(c, from, to))
            continue;
        int base = capture ? FLAG_PROMO_CAPTURE : FLAG_PROMO;
        // All promotions count as noisy: quiescence search needs the queen, and
        // underpromotions are rare enough that sorting them there costs nothing.
        if (type != GEN_QUIET)
            for (int promo = 3; promo >= 0; promo--)
                add(c->list, from, to, base + promo);
    }
}

static void gen_pawn_moves(const GenContext *c, GenType type, Bitboard target)
{
    const Position *pos = c->pos;
    int us = pos->side, them = color_flip(us);
    int up = us == WHITE ? 8 : -8;
    Bitboard pawns = pos_pieces(pos, us, PAWN);
    Bitboard empty = ~pos_occupied(pos);
    Bitboard enemies = pos->by_color[them];
    Bitboard rank7 = rank_bb(us == WHITE ? 6 : 1);
    Bitboard rank3 = rank_bb(us == WHITE ? 2 : 5);
    Bitboard promoting = pawns & rank7, others = pawns & ~rank7;

    if (type != GEN_NOISY) {
        Bitboard one = shift_up(others, us) & empty;
        Bitboard two = shift_up(one & rank3, us) & empty;
        add_pawn_moves(c, one & target, up, FLAG_QUIET);
        add_pawn_moves(c, two & target, 2 * up, FLAG_DOUBLE_PUSH);
    }
    if (type != GEN_QUIET) {
        Bitboard up_bb = shift_up(others, us);
        add_pawn_moves(c, shift_west(up_bb) & enemies & target, up - 1, FLAG_CAPTURE);
        add_pawn_moves(c, shift_east(up_bb) & enemies & target, up + 1, FLAG_CAPTURE);
    }
    if (promoting) {
        Bitboard up_bb = shift_up(promoting, us);
        add_promotions(c, up_bb & empty & target, up, false, type);
        add_promotions(c, shift_west(up_bb) & enemies & target, up - 1, true, type);
        add_promotions(c, shift_east(up_bb) & enemies & target, up + 1, true, type);
    }

    Square ep = pos_state(pos)->ep;
    if (type != GEN_QUIET && ep != SQ_NONE) {
        Square capsq = ep - up;
        // In check, en passant helps only by taking the checker or blocking on ep.
        if (!(target & (sq_bb(ep) | sq_bb(capsq))))
            return;
        Bitboard from_bb = pawn_attacks(them, ep) & pawns;
        while (from_bb) {
            Square from = pop_lsb(&from_bb);
            // Two pawns leave their squares at once: test for a discovered slider attack.
            Bitboard occ = (pos_occupied(pos) ^ sq_bb(from) ^ sq_bb(capsq)) | sq_bb(ep);
            Bitboard rq = pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN);
            Bitboard bq = pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN);
            if ((rook_attacks(c->ksq, occ) & rq) || (bishop_attacks(c->ksq, occ) & bq))
                continue;
            add(c->list, from, ep, FLAG_EN_PASSANT);
        }
    }
}

static void gen_piece_moves(const GenContext *c, int type, Bitboard target)
{
    const Position *pos = c->pos;
    int us = pos->side;
    Bitboard occ = pos_occupied(pos), enemies = pos->by_color[color_flip(us)];
    Bitboard pieces = pos_pieces(pos, us, type);
    while (pieces) {
        Square from = pop_lsb(&pieces);
        Bitboard moves = piece_attacks(type, from, occ) & target;
        if (c->pinned & sq_bb(from))
            moves &= line_bb(c->ksq, from);
        while (moves) {
            Square to = pop_lsb(&moves);
            add(c->list, from, to, (enemies & sq_bb(to)) ? FLAG_CAPTURE : FLAG_QUIET);
        }
    }
}

static void gen_king_moves(const GenContext *c, GenType type)
{
    const Position *pos = c->pos;
    int us = pos->side, them = color_flip(us);
    Bitboard occ = pos_occupied(pos) ^ sq_bb(c->ksq); // the king must not shield its own square
    Bitboard enemies = pos->by_color[them];
    Bitboard moves = king_attacks(c->ksq) & ~pos->by_color[us];
    if (type == GEN_NOISY)
        moves &= enemies;
    else if (type == GEN_QUIET)
        moves &= ~enemies;
    while (moves) {
        Square to = pop_lsb(&moves);
        if (!(pos_attackers_to(pos, to, occ) & enemies))
            add(c->list, c->ksq, to, (enemies & sq_bb(to)) ? FLAG_CAPTURE : FLAG_QUIET);
    }

    if (type == GEN_NOISY || pos_in_check(pos))
        return;
    int rights = pos_state(pos)->castling >> (2 * us) & 3;
    for (int i = 0; i < 2; i++) {
        if (!(rights & (1 << i)))
            continue;
        int idx = 2 * us + i;
        Square rsq = pos->castle_rook[idx];
        if (pos_occupied(pos) & pos->castle_path[idx])
            continue;
        // Attacks are judged with the castling rook lifted, as it may hide a slider
        // aiming at the king's destination.
        Bitboard occ_castle = pos_occupied(pos) ^ sq_bb(rsq);
        Bitboard path = pos->castle_king_path[idx];
        bool safe = true;
        while (path && safe)
            safe = !(pos_attackers_to(pos, pop_lsb(&path), occ_castle) & enemies);
        if (safe)
            add(c->list, c->ksq, rsq, FLAG_CASTLE);
    }
}

void gen_moves(const Position *pos, MoveList *list, GenType type)
{
    list->count = 0;
    int us = pos->side;
    GenContext c = {pos, list, pos_king(pos, us), pos_blockers(pos, us) & pos->by_color[us]};
    Bitboard checkers = pos_checkers(pos);

    gen_king_moves(&c, type);
    if (more_than_one(checkers))
        return;

    Bitboard target = ~pos->by_color[us];
    if (checkers)
        target &= between_bb(c.ksq, lsb(checkers)) | checkers;
    if (type == GEN_NOISY)
        target &= pos->by_color[color_flip(us)];
    else if (type == GEN_QUIET)
        target &= ~pos->by_color[color_flip(us)];

    // Pawn pushes need the empty-square part of the target even for noisy promotions.
    Bitboard pawn_target = ~pos->by_color[us];
    if (checkers)
        pawn_target &= between_bb(c.ksq, lsb(checkers)) | checkers;
    gen_pawn_moves(&c, type, pawn_target);
    for (int type_ = KNIGHT; type_ <= QUEEN; type_++)
        gen_piece_moves(&c, type_, target);
}

int gen_count_legal(const Position *pos)
{
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    return list.count;
}

bool gen_is_checkmate(const Position *pos) { return pos_in_check(pos) && gen_count_legal(pos) == 0; }
bool gen_is_stalemate(const Position *pos) { return !pos_in_check(pos) && gen_count_legal(pos) == 0; }

// Castling by right `idx` is possible now: the right is held, the path is empty, the king
// is not in check and crosses no attacked square (as gen_king_moves decides it).
static bool castle_ok(const Position *pos, int idx)
{
    int us = pos->side;
    if (!(pos_state(pos)->castling & (1 << idx)) || pos_in_check(pos) || (pos_occupied(pos) & pos->castle_path[idx]))
        return false;
    Bitboard occ = pos_occupied(pos) ^ sq_bb(pos->castle_rook[idx]);
    Bitboard enemies = pos->by_color[color_flip(us)];
    for (Bitboard path = pos->castle_king_path[idx]; path;)
        if (pos_attackers_to(pos, pop_lsb(&path), occ) & enemies)
            return false;
    return true;
}

bool gen_is_pseudo_legal(const Position *pos, Move m)
{
    Square from = move_from(m), to = move_to(m);
    int piece = pos->board[from], us = pos->side, flag = move_flag(m);
    if (m == MOVE_NONE || m == MOVE_NULL || from == to || piece == NO_PIECE || piece_color(piece) != us)
        return false;
    int type = piece_type(piece);
    int target = pos->board[to];
    if (flag == FLAG_CASTLE) {
        if (type != KING || target != make_piece(us, ROOK))
            return false;
        for (int i = 0; i < 2; i++)
            if (pos->castle_rook[2 * us + i] == to && castle_ok(pos, 2 * us + i))
                return true;
        return false;
    }
    // Every other kind: a capture flag exactly when an enemy piece (not the king) stands
    // on the target; en passant alone captures onto an empty square.
    bool capture = flag == FLAG_CAPTURE || flag >= FLAG_PROMO_CAPTURE;
    if (flag == FLAG_EN_PASSANT)
        return type == PAWN && to == pos_state(pos)->ep && target == NO_PIECE && (pawn_attacks(us, from) & sq_bb(to));
    if (capture ? target == NO_PIECE || piece_color(target) == us || piece_type(target) == KING : target != NO_PIECE)
        return false;
    if (type != PAWN) {
        if (flag != FLAG_QUIET && flag != FLAG_CAPTURE)
            return false;
        return (piece_attacks(type, from, pos_occupied(pos)) & sq_bb(to)) != 0;
    }
    int up = us == WHITE ? 8 : -8;
    bool last_rank = relative_rank(us, to) == 7;
    if (move_is_promo(m) != last_rank)
        return false;
    if (capture)
        return (pawn_attacks(us, from) & sq_bb(to)) != 0;
    if (flag == FLAG_DOUBLE_PUSH)
        return relative_rank(us, from) == 1 && to == from + 2 * up && pos->board[from + up] == NO_PIECE;
    return (flag == FLAG_QUIET || move_is_promo(m)) && to == from + up;
}

bool gen_is_legal(const Position *pos, Move m)
{
    if (move_is_castle(m)) // gen_is_pseudo_legal checked the king's path
        return true;
    int us = pos->side, them = color_flip(us);
    Square from = move_from(m), to = move_to(m), ksq = pos_king(pos, us);
    Bitboard enemies = pos->by_color[them];
    if (from == ksq) // the king's own square must not shield the square it goes to
        return !(pos_attackers_to(pos, to, pos_occupied(pos) ^ sq_bb(from)) & enemies);
    if (move_is_ep(m)) { // two pawns leave their squares: look for any attack on the king
        Square capsq = to + (us == WHITE ? -8 : 8);
        Bitboard occ = (pos_occupied(pos) ^ sq_bb(from) ^ sq_bb(capsq)) | sq_bb(to);
        return !(pos_attackers_to(pos, ksq, occ) & enemies & ~sq_bb(capsq));
    }
    Bitboard checkers = pos_checkers(pos);
    if (more_than_one(checkers))
        return false;
    if (checkers && !((between_bb(ksq, lsb(checkers)) | checkers) & sq_bb(to)))
        return false;
    Bitboard pinned = pos_blockers(pos, us) & pos->by_color[us];
    return !(pinned & sq_bb(from)) || (line_bb(ksq, from) & sq_bb(to));
}
