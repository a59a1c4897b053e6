// SPDX-License-Identifier: MIT
// The bench command: fixed-depth searches over built-in positions, OpenBench's format.
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>

#include "search.h"

static const char *const BENCH_FENS[] = {
#include "bench_positions.inc"
};

static void discard(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

uint64_t bench_run(int depth, size_t hash_mb, FILE *out)
{
    TT tt = {0};
    SearchControl ctl;
    SearchThread *t = calloc(1, sizeof *t);
    if (!t || !tt_resize(&tt, hash_mb)) {
        fprintf(out, "info string bench: out of memory\n");
        free(t);
        return 0;
    }
    uint64_t nodes = 0;
    int64_t start = tm_now();
    size_t count = sizeof BENCH_FENS / sizeof *BENCH_FENS;
    for (size_t i = 0; i < count; i++) {
        char err[128];
        if (!pos_set_fen(&t->pos, BENCH_FENS[i], false, err, sizeof err)) {
            fprintf(out, "info string bench position %zu: %s\n", i + 1, err);
            continue;
        }
        tt_clear(&tt);
        search_clear(t);
        atomic_init(&ctl.stop, false);
        atomic_init(&ctl.pondering, false);
        atomic_init(&ctl.start_ms, tm_now());
        t->tt = &tt;
        t->ctl = &ctl;
        limits_init(&t->limits);
        t->limits.depth = depth;
        t->opts = (SearchOptions){.multipv = 1, .print_bestmove = false};
        t->out = discard;
        t->out_ctx = NULL;
        search_run(t);
        nodes += t->nodes;
    }
    int64_t ms = tm_now() - start;
    uint64_t nps = nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1);
    fprintf(out, "Positions  : %zu\nDepth      : %d\nTime (ms)  : %" PRId64 "\n", count, depth, ms);
    fprintf(out, "%" PRIu64 " nodes %" PRIu64 " nps\n", nodes, nps);
    fflush(out);
    tt_free(&tt);
    free(t);
    return nodes;
}
