// SPDX-License-Identifier: MIT
// Replays every input under tests/fuzz/corpus/<target>/ (the seeds) and
// tests/fuzz/regress/<target>/ (each crash the fuzzer ever found) through the fuzz
// targets, so a fixed crash stays fixed. A failing input aborts this binary.
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <dirent.h>

#include "fuzz/fuzz.h"

typedef int (*FuzzTarget)(const uint8_t *, size_t);

// Runs target on each regular file of dir; returns how many it ran.
static int replay_dir(const char *dir, FuzzTarget target)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (run the tests from the repository root)", dir);
    int count = 0;
    static uint8_t buf[1 << 20];
    for (struct dirent *ent; (ent = readdir(d));) {
        if (ent->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            fail_msg("cannot read %s", path);
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        target(buf, n);
        count++;
    }
    closedir(d);
    return count;
}

static void replay(const char *name, FuzzTarget target, int min_seeds)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    int seeds = replay_dir(dir, target);
    snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", name);
    int crashes = replay_dir(dir, target);
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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_uci),
        cmocka_unit_test(test_replay_fen),
        cmocka_unit_test(test_replay_move),
    };
    return cmocka_run_group_tests_name("fuzz replay", tests, NULL, NULL);
}
