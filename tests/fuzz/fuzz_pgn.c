// SPDX-License-Identifier: MIT
// Fuzz target: the PGN reader on any text. Every game it accepts must replay legally
// from its start position, a refused game must say why, and the reader must get to the
// end of the input (each call consumes at least one line).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "movegen.h"
#include "pgn.h"

int fuzz_pgn(const uint8_t *data, size_t size)
{
    fuzz_init();
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    fuzz_check(f != NULL, "fmemopen failed");
    PgnReader r;
    pgn_open(&r, f);
    static PgnGame g;
    static Position pos;
    char err[256];
    long games = 0;
    for (;;) {
        long line = r.line;
        bool had_pending = r.pending != NULL;
        int got = pgn_next_game(&r, &g, err, sizeof err);
        if (got == 0)
            break;
        fuzz_check(r.line > line || had_pending, "a game consumed no line");
        fuzz_check(++games <= (long)size, "more games than bytes");
        if (got < 0) {
            fuzz_check(err[0] != '\0', "a game refused without a reason");
            continue;
        }
        fuzz_check(g.result >= -1 && g.result <= 2 && g.n >= 0 && g.n <= PGN_MAX_PLIES, "game fields out of range");
        fuzz_check(pos_set_fen(&pos, g.fen[0] ? g.fen : START_FEN, g.chess960, err, sizeof err),
                   "an accepted game's start position does not load");
        for (int i = 0; i < g.n; i++) {
            Move m = g.moves[i].move;
            fuzz_check(gen_is_pseudo_legal(&pos, m) && gen_is_legal(&pos, m), "an accepted move is illegal");
            pos_make_move(&pos, m);
            pos_trim_history(&pos);
        }
    }
    pgn_close(&r);
    fclose(f);
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_pgn(data, size); }
#endif
