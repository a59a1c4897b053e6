// SPDX-License-Identifier: MIT
// The table of tunable search parameters: names, places and ranges.
#include "params.h"

#include <stdio.h>
#include <string.h>

#define PARAM(field, lo, hi) {#field, offsetof(SearchParams, field), lo, hi}

const ParamInfo PARAM_TABLE[] = {
    PARAM(rfp_depth, 1, 16),          PARAM(rfp_margin, 20, 200),       PARAM(razor_depth, 1, 6),
    PARAM(razor_margin, 50, 600),     PARAM(nmp_depth, 1, 8),           PARAM(nmp_base, 1, 6),
    PARAM(nmp_depth_div, 2, 8),       PARAM(nmp_eval_div, 50, 500),     PARAM(nmp_eval_max, 0, 6),
    PARAM(iir_depth, 2, 10),          PARAM(lmp_depth, 1, 16),          PARAM(lmp_base, 1, 10),
    PARAM(lmp_div, 1, 4),             PARAM(fp_depth, 1, 12),           PARAM(fp_base, 0, 300),
    PARAM(fp_margin, 20, 300),        PARAM(see_depth, 1, 12),          PARAM(see_quiet, 10, 200),
    PARAM(see_noisy, 5, 100),         PARAM(se_depth, 4, 14),           PARAM(se_tt_depth, 1, 6),
    PARAM(se_margin, 2, 48),          PARAM(lmr_depth, 2, 6),           PARAM(lmr_base, 0, 200),
    PARAM(lmr_div, 100, 500),         PARAM(lmr_history, 2000, 40000),  PARAM(lmr_deeper_base, 0, 120),
    PARAM(lmr_deeper_mult, 0, 8),     PARAM(asp_depth, 1, 10),          PARAM(asp_delta, 5, 100),
    PARAM(hist_mult, 1, 32),          PARAM(hist_max_sq, 100, 4000),
};

const int PARAM_COUNT = (int)(sizeof PARAM_TABLE / sizeof *PARAM_TABLE);

const ParamInfo *param_find(const char *name)
{
    for (int i = 0; i < PARAM_COUNT; i++)
        if (!strcmp(PARAM_TABLE[i].name, name))
            return &PARAM_TABLE[i];
    return NULL;
}

static int *field_of(SearchParams *p, const ParamInfo *info) { return (int *)((char *)p + info->offset); }

bool param_set(SearchParams *p, const ParamInfo *info, int value)
{
    if (value < info->min || value > info->max)
        return false;
    *field_of(p, info) = value;
    return true;
}

int param_get(const SearchParams *p, const ParamInfo *info) { return *(const int *)((const char *)p + info->offset); }

void param_spsa_line(const ParamInfo *info, int value, char *buf, size_t size)
{
    int c_end = (info->max - info->min) / 20;
    snprintf(buf, size, "%s, int, %d, %d, %d, %d, 0.002", info->name, value, info->min, info->max,
             c_end > 0 ? c_end : 1);
}
