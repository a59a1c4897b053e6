// SPDX-License-Identifier: MIT
// UCI move text in and out.
#include "move.h"

#include <string.h>

#include "movegen.h"

void move_to_uci(Move m, bool chess960, char *buf)
{
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "0000");
        return;
    }
    Square from = move_from(m), to = move_to(m);
    if (move_is_castle(m) && !chess960) // internally king takes rook; show the king's target
        to = make_square(to > from ? 6 : 2, sq_rank(from));
    buf[0] = (char)('a' + sq_file(from));
    buf[1] = (char)('1' + sq_rank(from));
    buf[2] = (char)('a' + sq_file(to));
    buf[3] = (char)('1' + sq_rank(to));
    buf[4] = move_is_promo(m) ? "nbrq"[move_promo_type(m) - KNIGHT] : '\0';
    buf[5] = '\0';
}

Move move_from_uci(const Position *pos, const char *text)
{
    size_t len = strlen(text);
    if (len < 4 || len > 5)
        return MOVE_NONE;
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    char buf[MOVE_STR_MAX];
    // The position's own notation first, so an alternative castling spelling never
    // hides an ordinary king move.
    for (int pass = 0; pass < 2; pass++) {
        bool chess960 = pass == 0 ? pos->chess960 : !pos->chess960;
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (pass == 1 && !move_is_castle(m))
                continue;
            move_to_uci(m, chess960, buf);
            if (!strcmp(buf, text))
                return m;
        }
    }
    return MOVE_NONE;
}

Move move_from_san(const Position *pos, const char *text)
{
    char san[16];
    size_t n = 0;
    for (const char *p = text; *p && n < sizeof san - 1; p++)
        if (!strchr("+#!?x=-", *p) || (*p == '-' && (p[1] == 'O' || p[1] == '0')))
            san[n++] = *p == '0' ? 'O' : *p;
    san[n] = '\0';
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    if (!strcmp(san, "O-O") || !strcmp(san, "O-O-O")) {
        bool king_side = n == 3;
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (move_is_castle(m) && (move_to(m) > move_from(m)) == king_side)
                return m;
        }
        return MOVE_NONE;
    }
    int type = PAWN, promo = -1;
    const char *s = san;
    const char *letters = "PNBRQK";
    if (*s && strchr(letters + 1, *s))
        type = (int)(strchr(letters, *s++) - letters);
    size_t len = strlen(s);
    if (len && strchr("NBRQ", s[len - 1])) {
        promo = (int)(strchr(letters, s[len - 1]) - letters);
        len--;
    }
    if (len < 2)
        return MOVE_NONE;
    int to_file = s[len - 2] - 'a', to_rank = s[len - 1] - '1';
    int from_file = -1, from_rank = -1;
    for (size_t i = 0; i + 2 < len; i++) {
        if (s[i] >= 'a' && s[i] <= 'h')
            from_file = s[i] - 'a';
        else if (s[i] >= '1' && s[i] <= '8')
            from_rank = s[i] - '1';
    }
    Move found = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        Square from = move_from(m), to = move_to(m);
        if (move_is_castle(m) || piece_type(pos->board[from]) != type || sq_file(to) != to_file
            || sq_rank(to) != to_rank)
            continue;
        if ((from_file >= 0 && sq_file(from) != from_file) || (from_rank >= 0 && sq_rank(from) != from_rank))
            continue;
        if (move_is_promo(m) ? move_promo_type(m) != promo : promo != -1)
            continue;
        if (found != MOVE_NONE)
            return MOVE_NONE; // ambiguous
        found = m;
    }
    return found;
}
