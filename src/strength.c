// SPDX-License-Identifier: MIT
// The level-to-plan mapping and the weighted choice of a weakened search.
#include "strength.h"

#include <math.h>

StrengthPlan strength_plan(int elo)
{
    elo = elo < STRENGTH_MIN_ELO ? STRENGTH_MIN_ELO : elo > STRENGTH_MAX_ELO ? STRENGTH_MAX_ELO : elo;
    // The budget doubles every 100 Elo: about 600 nodes at 1320, 16,000 at 1800, 520,000
    // at 2300 (a full search at 10+0.1 on this machine). The spread shrinks linearly from
    // 1.5 pawns at 1320 to nothing at the top.
    StrengthPlan p;
    p.nodes = (uint64_t)(64.0 * pow(2.0, (elo - 1000) / 100.0));
    p.spread = (STRENGTH_MAX_ELO - elo) * 3 / 20;
    return p;
}

int strength_choose(const Score *scores, int n, int spread, uint64_t r)
{
    if (n <= 1 || spread <= 0)
        return 0;
    uint64_t weight[64], total = 0;
    for (int i = 0; i < n && i < 64; i++) {
        int loss = scores[0] - scores[i];
        weight[i] = loss <= spread ? (uint64_t)(spread + 1 - loss) : 0;
        total += weight[i];
    }
    uint64_t x = r % total; // total > 0: the best line always has weight spread + 1
    for (int i = 0; i < n && i < 64; i++) {
        if (x < weight[i])
            return i;
        x -= weight[i];
    }
    return 0;
}
