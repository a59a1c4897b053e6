// SPDX-License-Identifier: MIT
// The bench command: fixed-depth searches over built-in positions, OpenBench's format.
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>

#include <string.h>

#include "move.h"
#include "platform.h"
#include "root.h"

static const char *const BENCH_FENS[] = {
#include "bench_positions.inc"
};

// Prepares t for a fresh search of its position: cleared TT and history, no output. The
// stop flag is the caller's: a stop that arrives between two searches must stay seen.
static void fresh_search(SearchThread *t, TT *tt, SearchControl *ctl, const Nnue *net)
{
    tt_clear(tt);
    search_clear(t);
    atomic_store(&ctl->pondering, false);
    atomic_store(&ctl->start_ms, tm_now());
    t->tt = tt;
    t->ctl = ctl;
    limits_init(&t->limits);
    t->opts = (SearchOptions){.multipv = 1, .print_bestmove = false};
    t->out = search_discard_output;
    t->out_ctx = NULL;
    t->nnue = net;
}

static SearchThread *alloc_search(TT *tt, size_t hash_mb)
{
    SearchThread *t = platform_calloc_aligned(sizeof *t, _Alignof(SearchThread));
    if (!t || !tt_resize(tt, hash_mb)) {
        platform_free_aligned(t);
        return NULL;
    }
    search_init(t);
    return t;
}

uint64_t bench_run(int depth, size_t hash_mb, const Nnue *net, OutputFn out, void *ctx, SearchControl *ctl)
{
    TT tt = {0};
    SearchControl own;
    search_control_init(&own);
    if (!ctl)
        ctl = &own;
    SearchThread *t = alloc_search(&tt, hash_mb);
    char line[160];
    if (!t) {
        out(ctx, "info string bench: out of memory");
        return 0;
    }
    uint64_t nodes = 0;
    int64_t start = tm_now();
    size_t count = sizeof BENCH_FENS / sizeof *BENCH_FENS, done = 0;
    for (; done < count && !atomic_load(&ctl->stop); done++) {
        char err[128];
        if (!pos_set_fen(&t->pos, BENCH_FENS[done], false, err, sizeof err)) {
            snprintf(line, sizeof line, "info string bench position %zu: %s", done + 1, err);
            out(ctx, line);
            continue;
        }
        fresh_search(t, &tt, ctl, net);
        t->limits.depth = depth;
        root_search(t);
        nodes += t->nodes;
    }
    tt_free(&tt);
    platform_free_aligned(t);
    if (atomic_load(&ctl->stop)) { // a search cut short leaves a count that means nothing
        snprintf(line, sizeof line, "info string bench stopped after %zu of %zu positions", done, count);
        out(ctx, line);
        return 0;
    }
    int64_t ms = tm_now() - start;
    uint64_t nps = nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1);
    // An info string, so that the summary is also a well-formed line in UCI mode.
    snprintf(line, sizeof line, "info string bench: %zu positions, depth %d, %" PRId64 " ms", count, depth, ms);
    out(ctx, line);
    snprintf(line, sizeof line, "%" PRIu64 " nodes %" PRIu64 " nps", nodes, nps);
    out(ctx, line);
    return nodes;
}

// Collects the SAN moves of operation `op` ("bm" or "am") of an EPD line into moves[].
static int epd_moves(const Position *pos, const char *ops, const char *op, Move *moves, int max)
{
    char key[8];
    snprintf(key, sizeof key, "%s ", op);
    const char *p = ops;
    while ((p = strstr(p, key)) && p != ops && p[-1] != ' ' && p[-1] != ';')
        p++;
    if (!p)
        return 0;
    char list[256];
    snprintf(list, sizeof list, "%s", p + strlen(key));
    list[strcspn(list, ";")] = '\0';
    int n = 0;
    for (char *tok = strtok(list, " "); tok && n < max; tok = strtok(NULL, " ")) {
        Move m = move_from_san(pos, tok);
        if (m != MOVE_NONE)
            moves[n++] = m;
    }
    return n;
}

int bench_epd(const char *path, int ms, size_t hash_mb, const Nnue *net, FILE *out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(out, "info string cannot open %s\n", path);
        return 0;
    }
    TT tt = {0};
    SearchControl ctl;
    search_control_init(&ctl);
    SearchThread *t = alloc_search(&tt, hash_mb);
    if (!t) {
        fprintf(out, "info string out of memory\n");
        fclose(f);
        return 0;
    }
    char line[1024];
    int total = 0, solved = 0;
    while (fgets(line, sizeof line, f)) {
        char fen[256] = "", *ops = line;
        for (int field = 0; field < 4; field++) { // EPD: four FEN fields, then operations
            size_t len = strcspn(ops, " ");
            strncat(fen, ops, len);
            strcat(fen, " ");
            ops += len + (ops[len] == ' ');
        }
        char err[128];
        if (!pos_set_fen(&t->pos, fen, false, err, sizeof err))
            continue;
        Move bm[16], am[16];
        int nbm = epd_moves(&t->pos, ops, "bm", bm, 16), nam = epd_moves(&t->pos, ops, "am", am, 16);
        if (nbm + nam == 0)
            continue;
        fresh_search(t, &tt, &ctl, net);
        t->limits.movetime = ms;
        t->opts.move_overhead = 0;
        root_search(t);
        bool ok = nbm == 0;
        for (int i = 0; i < nbm; i++)
            ok |= t->best_move == bm[i];
        for (int i = 0; i < nam; i++)
            ok &= t->best_move != am[i];
        total++;
        solved += ok;
        char mv[MOVE_STR_MAX], id[64] = "";
        const char *idp = strstr(ops, "id \"");
        if (idp)
            sscanf(idp + 4, "%63[^\"]", id);
        move_to_uci(t->best_move, false, mv);
        fprintf(out, "%-16s %-6s %s\n", id, mv, ok ? "solved" : "missed");
        fflush(out);
    }
    fprintf(out, "solved %d of %d at %d ms per position\n", solved, total, ms);
    fclose(f);
    tt_free(&tt);
    platform_free_aligned(t);
    return solved;
}
