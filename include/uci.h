// SPDX-License-Identifier: MIT
// The UCI front end: reads commands from a stream, answers on another, and runs the
// search in a thread of its own so that input is always read at once.
#ifndef OUTPOST_UCI_H
#define OUTPOST_UCI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OUTPOST_VERSION "0.1"

// Upper bounds for sessions that must stay short whatever they are sent (the fuzzer and
// the tests that replay its inputs). A field of 0 means no cap.
typedef struct {
    uint64_t max_nodes;  // every search also stops after this many nodes
    size_t max_hash_mb;  // larger Hash values are lowered to this
    int max_perft_depth; // go perft N and bench depths above this are lowered to it
    int max_threads;     // larger Threads values are lowered to this
} UciCaps;

// Runs the UCI loop until `quit` or end of input. Returns the process exit code.
int uci_loop(FILE *in, FILE *out);

// The same loop with caps (see UciCaps). Each call starts from a fresh engine state.
int uci_loop_capped(FILE *in, FILE *out, const UciCaps *caps);

#endif
