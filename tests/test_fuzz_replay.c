// SPDX-License-Identifier: MIT
// Replays every input under tests/fuzz/corpus/<target>/ (the seeds) and
// tests/fuzz/regress/<target>/ (each crash the fuzzer ever found) through the fuzz
// targets, so a fixed crash stays fixed. A failing input aborts this binary.
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "uci.h"

typedef int (*FuzzTarget)(const uint8_t *, size_t);

enum { INPUT_TIMEOUT_S = 30 };

// An input that hangs must fail the test rather than hang make test.
static char current[512];
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "replay: input hangs: ";
    (void)!write(2, msg, sizeof msg - 1);
    (void)!write(2, current, strlen(current));
    (void)!write(2, "\n", 1);
    _exit(1);
}

// Runs target on each regular file of dir; returns how many it ran. A missing dir is an
// error unless optional (a target whose fuzzer has found nothing has no regress/ folder).
static int replay_dir(const char *dir, FuzzTarget target, bool optional)
{
    DIR *d = opendir(dir);
    if (!d && optional)
        return 0;
    if (!d)
        fail_msg("cannot open %s (run the tests from the repository root)", dir);
    int count = 0;
    static uint8_t buf[1 << 20];
    for (struct dirent *ent; (ent = readdir(d));) {
        if (ent->d_name[0] == '.')
            continue;
        snprintf(current, sizeof current, "%s/%s", dir, ent->d_name);
        FILE *f = fopen(current, "rb");
        if (!f)
            fail_msg("cannot read %s", current);
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        alarm(INPUT_TIMEOUT_S);
        target(buf, n);
        alarm(0);
        count++;
    }
    closedir(d);
    return count;
}

static void replay(const char *name, FuzzTarget target, int min_seeds)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    int seeds = replay_dir(dir, target, false);
    snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", name);
    int crashes = replay_dir(dir, target, true);
    print_message("%s: %d seeds and %d former crashes replayed\n", name, seeds, crashes);
    assert_true(seeds >= min_seeds);
}

static void test_replay_uci(void **state)
{
    (void)state;
    replay("uci", fuzz_uci, 5);
}

static void test_replay_fen(void **state)
{
    (void)state;
    replay("fen", fuzz_fen, 5);
}

static void test_replay_move(void **state)
{
    (void)state;
    replay("move", fuzz_move, 3);
}

static void test_replay_book(void **state)
{
    (void)state;
    replay("book", fuzz_book, 4);
}

static void test_replay_pgn(void **state)
{
    (void)state;
    replay("pgn", fuzz_pgn, 3);
}

static void test_replay_syzygy(void **state)
{
    (void)state;
    replay("syzygy", fuzz_syzygy, 6);
}

// The fuzzer's caps hold for every long command, plain `bench` (default depth 11)
// included: the fuzzer once timed out on a `bench` whose depth escaped the cap.
static char *run_capped(const char *input)
{
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(in);
    assert_non_null(out);
    static const UciCaps CAPS = {.max_nodes = 400, .max_hash_mb = 1, .max_perft_depth = 2};
    assert_int_equal(uci_loop_capped(in, out, &CAPS), 0);
    fclose(in);
    fclose(out);
    return buf;
}

static void test_caps_hold(void **state)
{
    (void)state;
    // At the end of input (no quit) a bounded job runs to its end.
    char *out = run_capped("go perft 5\nbench 9\nbench\n");
    assert_non_null(strstr(out, "info string go perft depth must be from 0 to 2, not 5"));
    assert_non_null(strstr(out, "info string bench depth must be from 1 to 2, not '9'"));
    assert_non_null(strstr(out, "info string bench: 40 positions, depth 2,"));
    free(out);
    out = run_capped("position startpos\ngo depth 30\n");
    assert_non_null(strstr(out, " nodes 400 "));
    free(out);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_uci),
        cmocka_unit_test(test_replay_fen),
        cmocka_unit_test(test_replay_move),
        cmocka_unit_test(test_replay_book),
        cmocka_unit_test(test_replay_syzygy),
        cmocka_unit_test(test_replay_pgn),
        cmocka_unit_test(test_caps_hold),
    };
    return cmocka_run_group_tests_name("fuzz replay", tests, NULL, NULL);
}
