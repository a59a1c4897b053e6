// SPDX-License-Identifier: MIT
// Bench: a fixed-depth search over a built-in list of positions. Its node count is the
// signature of the search and evaluation (the `Bench: N` of commit messages).
#ifndef OUTPOST_BENCH_H
#define OUTPOST_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "search.h"

enum { BENCH_DEFAULT_DEPTH = 11 };

// Searches every bench position to `depth` (after clearing all state, so the count is
// deterministic) with the network net (NULL: the hand-written evaluation) and sends the totals to out, ending with "N nodes M nps". ctl: NULL, or
// the control of the caller (the UCI loop), whose stop flag, set while bench runs, ends
// it early; then an info string says so, no totals are printed and 0 is returned.
// Returns the node count.
uint64_t bench_run(int depth, size_t hash_mb, const Nnue *net, OutputFn out, void *ctx, SearchControl *ctl);

// Runs a test suite: for each EPD line with `bm` (or `am`) moves in SAN, searches
// `ms` milliseconds and counts a solve when the engine plays a bm move (or avoids every
// am move). Prints one line per position and a total; returns the number solved.
int bench_epd(const char *path, int ms, size_t hash_mb, const Nnue *net, FILE *out);

#endif
