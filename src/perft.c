// SPDX-License-Identifier: MIT
// Perft with bulk counting: at the last ply the number of legal moves is the count.
#include "perft.h"

#include <inttypes.h>

#include "move.h"
#include "movegen.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    if (depth == 1)
        return (uint64_t)list.count;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        nodes += perft(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i]);
    }
    return nodes;
}

uint64_t perft_divide(Position *pos, int depth, FILE *out)
{
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    uint64_t total = 0;
    char buf[MOVE_STR_MAX];
    for (int i = 0; i < list.count && depth > 0; i++) {
        pos_make_move(pos, list.moves[i]);
        uint64_t n = perft(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i]);
        move_to_uci(list.moves[i], pos->chess960, buf);
        fprintf(out, "%s: %" PRIu64 "\n", buf, n);
        total += n;
    }
    if (depth <= 0)
        total = 1;
    fprintf(out, "\nNodes searched: %" PRIu64 "\n", total);
    fflush(out);
    return total;
}
