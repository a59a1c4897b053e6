// SPDX-License-Identifier: MIT
// Fuzz target: the FEN parser. A rejected FEN must leave the position as it was and say
// why; an accepted one must be consistent, print back to a FEN that parses to the same
// position, and survive make/unmake of every legal move.
#include <string.h>

#include "fuzz.h"
#include "movegen.h"
#include "perft.h"
#include "position.h"

int fuzz_fen(const uint8_t *data, size_t size)
{
    static Position pos, again;
    fuzz_init();
    char fen[512], err[160] = "", before[FEN_MAX], out[FEN_MAX], out2[FEN_MAX];
    if (size < 1 || size > sizeof fen)
        return 0;
    bool chess960 = data[0] & 1;
    memcpy(fen, data + 1, size - 1);
    fen[size - 1] = '\0';

    fuzz_check(pos_set_fen(&pos, START_FEN, false, err, sizeof err), "start position rejected");
    pos_to_fen(&pos, before);
    if (!pos_set_fen(&pos, fen, chess960, err, sizeof err)) {
        fuzz_check(err[0] != '\0', "FEN rejected without a reason");
        pos_to_fen(&pos, out);
        fuzz_check(!strcmp(out, before) && pos_is_ok(&pos), "a rejected FEN changed the position");
        return 0;
    }
    fuzz_check(pos_is_ok(&pos), "accepted FEN gives an inconsistent position");
    pos_to_fen(&pos, out);
    fuzz_check(pos_set_fen(&again, out, chess960, err, sizeof err), "printed FEN does not parse back");
    pos_to_fen(&again, out2);
    fuzz_check(!strcmp(out, out2) && pos_key(&pos) == pos_key(&again), "FEN round trip differs");

    MoveList list;
    gen_moves(&pos, &list, GEN_ALL);
    fuzz_check(list.count == gen_count_legal(&pos), "move count and move list disagree");
    for (int i = 0; i < list.count; i++) {
        pos_make_move(&pos, list.moves[i]);
        fuzz_check(pos_is_ok(&pos) && pos_key(&pos) == pos_compute_key(&pos), "make_move broke the position");
        pos_unmake_move(&pos, list.moves[i]);
        pos_to_fen(&pos, out2);
        fuzz_check(!strcmp(out, out2) && pos_key(&pos) == pos_key(&again), "unmake_move did not restore");
    }
    (void)perft(&pos, 2);
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_fen(data, size); }
#endif
