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

// Extra milliseconds allowed on wall-clock bounds (OUTPOST_TIME_SLACK_MS, default 0). Only the
// instrumented builds set it: a ThreadSanitizer engine runs many times slower between two
// clock checks, so there an overshoot says nothing about time use in a real build.
static inline int time_slack_ms(void)
{
    const char *s = getenv("OUTPOST_TIME_SLACK_MS");
    return s ? atoi(s) : 0;
}

#endif
