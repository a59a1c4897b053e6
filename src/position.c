// SPDX-License-Identifier: MIT
// Board state and the rules that change it: FEN parsing and writing, make/unmake, the
// null move, attack queries and draw detection.
#include "position.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

const char *const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

static const char PIECE_CHARS[] = "PNBRQKpnbrqk";

// Index of a castling right (WHITE_OO -> 0 ... BLACK_OOO -> 3).
static int right_index(int color, bool king_side) { return color * 2 + (king_side ? 0 : 1); }

// The three board primitives. Each keeps bitboards, mailbox and the current key in step.
static inline void put_piece(Position *pos, int piece, Square sq)
{
    Bitboard b = sq_bb(sq);
    pos->by_type[piece_type(piece)] |= b;
    pos->by_color[piece_color(piece)] |= b;
    pos->board[sq] = (uint8_t)piece;
    pos->states[pos->st_index].key ^= zobrist.piece_square[piece][sq];
    if (piece_type(piece) == PAWN)
        pos->states[pos->st_index].pawn_key ^= zobrist.piece_square[piece][sq];
}

static inline void remove_piece(Position *pos, Square sq)
{
    int piece = pos->board[sq];
    Bitboard b = sq_bb(sq);
    pos->by_type[piece_type(piece)] ^= b;
    pos->by_color[piece_color(piece)] ^= b;
    pos->board[sq] = NO_PIECE;
    pos->states[pos->st_index].key ^= zobrist.piece_square[piece][sq];
    if (piece_type(piece) == PAWN)
        pos->states[pos->st_index].pawn_key ^= zobrist.piece_square[piece][sq];
}

static inline void move_piece(Position *pos, Square from, Square to)
{
    int piece = pos->board[from];
    Bitboard b = sq_bb(from) | sq_bb(to);
    pos->by_type[piece_type(piece)] ^= b;
    pos->by_color[piece_color(piece)] ^= b;
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)piece;
    pos->states[pos->st_index].key ^= zobrist.piece_square[piece][from] ^ zobrist.piece_square[piece][to];
    if (piece_type(piece) == PAWN)
        pos->states[pos->st_index].pawn_key ^= zobrist.piece_square[piece][from] ^ zobrist.piece_square[piece][to];
}

Bitboard pos_attackers_to(const Position *pos, Square sq, Bitboard occupied)
{
    return (pawn_attacks(BLACK, sq) & pos_pieces(pos, WHITE, PAWN))
         | (pawn_attacks(WHITE, sq) & pos_pieces(pos, BLACK, PAWN))
         | (knight_attacks(sq) & pos->by_type[KNIGHT])
         | (king_attacks(sq) & pos->by_type[KING])
         | (bishop_attacks(sq, occupied) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))
         | (rook_attacks(sq, occupied) & (pos->by_type[ROOK] | pos->by_type[QUEEN]));
}

Bitboard pos_attacks_by(const Position *pos, int color)
{
    Bitboard occ = pos_occupied(pos), a = pawn_attacks_bb(pos_pieces(pos, color, PAWN), color);
    for (Bitboard b = pos_pieces(pos, color, KNIGHT); b; b &= b - 1)
        a |= knight_attacks(lsb(b));
    for (Bitboard b = pos_pieces(pos, color, BISHOP) | pos_pieces(pos, color, QUEEN); b; b &= b - 1)
        a |= bishop_attacks(lsb(b), occ);
    for (Bitboard b = pos_pieces(pos, color, ROOK) | pos_pieces(pos, color, QUEEN); b; b &= b - 1)
        a |= rook_attacks(lsb(b), occ);
    return a | king_attacks(pos_king(pos, color));
}

bool pos_attacked_by(const Position *pos, Square sq, int color)
{
    return (pos_attackers_to(pos, sq, pos_occupied(pos)) & pos->by_color[color]) != 0;
}

Bitboard pos_blockers(const Position *pos, int king_color)
{
    Square ksq = pos_king(pos, king_color);
    int them = color_flip(king_color);
    Bitboard occ = pos_occupied(pos);
    Bitboard snipers = ((rook_attacks(ksq, 0) & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
                        | (bishop_attacks(ksq, 0) & (pos->by_type[BISHOP] | pos->by_type[QUEEN])))
                     & pos->by_color[them];
    Bitboard blockers = 0;
    while (snipers) {
        Bitboard b = between_bb(ksq, pop_lsb(&snipers)) & occ;
        if (b && !more_than_one(b))
            blockers |= b;
    }
    return blockers;
}

static Bitboard compute_checkers(const Position *pos)
{
    int us = pos->side;
    return pos_attackers_to(pos, pos_king(pos, us), pos_occupied(pos)) & pos->by_color[color_flip(us)];
}

// Whether a pawn of `capturer` attacks sq, the square a double push just passed.
static bool ep_capturable(const Position *pos, int capturer, Square sq)
{
    return (pawn_attacks(color_flip(capturer), sq) & pos_pieces(pos, capturer, PAWN)) != 0;
}

// Sets st->ep to sq only if a pawn of the side to move could capture there.
static void set_ep_if_capturable(Position *pos, StateInfo *st, Square sq)
{
    if (ep_capturable(pos, pos->side, sq)) {
        st->ep = sq;
        st->key ^= zobrist.ep_file[sq_file(sq)];
    }
}

/* ---------------------------------------------------------------- FEN */

static bool fail(char *err, size_t size, const char *fmt, ...)
{
    if (err && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

// Parses a non-negative decimal counter; false on anything else.
static bool parse_counter(const char *s, int *out)
{
    if (!*s)
        return false;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    errno = 0;
    long v = strtol(s, NULL, 10);
    if (errno || v > 1000000)
        return false;
    *out = (int)v;
    return true;
}

static void add_castling_right(Position *pos, int color, Square rsq)
{
    Square ksq = pos_king(pos, color);
    bool king_side = rsq > ksq;
    int idx = right_index(color, king_side);
    Square kto = relative_square(color, king_side ? 6 : 2);
    Square rto = relative_square(color, king_side ? 5 : 3);
    pos->castle_rook[idx] = rsq;
    pos->castle_king_path[idx] = between_bb(ksq, kto) | sq_bb(kto);
    pos->castle_path[idx] = (between_bb(ksq, kto) | sq_bb(kto) | between_bb(rsq, rto) | sq_bb(rto))
                          & ~(sq_bb(ksq) | sq_bb(rsq));
    pos->castle_mask[ksq] &= (uint8_t) ~(3 << (2 * color));
    pos->castle_mask[rsq] &= (uint8_t) ~(1 << idx);
    pos->states[0].castling |= 1 << idx;
}

// Parses the castling field into p (whose board is already set).
static bool parse_castling(Position *p, const char *field, char *err, size_t size)
{
    if (!strcmp(field, "-"))
        return true;
    for (const char *c = field; *c; c++) {
        int color = isupper((unsigned char)*c) ? WHITE : BLACK;
        char ch = (char)toupper((unsigned char)*c);
        Square ksq = pos_king(p, color);
        Bitboard rooks = pos_pieces(p, color, ROOK) & rank_bb(color == WHITE ? 0 : 7);
        if (relative_rank(color, ksq) != 0)
            return fail(err, size, "castling right '%c' but the king is not on its first rank", *c);
        Square rsq = SQ_NONE;
        if (ch == 'K') { // outermost rook on the king's side (X-FEN)
            Bitboard side = rooks & ~(sq_bb(ksq) * 2 - 1);
            if (side)
                rsq = msb(side);
        } else if (ch == 'Q') {
            Bitboard side = rooks & (sq_bb(ksq) - 1);
            if (side)
                rsq = lsb(side);
        } else if (ch >= 'A' && ch <= 'H') {
            Square sq = relative_square(color, ch - 'A');
            if (rooks & sq_bb(sq))
                rsq = sq;
        } else {
            return fail(err, size, "bad castling character '%c'", *c);
        }
        if (rsq == SQ_NONE)
            return fail(err, size, "castling right '%c' but no rook on its square", *c);
        int idx = right_index(color, rsq > ksq);
        if (p->states[0].castling & (1 << idx))
            return fail(err, size, "castling right '%c' given twice", *c);
        add_castling_right(p, color, rsq);
        if (sq_file(ksq) != 4 || (sq_file(rsq) != 0 && sq_file(rsq) != 7))
            p->chess960 = true;
    }
    return true;
}

bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t err_size)
{
    char buf[512];
    if (!fen || strlen(fen) >= sizeof buf)
        return fail(err, err_size, "FEN missing or too long");
    strcpy(buf, fen);
    char *fields[7];
    int nfields = 0;
    for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (nfields == 6)
            return fail(err, err_size, "FEN has more than 6 fields");
        fields[nfields++] = tok;
    }
    if (nfields < 4)
        return fail(err, err_size, "FEN has %d fields, needs 4 to 6", nfields);

    // Build into a scratch position (static: it is large) and copy on success.
    static _Thread_local Position p;
    memset(&p, 0, offsetof(Position, states));
    memset(&p.states[0], 0, sizeof p.states[0]);
    memset(p.board, NO_PIECE, sizeof p.board);
    memset(p.castle_mask, ALL_CASTLING, sizeof p.castle_mask);
    for (int i = 0; i < 4; i++)
        p.castle_rook[i] = SQ_NONE;
    p.chess960 = chess960;

    int rank = 7, file = 0;
    for (const char *c = fields[0]; *c; c++) {
        if (*c == '/') {
            if (file != 8)
                return fail(err, err_size, "rank %d does not hold 8 squares", rank + 1);
            if (--rank < 0)
                return fail(err, err_size, "more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return fail(err, err_size, "rank %d holds more than 8 squares", rank + 1);
        } else {
            const char *found = strchr(PIECE_CHARS, *c);
            if (!found || !*c)
                return fail(err, err_size, "bad piece letter '%c'", *c);
            if (file >= 8)
                return fail(err, err_size, "rank %d holds more than 8 squares", rank + 1);
            put_piece(&p, (int)(found - PIECE_CHARS), make_square(file, rank));
            file++;
        }
    }
    if (rank != 0 || file != 8)
        return fail(err, err_size, rank != 0 ? "fewer than 8 ranks" : "rank 1 does not hold 8 squares");
    if (popcount(pos_pieces(&p, WHITE, KING)) != 1 || popcount(pos_pieces(&p, BLACK, KING)) != 1)
        return fail(err, err_size, "each side needs exactly one king");
    if (p.by_type[PAWN] & (rank_bb(0) | rank_bb(7)))
        return fail(err, err_size, "pawn on the first or last rank");

    if (!strcmp(fields[1], "w"))
        p.side = WHITE;
    else if (!strcmp(fields[1], "b"))
        p.side = BLACK;
    else
        return fail(err, err_size, "side to move must be 'w' or 'b', not '%s'", fields[1]);
    if (p.side == BLACK)
        p.states[0].key ^= zobrist.side;

    if (pos_attacked_by(&p, pos_king(&p, color_flip(p.side)), p.side))
        return fail(err, err_size, "the side not to move is in check");

    if (!parse_castling(&p, fields[2], err, err_size))
        return false;
    p.states[0].key ^= zobrist.castling[p.states[0].castling];

    p.states[0].ep = SQ_NONE;
    if (strcmp(fields[3], "-")) {
        const char *e = fields[3];
        if (strlen(e) != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
            return fail(err, err_size, "bad en-passant square '%s'", e);
        Square ep = make_square(e[0] - 'a', e[1] - '1');
        int them = color_flip(p.side);
        // The pawn that just moved two squares must stand in front of ep, with ep and the
        // square it came from empty.
        Square pawn_sq = p.side == WHITE ? ep - 8 : ep + 8;
        Square origin = p.side == WHITE ? ep + 8 : ep - 8;
        if (relative_rank(p.side, ep) != 5 || p.board[ep] != NO_PIECE || p.board[origin] != NO_PIECE
            || p.board[pawn_sq] != make_piece(them, PAWN))
            return fail(err, err_size, "impossible en-passant square '%s'", e);
        set_ep_if_capturable(&p, &p.states[0], ep);
    }

    int rule50 = 0, fullmove = 1;
    if (nfields > 4 && !parse_counter(fields[4], &rule50))
        return fail(err, err_size, "halfmove clock '%s' is not a number", fields[4]);
    if (nfields > 5 && !parse_counter(fields[5], &fullmove))
        return fail(err, err_size, "fullmove number '%s' is not a number", fields[5]);
    if (fullmove < 1)
        fullmove = 1;
    p.states[0].rule50 = rule50;
    p.states[0].captured = NO_PIECE;
    p.states[0].moved = NO_PIECE;
    p.states[0].move = MOVE_NONE;
    p.game_ply = 2 * (fullmove - 1) + p.side;
    p.st_index = 0;
    p.states[0].checkers = compute_checkers(&p);

    memcpy(pos, &p, offsetof(Position, states));
    pos->states[0] = p.states[0];
    return true;
}

char *pos_write_placement(const uint8_t board[64], char *out)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int piece = board[make_square(file, rank)];
            if (piece == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = PIECE_CHARS[piece];
        }
        if (empty)
            *out++ = (char)('0' + empty);
        if (rank)
            *out++ = '/';
    }
    *out = '\0';
    return out;
}

void pos_to_fen(const Position *pos, char *buf)
{
    char *out = pos_write_placement(pos->board, buf);
    *out++ = ' ';
    *out++ = pos->side == WHITE ? 'w' : 'b';
    *out++ = ' ';
    const StateInfo *st = pos_state(pos);
    if (!st->castling)
        *out++ = '-';
    static const char KQKQ[] = "KQkq";
    for (int i = 0; i < 4; i++) {
        if (!(st->castling & (1 << i)))
            continue;
        if (pos->chess960)
            *out++ = (char)((i < 2 ? 'A' : 'a') + sq_file(pos->castle_rook[i]));
        else
            *out++ = KQKQ[i];
    }
    *out++ = ' ';
    if (st->ep == SQ_NONE) {
        *out++ = '-';
    } else {
        *out++ = (char)('a' + sq_file(st->ep));
        *out++ = (char)('1' + sq_rank(st->ep));
    }
    sprintf(out, " %d %d", st->rule50, pos->game_ply / 2 + 1);
}

/* ---------------------------------------------------------------- make / unmake */

// King and rook destinations of a castling move whose rook stands on rsq.
void pos_castle_squares(int color, Square ksq, Square rsq, Square *kto, Square *rto)
{
    bool king_side = rsq > ksq;
    *kto = relative_square(color, king_side ? 6 : 2);
    *rto = relative_square(color, king_side ? 5 : 3);
}

void pos_make_move(Position *pos, Move m)
{
    const StateInfo *prev = &pos->states[pos->st_index];
    StateInfo *st = &pos->states[++pos->st_index];
    *st = *prev;
    st->rule50++;
    st->plies_from_null++;
    st->move = m;
    st->captured = NO_PIECE;
    st->key ^= zobrist.side;
    if (st->ep != SQ_NONE) {
        st->key ^= zobrist.ep_file[sq_file(st->ep)];
        st->ep = SQ_NONE;
    }

    int us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int piece = pos->board[from];
    st->moved = piece;

    if (move_is_castle(m)) {
        Square kto, rto;
        pos_castle_squares(us, from, to, &kto, &rto);
        remove_piece(pos, from);
        remove_piece(pos, to);
        put_piece(pos, make_piece(us, KING), kto);
        put_piece(pos, make_piece(us, ROOK), rto);
    } else {
        if (move_is_capture(m)) {
            Square capsq = move_capture_square(m, us);
            st->captured = pos->board[capsq];
            remove_piece(pos, capsq);
            st->rule50 = 0;
        }
        move_piece(pos, from, to);
        if (piece_type(piece) == PAWN) {
            st->rule50 = 0;
            if (move_is_promo(m)) {
                remove_piece(pos, to);
                put_piece(pos, make_piece(us, move_promo_type(m)), to);
            }
        }
    }

    if (st->castling && (pos->castle_mask[from] & pos->castle_mask[to]) != ALL_CASTLING) {
        st->key ^= zobrist.castling[st->castling];
        st->castling &= pos->castle_mask[from] & pos->castle_mask[to];
        st->key ^= zobrist.castling[st->castling];
    }

    pos->side = color_flip(us);
    pos->game_ply++;
    if (move_flag(m) == FLAG_DOUBLE_PUSH)
        set_ep_if_capturable(pos, st, (from + to) / 2);
    st->checkers = compute_checkers(pos);
    assert(pos_is_ok(pos));
}

Key pos_key_after(const Position *pos, Move m)
{
    const StateInfo *st = pos_state(pos);
    int us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int piece = pos->board[from];
    Key key = st->key ^ zobrist.side;
    if (st->ep != SQ_NONE)
        key ^= zobrist.ep_file[sq_file(st->ep)];
    if (move_is_castle(m)) {
        Square kto, rto;
        pos_castle_squares(us, from, to, &kto, &rto);
        key ^= zobrist.piece_square[piece][from] ^ zobrist.piece_square[piece][kto]
             ^ zobrist.piece_square[pos->board[to]][to] ^ zobrist.piece_square[pos->board[to]][rto];
    } else {
        if (move_is_capture(m)) {
            Square capsq = move_capture_square(m, us);
            key ^= zobrist.piece_square[pos->board[capsq]][capsq];
        }
        int placed = move_is_promo(m) ? make_piece(us, move_promo_type(m)) : piece;
        key ^= zobrist.piece_square[piece][from] ^ zobrist.piece_square[placed][to];
    }
    int rights = st->castling & pos->castle_mask[from] & pos->castle_mask[to];
    key ^= zobrist.castling[st->castling] ^ zobrist.castling[rights];
    // As set_ep_if_capturable after the move: the other side's pawns do not move.
    Square ep = (from + to) / 2;
    if (move_flag(m) == FLAG_DOUBLE_PUSH && ep_capturable(pos, color_flip(us), ep))
        key ^= zobrist.ep_file[sq_file(ep)];
    return key;
}

void pos_unmake_move(Position *pos, Move m)
{
    int us = color_flip(pos->side);
    pos->side = us;
    pos->game_ply--;
    Square from = move_from(m), to = move_to(m);
    const StateInfo *st = &pos->states[pos->st_index];

    // The primitives also update the key of the state being discarded, which is harmless.
    if (move_is_castle(m)) {
        Square kto, rto;
        pos_castle_squares(us, from, to, &kto, &rto);
        remove_piece(pos, kto);
        remove_piece(pos, rto);
        put_piece(pos, make_piece(us, KING), from);
        put_piece(pos, make_piece(us, ROOK), to);
    } else {
        if (move_is_promo(m)) {
            remove_piece(pos, to);
            put_piece(pos, make_piece(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (st->captured != NO_PIECE) {
            Square capsq = move_capture_square(m, us);
            put_piece(pos, st->captured, capsq);
        }
    }
    pos->st_index--;
    assert(pos_is_ok(pos));
}

void pos_make_null(Position *pos)
{
    const StateInfo *prev = &pos->states[pos->st_index];
    StateInfo *st = &pos->states[++pos->st_index];
    *st = *prev;
    st->rule50++;
    st->plies_from_null = 0;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    st->moved = NO_PIECE;
    st->key ^= zobrist.side;
    if (st->ep != SQ_NONE) {
        st->key ^= zobrist.ep_file[sq_file(st->ep)];
        st->ep = SQ_NONE;
    }
    pos->side = color_flip(pos->side);
    pos->game_ply++;
    st->checkers = 0;
}

void pos_unmake_null(Position *pos)
{
    pos->side = color_flip(pos->side);
    pos->game_ply--;
    pos->st_index--;
}

bool pos_trim_history(Position *pos)
{
    if (pos->st_index < MAX_GAME_PLY - 2 * MAX_PLY)
        return true;
    const StateInfo *st = pos_state(pos);
    int keep = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (keep > 101) // past the fifty-move rule nothing older matters
        keep = 101;
    int first = pos->st_index - keep;
    memmove(&pos->states[0], &pos->states[first], (size_t)(keep + 1) * sizeof(StateInfo));
    pos->st_index = keep;
    return pos->st_index < MAX_GAME_PLY - 2 * MAX_PLY;
}

/* ---------------------------------------------------------------- draws */

// Plies back to the last irreversible move or null move (no earlier position can recur).
static int reversible_plies(const Position *pos)
{
    const StateInfo *st = pos_state(pos);
    int end = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    return end < pos->st_index ? end : pos->st_index;
}

// The first distance i >= from (stepping by two, up to end) at which the position `back`
// plies ago occurred before it, counted from now; 0 if none.
static int earlier_occurrence(const Position *pos, int back, int from, int end)
{
    Key key = pos_state_back(pos, back)->key;
    for (int i = from; i <= end; i += 2)
        if (pos_state_back(pos, i)->key == key)
            return i;
    return 0;
}

bool pos_is_repetition(const Position *pos, int root_dist)
{
    int end = reversible_plies(pos), count = 0;
    for (int i = earlier_occurrence(pos, 0, 4, end); i; i = earlier_occurrence(pos, 0, i + 2, end))
        if (i < root_dist || ++count >= 2)
            return true;
    return false;
}

bool pos_has_repeated(const Position *pos)
{
    int end = reversible_plies(pos);
    for (int back = 0; back + 4 <= end; back++)
        if (earlier_occurrence(pos, back, back + 4, end))
            return true;
    return false;
}

bool pos_is_fifty_move_draw(const Position *pos) { return pos_state(pos)->rule50 >= 100; }

bool pos_is_insufficient_material(const Position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    Bitboard minors = pos->by_type[KNIGHT] | pos->by_type[BISHOP];
    if (popcount(minors) <= 1)
        return true;
    // Only bishops, all on squares of one colour: no mate is possible.
    static const Bitboard DARK = 0xAA55AA55AA55AA55ULL;
    if (!pos->by_type[KNIGHT])
        return !(pos->by_type[BISHOP] & DARK) || !(pos->by_type[BISHOP] & ~DARK);
    return false;
}

/* ---------------------------------------------------------------- checks */

Key pos_compute_key(const Position *pos)
{
    const StateInfo *st = pos_state(pos);
    Key key = 0;
    for (Square sq = 0; sq < 64; sq++)
        if (pos->board[sq] != NO_PIECE)
            key ^= zobrist.piece_square[pos->board[sq]][sq];
    if (pos->side == BLACK)
        key ^= zobrist.side;
    key ^= zobrist.castling[st->castling];
    if (st->ep != SQ_NONE)
        key ^= zobrist.ep_file[sq_file(st->ep)];
    return key;
}

bool pos_is_ok(const Position *pos)
{
    const StateInfo *st = pos_state(pos);
    for (Square sq = 0; sq < 64; sq++) {
        int piece = pos->board[sq];
        bool on_bb = (pos_occupied(pos) & sq_bb(sq)) != 0;
        if ((piece == NO_PIECE) == on_bb)
            return false;
        if (piece != NO_PIECE) {
            if (!(pos_pieces(pos, piece_color(piece), piece_type(piece)) & sq_bb(sq)))
                return false;
        }
    }
    if (pos->by_color[WHITE] & pos->by_color[BLACK])
        return false;
    if (popcount(pos_pieces(pos, WHITE, KING)) != 1 || popcount(pos_pieces(pos, BLACK, KING)) != 1)
        return false;
    Key pawns = 0;
    for (Bitboard b = pos->by_type[PAWN]; b;) {
        Square sq = pop_lsb(&b);
        pawns ^= zobrist.piece_square[pos->board[sq]][sq];
    }
    return st->key == pos_compute_key(pos) && st->pawn_key == pawns && st->checkers == compute_checkers(pos)
        && !pos_attacked_by(pos, pos_king(pos, color_flip(pos->side)), pos->side);
}
