// SPDX-License-Identifier: MIT
// Fuzz target: the Polyglot book reader on a corrupted book. The input is the book file:
// it is opened (a refused book must say why and stay closed), and an accepted one is
// probed in a few positions, where every move it returns must be legal and the list
// ordered heaviest first.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "book.h"
#include "fuzz.h"
#include "movegen.h"

int fuzz_book(const uint8_t *data, size_t size)
{
    fuzz_init();
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/outpost_fuzz_book_%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    fuzz_check(f != NULL, "cannot write the temporary book");
    fuzz_check(fwrite(data, 1, size, f) == size, "cannot write the temporary book");
    fclose(f);
    Book book;
    char err[256] = "";
    bool opened = book_open(&book, path, err, sizeof err);
    unlink(path); // an open book reads through its own FILE (POSIX), so the name can go now
    if (!opened) {
        fuzz_check(err[0] != '\0' && book.f == NULL, "book refused without a reason, or left open");
        return 0;
    }
    fuzz_check(book.entries == size / 16 && size % 16 == 0, "entry count wrong");
    static const char *const FENS[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PPQ1PPPP/R1B1KBNR b KQkq - 3 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    };
    static Position pos;
    for (int i = 0; i < 3; i++) {
        fuzz_check(pos_set_fen(&pos, FENS[i], false, err, sizeof err), "fixed FEN rejected");
        BookMove moves[BOOK_MAX_MOVES];
        int n = book_probe(&book, &pos, moves);
        fuzz_check(n >= 0 && n <= BOOK_MAX_MOVES, "too many book moves");
        MoveList legal;
        gen_moves(&pos, &legal, GEN_ALL);
        for (int k = 0; k < n; k++) {
            bool ok = false;
            for (int j = 0; j < legal.count; j++)
                ok |= legal.moves[j] == moves[k].move;
            fuzz_check(ok, "book move not legal");
            fuzz_check(k == 0 || moves[k - 1].weight >= moves[k].weight, "book moves not heaviest first");
        }
        Move m = book_choose(moves, n, false, (uint64_t)size * 2654435761u);
        fuzz_check(n == 0 ? m == MOVE_NONE : m != MOVE_NONE, "choice outside the list");
    }
    book_close(&book);
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_book(data, size); }
#endif
