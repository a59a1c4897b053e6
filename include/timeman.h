// SPDX-License-Identifier: MIT
// Time management: turns the `go` limits into a soft limit (start no new iteration) and
// a hard limit (abort the search), in milliseconds from the start of the search.
#ifndef OUTPOST_TIMEMAN_H
#define OUTPOST_TIMEMAN_H

#include "types.h"

// A clock value that was not given (any other value, even a negative one, was).
#define TIME_NONE INT64_MIN

// What `go` asked for. TIME_NONE, -1 (movetime) or 0 (the others) mean "not given".
typedef struct {
    int64_t time[COLOR_NB]; // remaining clock, ms (may be 0 or negative)
    int64_t inc[COLOR_NB];
    int movestogo;
    int depth;
    int mate;      // mate in this many moves
    int64_t movetime;
    uint64_t nodes;      // hard node limit: the search stops at once
    uint64_t soft_nodes; // no new iteration after this many nodes (data generation)
    bool infinite;
    bool ponder;
} SearchLimits;

typedef struct {
    int64_t soft_ms;  // no new iteration after this; INT64_MAX when unbounded
    int64_t hard_ms;  // abort after this; INT64_MAX when unbounded
    bool clock;       // the limits come from a clock (not movetime): the soft limit may be
                      // scaled by how the search goes (tm_scaled_soft)
} TimeBudget;

// From this depth on, the soft limit follows the search (tm_scaled_soft).
enum { TM_SCALE_FROM_DEPTH = 5 };

// The soft limit of a clock budget scaled by what the iterations so far showed: more
// time while the best move keeps changing (stable: iterations it has held, 0 when it
// just changed), while the score falls (drop: the last iteration's score minus this
// one's, centipawns; rises count as 0) and while the best move took a small share of
// the root's nodes (share, 0..1); less when all three say the choice is easy. Never
// beyond the hard limit; a budget without a clock is returned unchanged.
int64_t tm_scaled_soft(const TimeBudget *b, int stable, int drop, double share);

// Clock values are clamped to +-CLOCK_MAX_MS (about 35 years), so that no arithmetic on
// them can overflow whatever a client sends.
#define CLOCK_MAX_MS ((int64_t)1 << 40)

// v clamped to [-CLOCK_MAX_MS, CLOCK_MAX_MS]; TIME_NONE stays TIME_NONE.
int64_t tm_clamp(int64_t v);

// Clears limits to "nothing given".
void limits_init(SearchLimits *limits);

// The budget for `side` to move with `overhead_ms` lost per move to the GUI and pipes.
// Unbounded (INT64_MAX) for an infinite search. Defined for every int64 input.
TimeBudget tm_budget(const SearchLimits *limits, int side, int64_t overhead_ms);

// Milliseconds from a monotonic clock.
int64_t tm_now(void);

#endif
