// SPDX-License-Identifier: MIT
// Fuzz target: the move parsers. Byte 0 picks a position and the notation for castling;
// each following word is read as a UCI move and as SAN. A parsed move must be one of the
// legal moves, print back to a string that parses to the same move, and is then played,
// so later words meet the positions that follow.
#include <ctype.h>
#include <string.h>

#include "fuzz.h"
#include "move.h"
#include "movegen.h"
#include "position.h"

static const char *const FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 2",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
};

static void check_move(Position *pos, Move m, bool chess960)
{
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    bool legal = false;
    for (int i = 0; i < list.count; i++)
        legal |= list.moves[i] == m;
    fuzz_check(legal, "a parser returned a move that is not legal");
    char text[MOVE_STR_MAX];
    move_to_uci(m, chess960, text);
    fuzz_check(move_from_uci(pos, text) == m, "UCI text of a move does not parse back to it");
}

int fuzz_move(const uint8_t *data, size_t size)
{
    static Position pos;
    fuzz_init();
    if (size < 1)
        return 0;
    int nfens = (int)(sizeof FENS / sizeof *FENS);
    const char *fen = FENS[(data[0] >> 1) % nfens];
    char err[160];
    fuzz_check(pos_set_fen(&pos, fen, data[0] & 1, err, sizeof err), "a base FEN was rejected");
    bool chess960 = pos.chess960;

    char word[64];
    size_t i = 1;
    while (i < size) {
        while (i < size && isspace(data[i]))
            i++;
        size_t n = 0;
        while (i < size && !isspace(data[i])) {
            if (n < sizeof word - 1)
                word[n++] = (char)data[i];
            i++;
        }
        word[n] = '\0';
        if (n == 0)
            continue;
        Move uci = move_from_uci(&pos, word);
        Move san = move_from_san(&pos, word);
        if (uci != MOVE_NONE)
            check_move(&pos, uci, chess960);
        if (san != MOVE_NONE)
            check_move(&pos, san, chess960);
        Move m = uci != MOVE_NONE ? uci : san;
        if (m != MOVE_NONE) {
            pos_make_move(&pos, m);
            pos_trim_history(&pos); // as the UCI loop does, so any number of moves fits
            fuzz_check(pos_is_ok(&pos), "position broken after a parsed move");
        }
    }
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_move(data, size); }
#endif
