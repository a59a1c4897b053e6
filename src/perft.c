// SPDX-License-Identifier: MIT
// Perft with bulk counting: at the last ply the number of legal moves is the count.
#include "perft.h"

#include <inttypes.h>
#include <stdio.h>

#include "move.h"
#include "movegen.h"

// stop: NULL, or polled at nodes with at least three plies below them (a few thousand
// leaves at least, so the poll costs nothing measurable).
static uint64_t perft_run(Position *pos, int depth, const atomic_bool *stop)
{
    if (depth <= 0)
        return 1;
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    if (depth == 1)
        return (uint64_t)list.count;
    if (stop && depth >= 3 && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        nodes += perft_run(pos, depth - 1, stop);
        pos_unmake_move(pos, list.moves[i]);
    }
    return nodes;
}

uint64_t perft(Position *pos, int depth) { return perft_run(pos, depth, NULL); }

int perft_max_depth(const Position *pos)
{
    int room = MAX_GAME_PLY - 1 - pos->st_index;
    return room < PERFT_MAX_DEPTH ? room : PERFT_MAX_DEPTH;
}

static bool stopped(const atomic_bool *stop) { return stop && atomic_load(stop); }

uint64_t perft_divide(Position *pos, int depth, OutputFn out, void *ctx, const atomic_bool *stop)
{
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    uint64_t total = depth <= 0 ? 1 : 0;
    char buf[MOVE_STR_MAX], line[64];
    for (int i = 0; i < list.count && depth > 0; i++) {
        pos_make_move(pos, list.moves[i]);
        uint64_t n = perft_run(pos, depth - 1, stop);
        pos_unmake_move(pos, list.moves[i]);
        if (stopped(stop)) {
            snprintf(line, sizeof line, "info string perft stopped after %d of %d moves", i, list.count);
            out(ctx, line);
            return 0;
        }
        move_to_uci(list.moves[i], pos->chess960, buf);
        snprintf(line, sizeof line, "%s: %" PRIu64, buf, n);
        out(ctx, line);
        total += n;
    }
    out(ctx, "");
    snprintf(line, sizeof line, "Nodes searched: %" PRIu64, total);
    out(ctx, line);
    return total;
}
