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
