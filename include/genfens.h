// SPDX-License-Identifier: MIT
// OpenBench's opening generator interface (its Client/genfens.py runs
// `./engine "genfens N seed S book <None|FILE> [extra]" quit`): N openings printed as
// "info string genfens <FEN>", made as tools/datagen makes its own (openings.h); with a
// book, from positions of the EPD file followed by a few random plies.
#ifndef OUTPOST_GENFENS_H
#define OUTPOST_GENFENS_H

#include "nnue.h"

// Runs one genfens command (the whole text, "genfens ..."), searching with net (NULL:
// the hand-written evaluation). Prints exactly N lines through out and returns 0; on a
// missing or out-of-range argument or an unreadable or empty book prints one line
// "info string genfens: <reason>" and returns 1 at once. The same seed gives the same
// FENs; each FEN is legal, with a legal move, and within OPENING_MAX_SCORE.
int genfens_run(const char *command, const Nnue *net, OutputFn out, void *ctx);

#endif
