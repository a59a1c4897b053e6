// SPDX-License-Identifier: MIT
// Helpers shared by the cmocka tests: table set-up and reading EPD data files.
#ifndef OUTPOST_TEST_UTIL_H
#define OUTPOST_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "attacks.h"
#include "psqt.h"
#include "zobrist.h"

static inline void init_tables(void)
{
    attacks_init();
    zobrist_init();
    psqt_init();
}

// Opens a data file under tests/data, failing the test if it is missing.
static inline FILE *open_data(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/%s", name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (run the tests from the repository root)", path);
    return f;
}

// True when the long checks were asked for (make test-long).
static inline int long_tests(void) { return getenv("OUTPOST_LONG") != NULL; }

#endif
