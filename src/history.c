// SPDX-License-Identifier: MIT
// Clearing and updating the move histories.
#include "history.h"

#include <string.h>

void hist_clear(Histories *h) { memset(h, 0, sizeof *h); }

void hist_update_quiet(Histories *h, const Position *pos, const ContRows *rows, Move m, int bonus)
{
    hist_update(hist_butterfly(h, pos, rows, m), bonus);
    for (int k = 0; k < 2; k++)
        if (rows->row[k])
            hist_update(&rows->row[k][hist_piece_to(pos, m)], bonus);
}

void hist_update_corr(Histories *h, const Position *pos, int diff, int depth)
{
    int16_t *e = &h->pawn_corr[pos->side][hist_corr_index(pos)];
    int w = depth + 1 < CORR_WEIGHT_MAX ? depth + 1 : CORR_WEIGHT_MAX;
    int v = (*e * (256 - w) + diff * CORR_GRAIN * w) / 256;
    *e = (int16_t)(v > CORR_MAX ? CORR_MAX : v < -CORR_MAX ? -CORR_MAX : v);
}
