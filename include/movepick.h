// SPDX-License-Identifier: MIT
// The staged move picker: hands the search one move at a time, best first, and generates
// each kind of move only when the moves before it have not already cut the node off.
// Stages: the TT move (before any generation), captures and promotions by MVV-LVA plus
// capture history with SEE tested only as each is reached (losers deferred), the two
// killers, the counter move, quiet moves by history, then the deferred losing captures.
// Quiescence search (out of check) stops after the winning captures.
#ifndef OUTPOST_MOVEPICK_H
#define OUTPOST_MOVEPICK_H

#include "history.h"
#include "movegen.h"

typedef enum {
    MP_TT,
    MP_GEN_NOISY,
    MP_GOOD_NOISY,
    MP_KILLER_1,
    MP_KILLER_2,
    MP_COUNTER,
    MP_GEN_QUIET,
    MP_QUIET,
    MP_BAD_NOISY,
    MP_DONE,
} MpStage;

typedef struct {
    const Position *pos;
    const Histories *hist;
    ContRows rows;
    Move tt_move, killers[2], counter;
    MpStage stage;
    bool noisy_only;  // quiescence out of check: TT move and winning captures only
    bool skip_quiets; // set by the search once it prunes quiet moves: killers, counter
                      // and quiets are not returned any more
    MpStage last_stage; // the stage of the move mp_next returned last
    int last_score;     // its ordering score (for a quiet move: its history)
    int cur, end;       // moves[cur, end) are still to be picked in this stage
    int n_bad, bad_cur;
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    Move bad[MAX_MOVES];
    int bad_scores[MAX_MOVES];
} MovePicker;

// A picker for a node of the main search (every legal move) or, with noisy_only, of
// quiescence out of check. tt_move, killers and counter may be any values: the picker
// checks them against the position. rows may be NULL when no quiet move will be asked.
void mp_init(MovePicker *mp, const Position *pos, const Histories *hist, const ContRows *rows, Move tt_move,
             const Move killers[2], Move counter, bool noisy_only);

// The next legal move, or MOVE_NONE when there is none left. Each legal move is returned
// once (quiets not at all after skip_quiets; only the TT move and winning captures with
// noisy_only).
Move mp_next(MovePicker *mp);

// True if the last move came from the killer or counter-move stages.
static inline bool mp_last_is_refutation(const MovePicker *mp)
{
    return mp->last_stage >= MP_KILLER_1 && mp->last_stage <= MP_COUNTER;
}

#endif
