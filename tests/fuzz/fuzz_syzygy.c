// SPDX-License-Identifier: MIT
// Fuzz target: the Syzygy table loader and decoder on a corrupted table. Byte 0 picks one
// of the tables in tests/data/syzygy and whether the input replaces its WDL or its DTZ
// file; the rest is that file. The table is set up in a temporary directory (beside the
// real WDL file when the input is a DTZ file) and probed in a few positions: a probe
// may fail, but an answer must be in range and the position must come back unchanged.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "syzygy.h"

typedef struct {
    const char *name;
    const char *fens[3];
} FuzzTable;

static const FuzzTable TABLES[] = {
    {"KRvK", {"8/8/8/8/2k5/8/3R4/6K1 w - - 0 1", "8/8/8/8/2k5/8/3R4/6K1 b - - 0 1", "R7/8/8/8/8/8/2k5/K7 b - - 0 1"}},
    {"KPvK", {"8/8/8/8/2k5/8/3P4/6K1 w - - 0 1", "8/8/8/8/2k5/8/3P4/6K1 b - - 0 1", "8/1P6/8/8/8/8/2k5/K7 b - - 0 1"}},
    {"KRvKR", {"r7/8/8/8/2k5/8/3R4/6K1 w - - 0 1", "r7/8/8/8/2k5/8/3R4/6K1 b - - 0 1", "8/8/8/2k5/8/8/2rR4/6K1 w - - 0 1"}},
    {"KPPvK", {"8/8/8/8/2k5/8/3PP3/6K1 w - - 0 1", "8/8/8/8/2k5/8/P6P/6K1 b - - 0 1", "8/1P6/1P6/8/8/8/2k5/K7 b - - 0 1"}},
    {"KNvKN", {"8/8/8/8/2k5/8/8/3N2Kn w - - 0 1", "8/8/8/8/2k5/8/8/3N2Kn b - - 0 1", "8/8/8/8/8/8/n1k5/K1N5 w - - 0 1"}},
};
enum { N_TABLES = sizeof TABLES / sizeof TABLES[0] };

static void copy_file(const char *from, const char *to)
{
    static unsigned char buf[1 << 20];
    FILE *in = fopen(from, "rb");
    fuzz_check(in != NULL, "cannot read a table of tests/data/syzygy (run from the repository root)");
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    FILE *out = fopen(to, "wb");
    fuzz_check(out != NULL && fwrite(buf, 1, n, out) == n, "cannot write the temporary table");
    fclose(out);
}

// The temporary directory, made once a process; its tables are removed after each input,
// and the directory itself at exit (remove_dir).
static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

int fuzz_syzygy(const uint8_t *data, size_t size)
{
    fuzz_init();
    if (size < 1)
        return 0;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/outpost_fuzz_tb_%d", (int)getpid());
        mkdir(dir, 0700);
        atexit(remove_dir);
    }
    const FuzzTable *t = &TABLES[data[0] % N_TABLES];
    bool dtz = (data[0] / N_TABLES) & 1;
    char path[256], other[256], real[256];
    snprintf(path, sizeof path, "%s/%s%s", dir, t->name, dtz ? ".rtbz" : ".rtbw");
    snprintf(other, sizeof other, "%s/%s%s", dir, t->name, dtz ? ".rtbw" : ".rtbz");
    FILE *f = fopen(path, "wb");
    fuzz_check(f != NULL, "cannot write the temporary table");
    fuzz_check(fwrite(data + 1, 1, size - 1, f) == size - 1, "cannot write the temporary table");
    fclose(f);
    if (dtz) {
        snprintf(real, sizeof real, "tests/data/syzygy/%s.rtbw", t->name);
        copy_file(real, other);
    }
    Syzygy *tb = tb_create(NULL, NULL);
    fuzz_check(tb != NULL, "no memory");
    int n_wdl, n_dtz;
    tb_set_path(tb, dir, &n_wdl, &n_dtz);
    static Position pos;
    for (int i = 0; i < 3; i++) {
        char err[128];
        fuzz_check(pos_set_fen(&pos, t->fens[i], false, err, sizeof err), "fixed FEN rejected");
        Key key = pos_key(&pos);
        int v;
        if (tb_probe_wdl(tb, &pos, &v))
            fuzz_check(v >= TB_LOSS && v <= TB_WIN, "WDL out of range");
        if (tb_probe_dtz(tb, &pos, &v))
            fuzz_check(v >= -1100 && v <= 1100, "DTZ out of range");
        fuzz_check(pos_key(&pos) == key, "position not restored");
    }
    tb_free(tb);
    unlink(path);
    if (dtz)
        unlink(other);
    return 0;
}

#ifdef OUTPOST_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_syzygy(data, size); }
#endif
