// SPDX-License-Identifier: MIT
// Entry point: initialises the tables, then runs a command-line subcommand
// (bench [depth], perft N [FEN], epd FILE [ms], "genfens ...", spsa, --version, --help) or
// the UCI loop on stdin/stdout.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "bench.h"
#include "genfens.h"
#include "nnue.h"
#include "params.h"
#include "perft.h"
#include "platform.h"
#include "position.h"
#include "psqt.h"
#include "uci.h"
#include "version.h"
#include "zobrist.h"

static void print_line(void *ctx, const char *line)
{
    (void)ctx;
    puts(line);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    // Before anything that may use the instructions the build was compiled for.
    const char *missing = platform_missing_cpu_feature();
    if (missing) {
        printf("info string this build of Outpost needs a CPU with %s; "
               "pick the build for this CPU (README.md, Releases)\n",
               missing);
        return 1;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        puts("Outpost " OUTPOST_FULL_VERSION);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("Outpost " OUTPOST_FULL_VERSION ", a UCI chess engine: load it in a chess GUI, or type UCI commands.\n"
             "usage: outpost                        UCI on stdin and stdout\n"
             "       outpost bench [depth]          the node-count signature (last line: N nodes M nps)\n"
             "       outpost perft N [FEN]          move-generator counts per move\n"
             "       outpost epd FILE [ms]          an EPD test suite at ms per position\n"
             "       outpost \"genfens N seed S book <None|FILE>\" quit   OpenBench's openings\n"
             "       outpost spsa                   OpenBench's SPSA input\n"
             "       outpost --version              the version");
        return 0;
    }
    attacks_init();
    zobrist_init();
    psqt_init();
    // The default evaluation: the built-in network if there is one.
    static Nnue net;
    char err[256];
    const Nnue *eval_net = nnue_has_embedded() && nnue_load_embedded(&net, err, sizeof err) ? &net : NULL;
    if (argc >= 2 && !strcmp(argv[1], "bench")) {
        int depth = argc >= 3 ? atoi(argv[2]) : BENCH_DEFAULT_DEPTH;
        bench_run(depth > 0 && depth < 64 ? depth : BENCH_DEFAULT_DEPTH, 16, eval_net, print_line, NULL, NULL);
        nnue_free(&net);
        return 0;
    }
    // OpenBench: ./outpost "genfens N seed S book B [extra]" quit (the words may also come
    // as separate arguments); the process ends after the openings.
    if (argc >= 2 && !strncmp(argv[1], "genfens", 7) && (argv[1][7] == ' ' || argv[1][7] == '\0')) {
        char command[1024] = "";
        for (int i = 1; i < argc && strcmp(argv[i], "quit"); i++) {
            strncat(command, argv[i], sizeof command - strlen(command) - 2);
            strcat(command, " ");
        }
        int rc = genfens_run(command, eval_net, print_line, NULL);
        nnue_free(&net);
        return rc;
    }
    // OpenBench's SPSA input: one line per named search parameter (setting them takes a
    // TUNE=1 build, whose `uci` lists them as options).
    if (argc >= 2 && !strcmp(argv[1], "spsa")) {
        SearchParams defaults = SEARCH_PARAMS_DEFAULT;
        for (int i = 0; i < PARAM_COUNT; i++) {
            char line[160];
            param_spsa_line(&PARAM_TABLE[i], param_get(&defaults, &PARAM_TABLE[i]), line, sizeof line);
            puts(line);
        }
        nnue_free(&net);
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "epd")) {
        int ms = argc >= 4 ? atoi(argv[3]) : 1000;
        bench_epd(argv[2], ms > 0 ? ms : 1000, 64, eval_net, stdout);
        nnue_free(&net);
        return 0;
    }
    nnue_free(&net);
    if (argc >= 3 && !strcmp(argv[1], "perft")) {
        static Position pos;
        char *end;
        const char *fen = argc >= 4 ? argv[3] : START_FEN;
        if (!pos_set_fen(&pos, fen, false, err, sizeof err)) {
            printf("info string invalid FEN: %s\n", err);
            return 1;
        }
        long depth = strtol(argv[2], &end, 10);
        if (*end || end == argv[2] || depth < 0 || depth > perft_max_depth(&pos)) {
            printf("info string perft depth must be an integer from 0 to %d, not '%s'\n", perft_max_depth(&pos),
                   argv[2]);
            return 1;
        }
        perft_divide(&pos, (int)depth, print_line, NULL, NULL);
        return 0;
    }
    return uci_loop(stdin, stdout);
}
