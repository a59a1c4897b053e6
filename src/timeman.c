// SPDX-License-Identifier: MIT
// Time allocation. The engine must never lose on time, so every figure is bounded by a
// share of what is left after the move overhead, however the clock values look.
#include "timeman.h"

#include "platform.h"


void limits_init(SearchLimits *limits)
{
    *limits = (SearchLimits){.time = {TIME_NONE, TIME_NONE}, .movetime = -1};
}

int64_t tm_now(void) { return platform_now_ms(); }

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int64_t tm_clamp(int64_t ms)
{
    return ms == TIME_NONE ? TIME_NONE : ms < -CLOCK_MAX_MS ? -CLOCK_MAX_MS : ms > CLOCK_MAX_MS ? CLOCK_MAX_MS : ms;
}

TimeBudget tm_budget(const SearchLimits *limits, int side, int64_t overhead_ms)
{
    TimeBudget b = {INT64_MAX, INT64_MAX, false};
    // An infinite search ends only on stop, whatever clock values came with it.
    if (limits->infinite)
        return b;
    // Every figure is clamped first, so no sum or product below can overflow.
    overhead_ms = max64(0, min64(overhead_ms, CLOCK_MAX_MS));
    if (limits->movetime >= 0) {
        b.hard_ms = max64(1, tm_clamp(limits->movetime) - overhead_ms);
        b.soft_ms = b.hard_ms;
    }
    // A clock for the other side only: assume ours is the same rather than search forever.
    int clock_side = limits->time[side] != TIME_NONE ? side : !side;
    int64_t time = tm_clamp(limits->time[clock_side]);
    if (time != TIME_NONE) {
        int64_t inc = max64(0, tm_clamp(limits->inc[clock_side]));
        // Every move to come loses the overhead too: keep it for the moves to go plus two
        // (up to 40, or 50 with no control to reach), less what their increments bring,
        // and never less than one overhead. Without an increment the clock then never runs
        // down to where the latency alone flags: once only the reserve is left the moves
        // are instant, and 52 more fit in sudden death while the latency stays within the
        // overhead. With an increment above the overhead this is one overhead, as before.
        int reserve_moves = limits->movestogo > 0 ? (limits->movestogo < 40 ? limits->movestogo : 40) : 50;
        int64_t reserve = max64(overhead_ms, overhead_ms * (reserve_moves + 2) - inc * (reserve_moves - 1));
        int64_t left = max64(0, time - reserve);
        int mtg = limits->movestogo > 0 ? (limits->movestogo < 40 ? limits->movestogo : 40) : 25;
        int64_t base = left / mtg + inc * 3 / 4;
        // Never plan on more than a fraction of what is left: the increment arrives only
        // after the move, and an increment larger than the clock must not be spent early.
        int64_t hard = min64(base * 4, left * 3 / 4);
        int64_t soft = min64(base * 7 / 10, hard);
        if (limits->movestogo == 1) // the last move before the control: use it, within reason
            soft = hard = left * 3 / 4;
        b.hard_ms = min64(b.hard_ms, max64(0, hard));
        b.soft_ms = min64(b.soft_ms, max64(0, soft));
        b.clock = limits->movetime < 0;
    }
    return b;
}

int64_t tm_scaled_soft(const TimeBudget *b, int stable, int drop, double share)
{
    if (!b->clock)
        return b->soft_ms;
    // Stability: the first iterations after a change of mind get the most.
    static const double STABILITY[] = {1.8, 1.4, 1.15, 1.0, 0.9, 0.8};
    double f = STABILITY[stable < 0 ? 0 : stable > 5 ? 5 : stable];
    f *= 1.0 + (drop <= 0 ? 0 : drop >= 80 ? 80 : drop) / 160.0; // up to x1.5 for a falling score
    share = share < 0 ? 0 : share > 1 ? 1 : share;
    f *= (1.5 - share) * 1.3; // x0.65 when the best move took every node, x1.95 when none
    double soft = (double)b->soft_ms * f;
    return soft >= (double)b->hard_ms ? b->hard_ms : (int64_t)soft;
}
