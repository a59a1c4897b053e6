// SPDX-License-Identifier: MIT
// Probes the Syzygy tables (src/syzygy.c) for every position of an EPD file and reports
// the probe speed; where a line carries "wdl W; dtz D;" (as ../shared/data/oracle.syzygy.epd
// does) it also counts the answers that agree.
//
//   tbprobe PATH EPD [REPEAT]   each position probed REPEAT times (default 20) for the speed
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attacks.h"
#include "position.h"
#include "psqt.h"
#include "syzygy.h"
#include "zobrist.h"

enum { MAX_POSITIONS = 100000, FEN_LEN = 128 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_line(void *ctx, const char *line)
{
    (void)ctx;
    puts(line);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tbprobe PATH EPD [REPEAT]\n");
        return 2;
    }
    int repeat = argc > 3 ? atoi(argv[3]) : 20;
    attacks_init();
    zobrist_init();
    psqt_init();
    Syzygy *tb = tb_create(print_line, NULL);
    int n_wdl, n_dtz;
    int largest = tb_set_path(tb, argv[1], &n_wdl, &n_dtz);
    printf("%d WDL and %d DTZ tables, up to %d pieces\n", n_wdl, n_dtz, largest);
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", argv[2]);
        return 1;
    }
    // A Position holds the game's history (hundreds of KB): one is set from each FEN in
    // turn, and the time that takes is measured apart and subtracted.
    static Position pos;
    static char fens[MAX_POSITIONS][FEN_LEN];
    static int want_wdl[MAX_POSITIONS], want_dtz[MAX_POSITIONS];
    int n = 0, with_answers = 0;
    char line[512];
    while (n < MAX_POSITIONS && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        want_wdl[n] = want_dtz[n] = 9999;
        if (semi) {
            *semi = '\0';
            with_answers += sscanf(semi + 1, " wdl %d; dtz %d;", &want_wdl[n], &want_dtz[n]) == 2;
        }
        char err[128];
        if (strlen(line) < FEN_LEN && pos_set_fen(&pos, line, false, err, sizeof err))
            strcpy(fens[n++], line);
    }
    fclose(f);
    int wdl_ok = 0, dtz_ok = 0, failed = 0;
    char err[128];
    for (int i = 0; i < n; i++) { // first pass: answers (and the files mapped)
        int wdl, dtz;
        pos_set_fen(&pos, fens[i], false, err, sizeof err);
        bool ok = tb_probe_wdl(tb, &pos, &wdl) && tb_probe_dtz(tb, &pos, &dtz);
        failed += !ok;
        wdl_ok += ok && wdl == want_wdl[i];
        dtz_ok += ok && dtz == want_dtz[i];
    }
    printf("%d positions, %d probes failed", n, failed);
    if (with_answers)
        printf("; WDL %d/%d and DTZ %d/%d as expected", wdl_ok, with_answers, dtz_ok, with_answers);
    printf("\n");
    long long sink = 0;
    double t[4];
    for (int kind = 0; kind < 3; kind++) { // FEN only, FEN + WDL, FEN + DTZ
        t[kind] = now_s();
        for (int r = 0; r < repeat; r++)
            for (int i = 0; i < n; i++) {
                int v = 0;
                pos_set_fen(&pos, fens[i], false, err, sizeof err);
                if (kind == 1)
                    tb_probe_wdl(tb, &pos, &v);
                else if (kind == 2)
                    tb_probe_dtz(tb, &pos, &v);
                sink += v;
            }
        t[kind + 1] = now_s();
    }
    double probes = (double)n * repeat, fen = t[1] - t[0];
    printf("WDL: %.0f probes/s, DTZ: %.0f probes/s (%d positions x %d, FEN set-up time subtracted, checksum %lld)\n",
           probes / (t[2] - t[1] - fen), probes / (t[3] - t[2] - fen), n, repeat, sink);
    tb_free(tb);
    return with_answers && (wdl_ok != with_answers || dtz_ok != with_answers);
}
