// SPDX-License-Identifier: MIT
// The level-to-plan mapping and the weighted choice of a weakened search.
#include "strength.h"

#include <math.h>

// The level that plays UCI_Elo E on Stockfish 15.1's scale (docs/STRENGTH.md). Up to 1800
// it is (E + 832) / 1.34: level 1800 played about 1580 and 2300 about 2250, and the gap
// was taken as linear between them (1500 and 1800 then scored 62.5 and 44.5 %). Above,
// where the plan narrows its lines, it is linear between measured anchors.
static const int ANCHOR_ELO[] = {1800, 2100, 2300};
static const int ANCHOR_LEVEL[] = {1964, 2260, 2300};

static int level_of(int elo)
{
    if (elo <= ANCHOR_ELO[0])
        return (elo + 832) * 100 / 134;
    int i = elo > ANCHOR_ELO[1] ? 2 : 1;
    int e0 = ANCHOR_ELO[i - 1], e1 = ANCHOR_ELO[i], l0 = ANCHOR_LEVEL[i - 1], l1 = ANCHOR_LEVEL[i];
    return l0 + (elo - e0) * (l1 - l0) / (e1 - e0);
}

StrengthPlan strength_plan(int elo)
{
    elo = elo < STRENGTH_MIN_ELO ? STRENGTH_MIN_ELO : elo > STRENGTH_MAX_ELO ? STRENGTH_MAX_ELO : elo;
    // A level L sets the plan: the budget doubles every 100 points (about 16,000 nodes at
    // L = 1800, 520,000 at 2300, a full search at 10+0.1 on this machine) and the spread
    // shrinks linearly from 1.5 pawns at L = 1320 to nothing at 2300. The search looks at
    // four lines while the spread is half a pawn or more, three down to a quarter, two
    // above zero and one (the full-strength search within the budget) at none: a small
    // spread only ever chooses among the best two or three, and every line costs depth.
    int level = level_of(elo); // at most STRENGTH_MAX_ELO: level_of(2300) = 2300
    StrengthPlan p;
    p.nodes = (uint64_t)(64.0 * pow(2.0, (level - 1000) / 100.0));
    p.spread = (STRENGTH_MAX_ELO - level) * 3 / 20;
    p.lines = p.spread >= 50 ? STRENGTH_LINES : p.spread >= 25 ? 3 : p.spread > 0 ? 2 : 1;
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
