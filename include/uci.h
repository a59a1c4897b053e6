// SPDX-License-Identifier: MIT
// The UCI front end: reads commands from a stream, answers on another, and runs the
// search in a thread of its own so that input is always read at once.
#ifndef OUTPOST_UCI_H
#define OUTPOST_UCI_H

#include <stdio.h>

#include "engine.h"

// Runs the UCI loop until `quit` or end of input. Returns the process exit code.
int uci_loop(FILE *in, FILE *out);

// The same loop with caps (see UciCaps). Each call starts from a fresh engine state.
int uci_loop_capped(FILE *in, FILE *out, const UciCaps *caps);

#endif
