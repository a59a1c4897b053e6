// SPDX-License-Identifier: MIT
// Stress test of the UCI front end: thousands of commands (go, stop, isready, ponderhit,
// setoption, ucinewgame, position, quit) sent quickly in a random order. It checks that
// every go gets exactly one bestmove, every isready one readyok, every line is a whole
// UCI line, and quit ends the engine at once even mid-search. `make tsan` runs it
// against a ThreadSanitizer build, which then exits non-zero on any data race.
// OUTPOST_STRESS_COMMANDS sets the number of commands (default 3000).
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "engine_pipe.h"

static uint64_t rng_state = 0x5EED5EED12345678ULL;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

typedef struct {
    int gos, bestmoves, isreadys, readyoks;
} Counts;

// Every command of the current session also goes to build/stress_session.txt, so a
// failing session can be replayed by hand (./outpost < build/stress_session.txt).
static FILE *transcript;

static void command(const char *fmt, const char *arg)
{
    send(fmt, arg);
    fprintf(transcript, fmt, arg);
    fputc('\n', transcript);
    fflush(transcript);
}

// A well-formed engine line, whole (two lines run together would fail here).
static void check_line(const char *line, Counts *c)
{
    if (starts_with(line, "bestmove ")) {
        c->bestmoves++;
        if (c->bestmoves > c->gos)
            fail_msg("more bestmoves (%d) than gos (%d): '%s'", c->bestmoves, c->gos, line);
        assert_null(strstr(line + 1, "bestmove"));
        assert_null(strstr(line, "info"));
    } else if (starts_with(line, "readyok")) {
        c->readyoks++;
        assert_string_equal(line, "readyok");
    } else if (starts_with(line, "info ")) {
        assert_null(strstr(line, "bestmove"));
        assert_null(strstr(line, "readyok"));
    } else if (!starts_with(line, "id ") && !starts_with(line, "option ") && strcmp(line, "uciok")) {
        fail_msg("unexpected engine line '%s'", line);
    }
}

// Reads whatever the engine has written so far, without waiting.
static void drain(Counts *c)
{
    while (read_line(0))
        check_line(eng.line, c);
}

static const char *const POSITIONS[] = {
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", // stalemate: bestmove (none)
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",    // invalid: position kept
};

static const char *const GOS[] = {
    "go movetime 5", "go depth 3", "go nodes 2000", "go infinite", "go wtime 50 btime 50 winc 1 binc 1",
    "go ponder wtime 200 btime 200", "go wtime 0 btime -10", "go movetime 1", "go mate 1 movetime 20", "go",
};

// One engine session of n commands; ends with quit sent while a search may be running.
static void session(int n)
{
    Counts c = {0};
    transcript = fopen("build/stress_session.txt", "w");
    assert_non_null(transcript);
    engine_start();
    send("uci");
    expect("uciok", DEFAULT_WAIT_MS);
    const char *threads = getenv("OUTPOST_TEST_THREADS"); // the session's first Threads value
    if (threads && atoi(threads) > 1)
        command("setoption name Threads value %s", threads);
    for (int i = 0; i < n; i++) {
        switch (rnd(12)) {
        case 0: case 1: case 2:
            command("%s", GOS[rnd(sizeof GOS / sizeof *GOS)]);
            c.gos++;
            break;
        case 3: case 4:
            command("%s", "stop");
            break;
        case 5:
            command("%s", "isready");
            c.isreadys++;
            break;
        case 6:
            command("%s", "ponderhit");
            break;
        case 7:
            command("setoption name %s", (const char *const[]){"Hash value 1", "Hash value 4", "Clear Hash", "MultiPV value 2",
                                                           "MultiPV value 1", "Ponder value true", "UCI_ShowWDL value true",
                                                           "Threads value 2", "Move Overhead value 0", "Threads value 4",
                                                           "Threads value 1"}[rnd(11)]);
            break;
        case 8:
            command("%s", "ucinewgame");
            break;
        default:
            command("%s", POSITIONS[rnd(sizeof POSITIONS / sizeof *POSITIONS)]);
            break;
        }
        if (rnd(4) == 0) { // sometimes give the engine a moment, as a GUI would
            struct timespec ts = {0, (long)rnd(2000) * 1000};
            nanosleep(&ts, NULL);
        }
        drain(&c);
    }
    // Every go must end in its bestmove once stopped, every isready in its readyok.
    command("%s", "stop");
    command("%s", "isready");
    c.isreadys++;
    int64_t deadline = now_ms() + DEFAULT_WAIT_MS;
    while ((c.bestmoves < c.gos || c.readyoks < c.isreadys) && now_ms() < deadline) {
        if (read_line(100))
            check_line(eng.line, &c);
        else
            command("%s", "stop"); // a ponder search resumed by ponderhit may still be running
    }
    if (c.bestmoves != c.gos || c.readyoks != c.isreadys)
        fail_msg("%d go / %d bestmove, %d isready / %d readyok", c.gos, c.bestmoves, c.isreadys, c.readyoks);
    // quit in the middle of a fresh search must end the process at once and cleanly.
    command("%s", "go infinite");
    command("%s", "quit");
    close(eng.to_engine);
    int64_t t0 = now_ms();
    int status = engine_wait_exit(5000);
    close(eng.from_engine);
    fclose(transcript);
    if (status != 0)
        fail_msg("engine exit status %d after quit", status);
    print_message("session: %d commands, %d go/bestmove pairs, %d isready, quit took %d ms\n", n, c.gos,
                  c.isreadys, (int)(now_ms() - t0));
}

static void test_stress(void **state)
{
    (void)state;
    const char *env = getenv("OUTPOST_STRESS_COMMANDS");
    int total = env ? atoi(env) : 3000;
    for (int done = 0; done < total;) {
        int n = 200 + (int)rnd(600);
        session(n);
        done += n;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress),
    };
    return cmocka_run_group_tests_name("uci stress", tests, NULL, NULL);
}
