// SPDX-License-Identifier: MIT
// Converts match runners' PGN files (fastchess, cutechess-cli: each move's score and depth
// in its comment) into the training records tools/train reads (include/packpos.h): every
// position before a scored move, with that score (the mover's view), the move played and
// the game's result. As with tools/datagen's games, positions in check, noisy moves and
// mate scores are written and left to the trainer's reader to drop; book moves (no
// score) are not written. Unfinished games (result "*" or none) and Chess960 games are
// skipped; a malformed game is named (file, game number, reason) and skipped, and the
// rest of the file is read. Usage: pgn2data OUT.bin FILE.pgn... ("-" reads stdin).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "packpos.h"
#include "pgn.h"
#include "psqt.h"
#include "zobrist.h"

typedef struct {
    long games, converted, malformed, unfinished, variant;
    long written, unscored;
} Counts;

// Writes the records of one game; false when the output fails.
static bool write_game(const PgnGame *g, FILE *out, Counts *c)
{
    static Position pos;
    char err[128];
    if (!pos_set_fen(&pos, g->fen[0] ? g->fen : START_FEN, false, err, sizeof err))
        return true; // cannot happen: pgn_next_game replayed it
    for (int i = 0; i < g->n; i++) {
        const PgnMove *m = &g->moves[i];
        if (m->scored) {
            PackedPos rec;
            packpos_pack(&pos, m->score, m->move, g->result, &rec);
            if (fwrite(&rec, sizeof rec, 1, out) != 1)
                return false;
            c->written++;
        } else {
            c->unscored++;
        }
        pos_make_move(&pos, m->move);
        pos_trim_history(&pos);
    }
    return true;
}

static bool convert_file(const char *path, FILE *out, Counts *c)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "pgn2data: cannot open %s\n", path);
        return false;
    }
    PgnReader r;
    pgn_open(&r, f);
    static PgnGame g;
    char err[256];
    bool ok = true;
    for (long number = 1;; number++) {
        int got = pgn_next_game(&r, &g, err, sizeof err);
        if (got == 0)
            break;
        c->games++;
        if (got < 0) {
            fprintf(stderr, "pgn2data: %s, game %ld (ending at line %ld): %s; skipped\n", path, number, r.line, err);
            c->malformed++;
        } else if (g.result < 0) {
            c->unfinished++;
        } else if (g.chess960) {
            c->variant++;
        } else if (!write_game(&g, out, c)) {
            fprintf(stderr, "pgn2data: cannot write the records\n");
            ok = false;
            break;
        } else {
            c->converted++;
        }
    }
    pgn_close(&r);
    if (f != stdin)
        fclose(f);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pgn2data OUT.bin FILE.pgn... (\"-\" reads stdin)\n");
        return 2;
    }
    attacks_init();
    zobrist_init();
    psqt_init();
    FILE *out = fopen(argv[1], "wb");
    if (!out) {
        fprintf(stderr, "pgn2data: cannot write %s\n", argv[1]);
        return 1;
    }
    Counts c = {0};
    bool ok = true;
    for (int i = 2; i < argc && ok; i++)
        ok = convert_file(argv[i], out, &c);
    ok = fclose(out) == 0 && ok;
    printf("%ld games: %ld converted, %ld malformed, %ld unfinished, %ld Chess960 (skipped); %ld positions "
           "written, %ld moves without a score (book) not written\n",
           c.games, c.converted, c.malformed, c.unfinished, c.variant, c.written, c.unscored);
    return ok ? 0 : 1;
}
