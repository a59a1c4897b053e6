// SPDX-License-Identifier: MIT
// Random openings vetted by a short search.
#include "openings.h"

#include <stddef.h>
#include <string.h>

#include "movegen.h"
#include "rng.h"
#include "root.h"

bool opening_random(SearchThread *t, const Position *start, int min_plies, uint64_t *rng)
{
    for (int tries = 0; tries < OPENING_MAX_TRIES; tries++) {
        if (start) {
            memcpy(&t->pos, start, offsetof(Position, states) + (size_t)(start->st_index + 1) * sizeof(StateInfo));
        } else {
            char err[64];
            pos_set_fen(&t->pos, START_FEN, false, err, sizeof err);
        }
        int plies = min_plies + (int)(rng_next(rng) % 2);
        bool ok = true;
        for (int i = 0; i < plies && ok; i++) {
            MoveList list;
            gen_moves(&t->pos, &list, GEN_ALL);
            ok = list.count > 0;
            if (ok)
                pos_make_move(&t->pos, list.moves[rng_next(rng) % (uint64_t)list.count]);
        }
        if (!ok || gen_count_legal(&t->pos) == 0)
            continue;
        Score s;
        root_search_nodes(t, OPENING_NODES, OPENING_NODES, &s);
        if (s >= -OPENING_MAX_SCORE && s <= OPENING_MAX_SCORE)
            return true;
    }
    return false;
}
