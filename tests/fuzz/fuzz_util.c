// SPDX-License-Identifier: MIT
// What every fuzz target shares: the failure report and the one-time table set-up.
#include <stdio.h>
#include <stdlib.h>

#include "attacks.h"
#include "fuzz.h"
#include "psqt.h"
#include "zobrist.h"

void fuzz_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz check failed: %s\n", what);
        abort();
    }
}

void fuzz_init(void)
{
    attacks_init(); // each of these is idempotent
    zobrist_init();
    psqt_init();
}
