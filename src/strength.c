// SPDX-License-Identifier: MIT
// The level-to-plan mapping and the weighted choice of a weakened search.
#include "strength.h"

#include <math.h>

StrengthPlan strength_plan(int elo)
{
    elo = elo < STRENGTH_MIN_ELO ? STRENGTH_MIN_ELO : elo > STRENGTH_MAX_ELO ? STRENGTH_MAX_ELO : elo;
    // A level L sets the plan: the budget doubles every 100 points (about 16,000 nodes at
    // L = 1800, 520,000 at 2300, a full search at 10+0.1 on this machine) and the spread
    // shrinks linearly from 1.5 pawns at L = 1320 to nothing at 2300. Against Stockfish's
    // UCI_Elo scale, L = 1800 played about 220 Elo below 1800 and L = 2300 about 50 below
    // 2300 (docs/STRENGTH.md); taking the gap as linear between them, UCI_Elo E is played
    // at L = (E + 832) / 1.34.
    int level = (elo + 832) * 100 / 134;
    level = level > STRENGTH_MAX_ELO ? STRENGTH_MAX_ELO : level;
    StrengthPlan p;
    p.nodes = (uint64_t)(64.0 * pow(2.0, (level - 1000) / 100.0));
    p.spread = (STRENGTH_MAX_ELO - level) * 3 / 20;
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
