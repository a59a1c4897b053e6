// SPDX-License-Identifier: MIT
// The search's tuning constants, every one named in one place: the margins, depths and
// counts of the pruning steps, the reduction formula, the aspiration window and the
// history bonuses. A tuner (SPSA) reads and sets them through PARAM_TABLE.
#ifndef OUTPOST_PARAMS_H
#define OUTPOST_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    // Reverse futility pruning: at depth <= rfp_depth, eval - rfp_margin * depth >= beta cuts.
    int rfp_depth, rfp_margin;
    // Razoring: at depth <= razor_depth, eval + razor_margin * depth below alpha asks
    // quiescence, and a score there that stays at or below alpha is returned.
    int razor_depth, razor_margin;
    // Null move: from nmp_depth; reduction nmp_base + depth / nmp_depth_div plus
    // (eval - beta) / nmp_eval_div, the latter at most nmp_eval_max.
    int nmp_depth, nmp_base, nmp_depth_div, nmp_eval_div, nmp_eval_max;
    // Internal iterative reduction from this depth, in PV and cut nodes without a TT move.
    int iir_depth;
    // Late-move pruning: at depth <= lmp_depth, quiets after lmp_base + depth^2 / lmp_div moves.
    int lmp_depth, lmp_base, lmp_div;
    // Futility pruning of quiets: at depth <= fp_depth, eval + fp_base + fp_margin * depth <= alpha.
    int fp_depth, fp_base, fp_margin;
    // SEE pruning at depth <= see_depth: quiets below -see_quiet * depth, noisy moves
    // below -see_noisy * depth^2.
    int see_depth, see_quiet, see_noisy;
    // Singular extensions: from se_depth, TT draft at least depth - se_tt_depth, margin
    // se_margin * depth / 8 (eighths of a centipawn per ply, so a tuner can go below one).
    int se_depth, se_tt_depth, se_margin;
    // Late-move reductions of quiet moves from lmr_depth: lmr_base / 100 + ln(depth)
    // ln(moves) * 100 / lmr_div, one more off the PV and one more at cut nodes, less
    // history / lmr_history and one for a move that gives check. Killers and the counter
    // move are never reduced.
    int lmr_depth, lmr_base, lmr_div, lmr_history;
    // A reduced move that beats alpha is re-searched a ply deeper when its score is more
    // than lmr_deeper_base + lmr_deeper_mult * depth above the best so far.
    int lmr_deeper_base, lmr_deeper_mult;
    // Aspiration windows from asp_depth, first half-width asp_delta, doubled on a fail.
    int asp_depth, asp_delta;
    // History bonus for a cutoff at depth d: hist_mult * min(d * d, hist_max_sq).
    int hist_mult, hist_max_sq;
} SearchParams;

// The values the engine plays with: twelve of them moved by the SPSA run of issue 52 and
// kept by its SPRT, the others set by hand and by earlier SPRTs (docs/STRENGTH.md).
#define SEARCH_PARAMS_DEFAULT                                                                                     \
    {                                                                                                             \
        .rfp_depth = 8, .rfp_margin = 79, .razor_depth = 3, .razor_margin = 250,                                  \
        .nmp_depth = 3, .nmp_base = 3, .nmp_depth_div = 4, .nmp_eval_div = 195,                                   \
        .nmp_eval_max = 3, .iir_depth = 4, .lmp_depth = 8, .lmp_base = 3, .lmp_div = 2, .fp_depth = 6,            \
        .fp_base = 88, .fp_margin = 108, .see_depth = 6, .see_quiet = 51, .see_noisy = 21, .se_depth = 8,         \
        .se_tt_depth = 3, .se_margin = 8, .lmr_depth = 3, .lmr_base = 70, .lmr_div = 237, .lmr_history = 12590,   \
        .lmr_deeper_base = 40, .lmr_deeper_mult = 2,                                                              \
        .asp_depth = 4, .asp_delta = 19, .hist_mult = 8, .hist_max_sq = 1244,                                     \
    }

// One tunable parameter: its name, where it lives in SearchParams, its sensible range.
typedef struct {
    const char *name;
    size_t offset;
    int min, max;
} ParamInfo;

extern const ParamInfo PARAM_TABLE[];
extern const int PARAM_COUNT;

// The parameter called name (case-sensitive), or NULL.
const ParamInfo *param_find(const char *name);

// Sets a parameter; false (and p unchanged) when value is outside the parameter's range.
bool param_set(SearchParams *p, const ParamInfo *info, int value);
int param_get(const SearchParams *p, const ParamInfo *info);

// OpenBench's SPSA input line of a parameter at value: "name, int, value, min, max,
// c_end, r_end", with c_end a twentieth of the range (at least 1) and r_end 0.002.
void param_spsa_line(const ParamInfo *info, int value, char *buf, size_t size);

#endif
