// SPDX-License-Identifier: MIT
// Clearing and updating the move histories.
#include "history.h"

#include <string.h>

void hist_clear(Histories *h) { memset(h, 0, sizeof *h); }

void hist_update_quiet(Histories *h, const Position *pos, const ContRows *rows, Move m, int bonus)
{
    hist_update(&h->butterfly[pos->side][move_from(m)][move_to(m)], bonus);
    for (int k = 0; k < 2; k++)
        if (rows->row[k])
            hist_update(&rows->row[k][hist_piece_to(pos, m)], bonus);
}
