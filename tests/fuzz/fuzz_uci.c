// SPDX-License-Identifier: MIT
// Fuzz target: a whole UCI session through the real loop and search thread. Caps keep
// every session short (searches stop after a few thousand nodes, small Hash, shallow
// perft); ASan/UBSan and the loop's own return catch the faults.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "fuzz.h"
#include "uci.h"

int fuzz_uci(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) {
        fuzz_init();
        sink = fopen("/dev/null", "w");
        fuzz_check(sink != NULL, "cannot open /dev/null");
    }
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    fuzz_check(in != NULL, "fmemopen");
    static const UciCaps CAPS = {.max_nodes = 400, .max_hash_mb = 1, .max_perft_depth = 2, .max_threads = 2};
    fuzz_check(uci_loop_capped(in, sink, &CAPS) == 0, "uci loop returned an error");
    fclose(in);
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_uci(data, size); }
#endif
